internal import CImageCodecs
import Foundation

/// An IDX file (the MNIST family's format): a magic number giving the element type and
/// rank, the dimensions, then the elements. Only unsigned-byte data is supported.
public struct IDXFile: Sendable {
    /// The size of each axis.
    public let dimensions: [Int]
    /// The elements, row-major.
    public let bytes: [UInt8]

    /// Reads an IDX file, gzip-compressed (`.gz`) or not.
    /// - Parameter path: the file's path.
    /// - Throws: ``IDXError`` when it is missing, corrupt or not unsigned bytes.
    public init(contentsOfFile path: String) throws(IDXError) {
        let raw: [UInt8]
        do {
            raw = try readFileBytes(path)
        } catch {
            if case .unreadableFile(_, let reason) = error { throw .unreadable(path: path, reason: reason) }
            throw .unreadable(path: path, reason: error.description)
        }
        try self.init(data: raw, path: path)
    }

    /// Parses IDX bytes (inflating gzip first when they start with the gzip magic).
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: a name for error messages.
    /// - Throws: ``IDXError`` when the data is corrupt or not unsigned bytes.
    public init(data: [UInt8], path: String = "<memory>") throws(IDXError) {
        var bytes = data
        if data.starts(with: [0x1F, 0x8B]) { bytes = try Self.gunzip(data, path: path) }
        guard bytes.count >= 4, bytes[0] == 0, bytes[1] == 0 else {
            throw .corrupt(path: path, reason: "the IDX magic number is missing")
        }
        guard bytes[2] == 0x08 else {
            throw .corrupt(path: path, reason: String(format: "element type 0x%02X is not unsigned bytes (0x08)", bytes[2]))
        }
        let rank = Int(bytes[3])
        guard rank >= 1, bytes.count >= 4 + 4 * rank else {
            throw .corrupt(path: path, reason: "the header is cut short")
        }
        var dimensions: [Int] = []
        for axis in 0..<rank {
            let at = 4 + 4 * axis
            dimensions.append(Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
        }
        let count = dimensions.reduce(1, *)
        let start = 4 + 4 * rank
        guard bytes.count - start == count else {
            throw .corrupt(path: path, reason: "dimensions \(dimensions) need \(count) bytes but \(bytes.count - start) follow the header (truncated file?)")
        }
        self.dimensions = dimensions
        self.bytes = Array(bytes[start...])
    }

    private static func gunzip(_ data: [UInt8], path: String) throws(IDXError) -> [UInt8] {
        var buffer = cic_buffer()
        var message = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))
        let status = data.withUnsafeBufferPointer { input in
            cic_gunzip(input.baseAddress, input.count, 1 << 31, &buffer, &message)
        }
        guard status == CIC_OK else {
            throw .corrupt(path: path, reason: "gzip: " + String(cString: message.map { UInt8(bitPattern: $0) } + [0]))
        }
        return takeBuffer(&buffer)
    }
}
