import SystemSupport
import Foundation

/// The linker invocation clang uses for a shared library, found once by asking
/// `clang -fuse-ld=<linker> -shared -###` and then reused for every cell.
///
/// Calling the linker directly saves clang's driver start-up, while keeping exactly the
/// start files (`crti.o`, `crtbeginS.o`, ...) and flags clang chooses for this system.
/// Gold is asked for first and lld second: a cell's link is tiny, so the linker's own
/// start-up dominates it, and gold starts faster than the toolchain's 100 MB lld
/// (`BENCHBOOK_TRACE=1` shows the link step; results/kernel-latency.md has a cell's time).
struct LinkCommand {
    static let objectPlaceholder = "benchbook-objects-placeholder.o"
    static let outputPlaceholder = "benchbook-output-placeholder.so"

    /// The linkers asked for, in order of preference.
    static let preferredLinkers = ["gold", "lld"]

    /// Libraries on a cell's link line, each with a library the host has loaded that serves
    /// every routine a cell can call from it; when the host has the second, the first is
    /// left out.
    /// - `libgcc.a`'s integer, floating-point and half-float helpers (`__divti3`,
    ///   `__floattidf`, `__extendhfsf2`, ...) are all in `libgcc_s.so.1`; what only the
    ///   archive has (decimal floating point, split stacks, Windows-ABI register saves)
    ///   Swift code does not call.
    /// - Since glibc 2.34 `libpthread`, `libdl`, `libutil`, `librt` and `libanl` are empty
    ///   stubs: their functions are in `libc.so.6`. Foundation's autolink entries name
    ///   three of them.
    static let sharedStandIns: [String: String] = {
        var standIns = ["gcc": "gcc_s"]
        if let version = LoadedLibraries.cLibraryVersion, version >= (2, 34) {
            for stub in ["pthread", "dl", "util", "rt", "anl"] { standIns[stub] = "c" }
        }
        return standIns
    }()

    /// The linker, and its arguments with the placeholders.
    let linker: URL
    let template: [String]

    /// The linker and arguments for one library. When no `-l` library is left to find,
    /// the search paths (`-L`) are left out too.
    /// - Parameters:
    ///   - linking: objects, library paths and libraries, in order.
    ///   - output: the `.so` to write.
    ///   - omitting: true for a library (`c` for `-lc`) the linker need not read, because
    ///     the process that loads the output has it loaded globally already.
    func arguments(linking: [String], output: String, omitting: (String) -> Bool = { _ in false }) -> (URL, [String]) {
        let arguments = template.flatMap { argument -> [String] in
            switch argument {
            case Self.objectPlaceholder: linking
            case Self.outputPlaceholder: [output]
            case _ where argument.hasPrefix("-l") && omitting(String(argument.dropFirst(2))): []
            default: [argument]
            }
        }
        // Search paths serve only `-l` names, and gold lists every search directory when it
        // starts (a system library directory holds thousands of files): with no library
        // left to find, they cost a large share of a cell's link (`BENCHBOOK_TRACE=1` shows it).
        if arguments.contains(where: { $0.hasPrefix("-l") }) { return (linker, arguments) }
        return (linker, Self.withoutSearchPaths(arguments))
    }

    /// `arguments` without `-L <directory>` and `-L<directory>`.
    static func withoutSearchPaths(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipsNext = false
        for argument in arguments {
            if skipsNext { skipsNext = false; continue }
            if argument == "-L" { skipsNext = true; continue }
            if !argument.hasPrefix("-L") { kept.append(argument) }
        }
        return kept
    }

    /// Asks clang for its link command with each preferred linker; falls back to clang
    /// itself as the linker driver when no answer can be read.
    /// - Parameters:
    ///   - clang: the toolchain's clang.
    ///   - scratch: where the probe object goes: the kernel's work directory, which the kernel
    ///     removes whenever it ends (a kernel told to end while it asks leaves nothing behind);
    ///     the temporary directory when it does not exist.
    static func discover(clang: URL, scratch: URL? = nil) -> LinkCommand {
        // clang checks that its inputs exist even with -###, so the probe object is real.
        var directory = FileManager.default.temporaryDirectory
        if let scratch, FileManager.default.fileExists(atPath: scratch.path) { directory = scratch }
        let probe = directory.appendingPathComponent("benchbook-\(getpid())-" + objectPlaceholder)
        FileManager.default.createFile(atPath: probe.path, contents: Data())
        defer { try? FileManager.default.removeItem(at: probe) }
        for name in preferredLinkers {
            if let command = ask(clang: clang, linker: name, probe: probe) { return command }
        }
        return LinkCommand(linker: clang, template: ["-shared", objectPlaceholder, "-o", outputPlaceholder])
    }

    /// clang's link line for `-fuse-ld=<linker>`, or nil when clang cannot use that linker.
    private static func ask(clang: URL, linker: String, probe: URL) -> LinkCommand? {
        let query = ChildProcess.Configuration(
            executable: clang.path, arguments: ["-fuse-ld=\(linker)", "-shared", "-###", probe.path, "-o", outputPlaceholder])
        guard let result = try? ChildProcess.run(query), result.status == .exited(code: 0) else { return nil }
        let text = result.text
        guard let line = text.split(separator: "\n").last(where: { $0.contains(probe.path) && $0.contains("ld") }) else {
            return nil
        }
        let words = line.matches(of: /"((?:[^"\\]|\\.)*)"/).map { String($0.1).replacing("\\\"", with: "\"") }
            .map { $0 == probe.path ? objectPlaceholder : $0 }
        guard let first = words.first, FileManager.default.isExecutableFile(atPath: first),
              words.contains(objectPlaceholder), words.contains(outputPlaceholder) else {
            return nil
        }
        return LinkCommand(linker: URL(fileURLWithPath: first), template: Array(words.dropFirst()))
    }
}
