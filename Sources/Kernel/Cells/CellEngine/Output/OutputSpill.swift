import Foundation

/// The files a cell's standard output and error are written to once they pass the
/// ``OutputLimit``: `benchbook-output/In7-stdout.txt` in the kernel's working directory
/// (the notebook's folder, which the user can open in the front end), or in the kernel's
/// work directory when that folder cannot be written.
///
/// A file is made when its stream first passes the limit and holds the stream's whole text,
/// the part shown in the notebook included. Running the cell again (or another kernel's
/// cell with the same label) replaces it.
///
/// Thread rules: used by one thread at a time.
final class OutputSpill {
    /// The folder made in the kernel's working directory.
    static let folderName = "benchbook-output"

    private let folders: [URL]
    private let fileStem: String
    private var files: [StreamName: (handle: FileHandle, path: String)] = [:]
    private var failed: [StreamName: String] = [:]

    /// Files for one cell.
    /// - Parameters:
    ///   - label: the cell's label (`In[7]`); the files are named after it (`In7-stdout.txt`).
    ///   - workingDirectory: where `benchbook-output/` is made, the notebook's folder.
    ///   - fallback: the kernel's private work directory, used when that cannot be written.
    init(label: String, workingDirectory: URL, fallback: URL) {
        fileStem = label.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        folders = [workingDirectory.appendingPathComponent(Self.folderName, isDirectory: true),
                   fallback.appendingPathComponent(Self.folderName, isDirectory: true)]
    }

    deinit { files.values.forEach { try? $0.handle.close() } }

    /// Appends text to the stream's file, making the file first.
    /// - Returns: false when no file could be written (the text is lost; ``problem(of:)`` says why).
    @discardableResult
    func write(_ bytes: some Collection<UInt8>, to stream: StreamName) -> Bool {
        guard let file = file(for: stream) else { return false }
        do {
            try file.handle.write(contentsOf: Data(bytes))
            return true
        } catch {
            failed[stream] = "\(error)"
            files[stream] = nil
            return false
        }
    }

    /// Where the stream's file is, as the user can find it: relative to the working
    /// directory when it is inside it.
    func path(of stream: StreamName) -> String? { files[stream]?.path }

    /// Why the stream's text could not be written, if it could not.
    func problem(of stream: StreamName) -> String? { failed[stream] }

    private func file(for stream: StreamName) -> (handle: FileHandle, path: String)? {
        if let open = files[stream] { return open }
        guard failed[stream] == nil else { return nil }
        let name = "\(fileStem)-\(stream.rawValue).txt"
        for (index, folder) in folders.enumerated() {
            let url = folder.appendingPathComponent(name)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else { continue }
                let handle = try FileHandle(forWritingTo: url)
                let shown = index == 0 ? "\(Self.folderName)/\(name)" : url.path + " (deleted when the kernel stops)"
                files[stream] = (handle, shown)
                return files[stream]
            } catch {
                continue
            }
        }
        failed[stream] = "neither \(folders.map(\.path).joined(separator: " nor ")) can be written"
        return nil
    }
}

/// A cell's output stream, as Jupyter names it.
enum StreamName: String, Sendable, CaseIterable {
    case stdout, stderr
}
