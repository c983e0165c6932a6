import Foundation

/// Where the cell engine finds the compiler and the notebook library, and where it
/// writes cell modules.
public struct EngineConfiguration: Sendable {
    /// `swiftc`.
    public var compiler: URL
    /// The directory with `libBenchbook.so` and `Modules/` (a SwiftPM build directory).
    public var libraryDirectory: URL
    /// Where each cell's `.swift`, `.swiftmodule` and `.so` go (one directory per kernel).
    public var workDirectory: URL
    /// The cell host executable.
    public var hostExecutable: URL

    /// Creates a configuration.
    public init(compiler: URL, libraryDirectory: URL, workDirectory: URL, hostExecutable: URL) {
        self.compiler = compiler
        self.libraryDirectory = libraryDirectory
        self.workDirectory = workDirectory
        self.hostExecutable = hostExecutable
    }

    /// The configuration for a kernel executable inside a SwiftPM build directory:
    /// the library and host sit beside it, `swiftc` is found on PATH (or in
    /// `/opt/swift/usr/bin`), and cells go to a fresh temporary directory.
    /// - Parameter executable: the kernel's own path.
    public static func beside(executable: URL) -> EngineConfiguration {
        let directory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            + [URL(fileURLWithPath: "/opt/swift/usr/bin/swiftc")]
        let compiler = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? URL(fileURLWithPath: "/usr/bin/swiftc")
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("benchbook-\(getpid())-\(UUID().uuidString.prefix(8))")
        return EngineConfiguration(compiler: compiler, libraryDirectory: directory, workDirectory: work,
                                   hostExecutable: directory.appendingPathComponent("benchbook-cell-host"))
    }
}

/// A compiler error mapped back to the user's cell.
public struct CellDiagnostic: Sendable, Equatable {
    public var message: String
    /// Nil when the error is not in the cell's text (for example a link error).
    public var position: SourcePosition?
}

/// Runs `swiftc` on a generated cell module.
///
/// Thread rules: `compile` blocks its caller; `cancel` may be called from any thread
/// and stops a running compile.
public final class CellCompiler: @unchecked Sendable {
    private let configuration: EngineConfiguration
    let moduleMapFlags: [String]
    private let lock = NSLock()
    private var running: Subprocess?
    private var isCancelled = false

    init(configuration: EngineConfiguration) {
        self.configuration = configuration
        // C modules of the library (their module maps), in case a library module's
        // interface mentions them.
        let build = configuration.libraryDirectory
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
        var maps = entries.filter { $0.hasSuffix(".build") }.map {
            build.appendingPathComponent($0).appendingPathComponent("module.modulemap")
        }
        maps += Self.systemModuleMaps(near: build)
        moduleMapFlags = maps.filter { FileManager.default.fileExists(atPath: $0.path) }
            .flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
    }

    /// The module maps of the package's system-library targets (`Sources/System/*`),
    /// found by walking up from the build directory to the package root.
    static func systemModuleMaps(near build: URL) -> [URL] {
        var directory = build
        for _ in 0..<4 {
            directory = directory.deletingLastPathComponent()
            let system = directory.appendingPathComponent("Sources/System")
            if let names = try? FileManager.default.contentsOfDirectory(atPath: system.path) {
                return names.sorted().map { system.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
            }
        }
        return []
    }

    /// Compiles a module into `lib<module>.so` in the work directory.
    ///
    /// The steps the `swiftc` driver would run are run directly (the driver itself costs
    /// more than compiling a small cell): the frontend compiles and writes the module,
    /// the object's autolink section lists the libraries it needs, and the linker that
    /// clang would call (lld, see ``LinkCommand``) links the shared library.
    /// - Parameters:
    ///   - source: the generated source.
    ///   - module: the module name.
    ///   - cellLabel: the file name used in `#sourceLocation`, to recognise user locations.
    ///   - linking: earlier cell modules to link against.
    ///   - insertions: text the engine inserted into the user's code, to correct columns.
    /// - Returns: the library path, or the errors.
    func compile(source: String, module: String, cellLabel: String, linking: [String],
                 insertions: [Insertion] = []) -> Result<URL, CompileFailure> {
        let work = configuration.workDirectory
        let file = { (suffix: String) in work.appendingPathComponent(module + suffix) }
        let library = work.appendingPathComponent("lib\(module).so")
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try source.write(to: file(".swift"), atomically: true, encoding: .utf8)
        } catch {
            return .failure(CompileFailure(diagnostics: [CellDiagnostic(message: "cannot write the cell to \(work.path): \(error)", position: nil)], interrupted: false))
        }
        let lib = configuration.libraryDirectory
        let tools = configuration.compiler.deletingLastPathComponent()
        let runtime = tools.appendingPathComponent("../lib/swift/linux").standardizedFileURL

        let frontend = [
            "-frontend", "-c", file(".swift").path, "-target", Self.targetTriple,
            "-module-name", module, "-parse-as-library", "-enable-testing",
            "-swift-version", "5", "-Onone", "-suppress-warnings", "-diagnostic-style", "llvm",
            "-I", lib.appendingPathComponent("Modules").path, "-I", work.path,
            "-emit-module-path", file(".swiftmodule").path, "-o", file(".o").path,
        ] + moduleMapFlags
        switch run(tools.appendingPathComponent("swift-frontend"), frontend) {
        case .interrupted: return .failure(CompileFailure(diagnostics: [], interrupted: true))
        case .failed(let text):
            return .failure(CompileFailure(diagnostics: Self.diagnostics(in: text, cellLabel: cellLabel, insertions: insertions), interrupted: false))
        case .succeeded: break
        }

        guard let object = try? Data(contentsOf: file(".o")), let autolinked = AutolinkEntries.read(from: object) else {
            return .failure(Self.linkFailure("the compiler", "its object file \(file(".o").path) is missing or not ELF"))
        }
        let libraries = [
            runtime.appendingPathComponent("\(Self.architecture)/swiftrt.o").path, file(".o").path,
            "-L", runtime.path, "-L", lib.path, "-L", work.path,
            "-rpath", runtime.path, "-rpath", lib.path, "-rpath", work.path,
            "-lswiftCore", "-lBenchbook",
        ] + autolinked + linking.map { "-l\($0)" }
        let (linker, arguments) = linkCommand.arguments(linking: libraries, output: library.path)
        switch run(linker, arguments) {
        case .interrupted: return .failure(CompileFailure(diagnostics: [], interrupted: true))
        case .failed(let text): return .failure(Self.linkFailure(linker.lastPathComponent, text))
        case .succeeded: break
        }
        return .success(library)
    }

