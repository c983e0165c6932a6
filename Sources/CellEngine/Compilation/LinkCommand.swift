import SystemSupport
import Foundation

/// The linker invocation clang uses for a shared library, found once by asking
/// `clang -fuse-ld=lld -shared -###` and then reused for every cell.
///
/// Calling `ld.lld` directly saves clang's driver start-up and the slower BFD linker
/// (about 0.1 s a cell), while keeping exactly the start files (`crti.o`, `crtbeginS.o`,
/// ...) and flags clang chooses for this system.
struct LinkCommand {
    static let objectPlaceholder = "benchbook-objects-placeholder.o"
    static let outputPlaceholder = "benchbook-output-placeholder.so"

    /// The linker, and its arguments with the placeholders.
    let linker: URL
    let template: [String]

    /// The linker and arguments for one library.
    /// - Parameters:
    ///   - linking: objects, library paths and libraries, in order.
    ///   - output: the `.so` to write.
    func arguments(linking: [String], output: String) -> (URL, [String]) {
        let arguments = template.flatMap { argument -> [String] in
            switch argument {
            case Self.objectPlaceholder: linking
            case Self.outputPlaceholder: [output]
            default: [argument]
            }
        }
        return (linker, arguments)
    }

    /// Asks clang for its link command; falls back to clang itself as the linker driver
    /// when the answer cannot be read.
    static func discover(clang: URL) -> LinkCommand {
        let fallback = LinkCommand(linker: clang, template: ["-shared", objectPlaceholder, "-o", outputPlaceholder])
        // clang checks that its inputs exist even with -###, so the probe object is real.
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent(objectPlaceholder)
        FileManager.default.createFile(atPath: probe.path, contents: Data())
        defer { try? FileManager.default.removeItem(at: probe) }
        let query = ChildProcess.Configuration(
            executable: clang.path, arguments: ["-fuse-ld=lld", "-shared", "-###", probe.path, "-o", outputPlaceholder])
        guard let text = try? ChildProcess.run(query).text else { return fallback }
        guard let line = text.split(separator: "\n").last(where: { $0.contains(probe.path) && $0.contains("ld") }) else {
            return fallback
        }
        let words = line.matches(of: /"((?:[^"\\]|\\.)*)"/).map { String($0.1).replacing("\\\"", with: "\"") }
            .map { $0 == probe.path ? objectPlaceholder : $0 }
        guard let first = words.first, words.contains(objectPlaceholder), words.contains(outputPlaceholder) else {
            return fallback
        }
        return LinkCommand(linker: URL(fileURLWithPath: first), template: Array(words.dropFirst()))
    }
}
