import CZlib
import Foundation

/// A model file's size on disk and compressed: what a download of it costs. Pruning leaves
/// a float file as large as before (the zeros are stored like any other weight) but makes it
/// compress well, so an app store's or a server's compression is where it pays.
///
/// ```swift
/// let size = try ModelFileSize(contentsOf: "models/fashion_cnn.tflite")
/// size.compressedShare    // about 0.93: dense float weights hardly compress
/// ```
public struct ModelFileSize: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The file's path as given.
    public var path: String
    /// Bytes on disk.
    public var bytes: Int
    /// Bytes after zlib's deflate at level 9, the compression gzip -9 uses (a .gz file adds
    /// gzip's 18-byte header and trailer; zlib's own adds 6).
    public var compressedBytes: Int

    /// Reads the file and compresses it in memory.
    /// - Parameter path: the model file.
    /// - Throws: ``ModelError/fileNotFound(path:)`` when the file cannot be read,
    ///   ``ModelError/unreadableFile(path:reason:)`` when zlib fails (out of memory).
    public init(contentsOf path: String) throws(ModelError) {
        guard FileManager.default.fileExists(atPath: path) else { throw ModelError.fileNotFound(path: path) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelError.unreadableFile(path: path, reason: "it could not be read")
        }
        self.path = path
        bytes = data.count
        var capacity = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = data.withUnsafeBytes { raw in
            compress2(&output, &capacity, raw.bindMemory(to: Bytef.self).baseAddress, uLong(data.count), 9)
        }
        guard status == Z_OK else { throw ModelError.unreadableFile(path: path, reason: "zlib could not compress it (status \(status))") }
        compressedBytes = Int(capacity)
    }

    /// Compressed size over raw size (1 when nothing compresses).
    public var compressedShare: Double { bytes == 0 ? 1 : Double(compressedBytes) / Double(bytes) }

    /// For example "recipe_pruned.tflite: 6.92 MB, 3.26 MB compressed (47 %)".
    public var description: String {
        func megabytes(_ count: Int) -> String { String(format: "%.2f MB", Double(count) / 1e6) }
        return "\((path as NSString).lastPathComponent): \(megabytes(bytes)), \(megabytes(compressedBytes)) compressed "
            + "(\(Int((compressedShare * 100).rounded())) %)"
    }
}