    private static func linkFailure(_ tool: String, _ text: String) -> CompileFailure {
        CompileFailure(diagnostics: [CellDiagnostic(message: "\(tool) failed: \(cleaned(text))", position: nil)], interrupted: false)
    }

    /// The linker command for a shared library, asked of clang once.
    private lazy var linkCommand = LinkCommand.discover(clang: configuration.compiler.deletingLastPathComponent().appendingPathComponent("clang"))

    private enum StepResult { case succeeded, failed(String), interrupted }

    /// Runs one tool, keeping it cancellable, and collects its output.
    private func run(_ tool: URL, _ arguments: [String]) -> StepResult {
        let subprocess = Subprocess()
        lock.lock()
        let cancelled = isCancelled
        running = subprocess
        lock.unlock()
        defer {
            lock.lock()
            running = nil
            lock.unlock()
        }
        if cancelled { return .interrupted }
        let started = DispatchTime.now()
        defer { Trace.step(tool.lastPathComponent, since: started) }
        do {
            switch try subprocess.run(tool, arguments, in: configuration.workDirectory) {
            case .signalled: return .interrupted
            case .exited(let status, let output): return status == 0 ? .succeeded : .failed(output)
            }
        } catch {
            return .failed(String(describing: error))
        }
    }


    #if arch(x86_64)
    static let architecture = "x86_64"
    #else
    static let architecture = "aarch64"
    #endif
    static let targetTriple = "\(architecture)-unknown-linux-gnu"


    /// Stops a compile in progress.
    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        isCancelled = true
        running?.terminate()
    }

    /// Forgets an earlier cancellation (a new cell starts).
    func resetCancellation() {
        lock.lock()
        isCancelled = false
        lock.unlock()
    }

    /// Extracts the errors from compiler output, keeping those in the user's cell and
    /// the messages (not the generated code) of the others.
    static func diagnostics(in output: String, cellLabel: String, insertions: [Insertion] = []) -> [CellDiagnostic] {
        var found: [CellDiagnostic] = []
        let pattern = /^(.*?):(\d+):(\d+): error: (.*)$/
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
            if let match = try? pattern.wholeMatch(in: String(line)) {
                let message = cleaned(String(match.4))
                if String(match.1) == cellLabel {
                    let line = Int(match.2)!
                    var column = Int(match.3)!
                    for insertion in insertions where insertion.position.line == line && insertion.position.column < column {
                        column = max(insertion.position.column, column - insertion.length)
                    }
                    found.append(CellDiagnostic(message: message, position: SourcePosition(line: line, column: column)))
                } else {
                    found.append(CellDiagnostic(message: message, position: nil))
                }
            } else if line.hasPrefix("error: ") {
                found.append(CellDiagnostic(message: cleaned(String(line.dropFirst(7))), position: nil))
            }
        }
        if found.isEmpty {
            found.append(CellDiagnostic(message: cleaned(output.trimmingCharacters(in: .whitespacesAndNewlines)), position: nil))
        }
        // Errors inside the cell first: they are the ones the user can fix.
        var seen = Set<String>()
        return (found.filter { $0.position != nil } + found.filter { $0.position == nil })
            .filter { seen.insert("\($0.position?.line ?? 0):\($0.message)").inserted }
    }

    /// Removes generated module names and identifiers from a compiler message.
    static func cleaned(_ message: String) -> String {
        message.replacing(/\bCell[0-9]+[\/.]/, with: "")
            .replacing(/__bb_value_[0-9]+/, with: "value")
            .replacing(/__benchbook_entry\(\)/, with: "the cell")
            .replacing(/_BenchbookCell\.[A-Za-z]+/, with: "the cell")
    }
}

extension CellDiagnostic {
    /// An internal member of a type from an earlier cell that this cell cannot see.
    var isInaccessibleMember: Bool {
        message.contains("inaccessible due to 'internal' protection level")
    }
}

/// Why a cell did not compile.
public struct CompileFailure: Error, Sendable {
    public var diagnostics: [CellDiagnostic]
    /// True when the compile was stopped by an interrupt.
    public var interrupted: Bool
}
