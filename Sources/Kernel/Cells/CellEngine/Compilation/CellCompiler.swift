import BenchbookSettings
import SystemSupport
import CellSource
import Foundation
import HostProtocol

/// Compiles a generated cell module into a shared library.
///
/// Runs the steps the `swiftc` driver would run, directly (the driver itself costs more
/// than compiling a small cell): the frontend compiles and writes the module, the
/// object's autolink section lists the libraries it needs, and the linker that clang
/// would call (gold or lld, see ``LinkCommand``) links the library. The frontend step runs in the
/// cell compiler process, which keeps the compiler loaded (``CellCompilerClient``), or as
/// swift-frontend when that process cannot compile. Each step is a child process with
/// resource limits, tracked by the cell's ``CellCancellation`` so an interrupt stops it.
///
/// Thread rules: `compile` blocks its caller, one cell at a time.
final class CellCompiler: @unchecked Sendable {
    /// Limits for each compile step: a runaway type-check must not take the machine.
    static let limits = ResourceLimits(addressSpaceBytes: 16 << 30, cpuSeconds: 600)

    let configuration: EngineConfiguration
    /// `-Xcc -fmodule-map-file=...` for the library's C modules.
    let moduleMapFlags: [String]
    /// The linker command for a shared library, asked of clang once.
    var linkCommand: LinkCommand { linkSetup.value.command }
    /// Compiled cells kept between kernels, or nil when the cache is off (``CellCache``).
    let cache: CellCache?
    /// The part of every cache key this kernel shares (nil when the cache is off).
    var cacheIdentity: String { linkSetup.value.identity ?? "" }
    /// The linker command (asked of clang) and the cache identity (a few megabytes hashed),
    /// made while the kernel starts.
    private let linkSetup: BackgroundValue<(command: LinkCommand, identity: String?)>
    /// The cache key of each cell module compiled so far (nil: compiled without a key, so a
    /// cell that names it is not cached).
    var moduleKeys: [String: String?] = [:]
    /// The C module maps cells see.
    let moduleMaps: [URL]

    /// The long-lived compiler process.
    let server: CellCompilerClient
    /// `-validate-clang-modules-once` with this kernel's build-session file, or nothing
    /// when that file could not be written (see ``sessionFlags(work:)``).
    let sessionFlags: [String]

    init(configuration: EngineConfiguration) {
        self.configuration = configuration
        server = CellCompilerClient(executable: configuration.cellCompilerExecutable, sourceKit: configuration.sourceKitLibrary)
        cache = configuration.cellCache.isOff ? nil : CellCache(settings: configuration.cellCache)
        sessionFlags = Self.sessionFlags(work: configuration.workDirectory)
        // C modules of the library (their module maps), in case a library module's
        // interface mentions them.
        let build = configuration.libraryDirectory
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
        var maps = entries.filter { $0.hasSuffix(".build") }.map {
            build.appendingPathComponent($0).appendingPathComponent("module.modulemap")
        }
        maps += Self.systemModuleMaps(near: build)
        moduleMaps = maps.filter { FileManager.default.fileExists(atPath: $0.path) }
        moduleMapFlags = moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
        let caching = cache != nil, mapFiles = moduleMaps
        linkSetup = BackgroundValue(name: "cell link setup") {
            let command = LinkCommand.discover(clang: configuration.toolsDirectory.appendingPathComponent("clang"),
                                              scratch: configuration.workDirectory)
            guard caching else { return (command, nil) }
            let started = DispatchTime.now()
            let identity = CellCacheKey.identity(configuration: configuration, moduleMaps: mapFiles, link: command)
            Trace.step("cell cache: identity of the toolchain and library", since: started)
            return (command, identity)
        }
    }

    /// Flags that have the compiler check the C modules' headers (the C library's, the
    /// notebook library's) once per kernel instead of once per cell: clang then trusts a
    /// precompiled module it has checked since the session file was written, which is when
    /// the kernel started. A header that changes while a kernel runs is seen after a restart
    /// (as is a rebuilt notebook library, which the cell host has loaded already).
    /// Checking every cell costs a noticeable share of a trivial cell's compile (`BENCHBOOK_TRACE=1`
    /// shows the steps; results/kernel-latency.md has the trivial cell's time).
    static func sessionFlags(work: URL) -> [String] {
        let session = work.appendingPathComponent("clang-build-session")
        guard (try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)) != nil,
              FileManager.default.createFile(atPath: session.path, contents: Data()) else { return [] }
        return ["-validate-clang-modules-once", "-clang-build-session-file", session.path]
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

    /// Line tables (no variable info) so a crash's frames map to the cell's lines
    /// (`#sourceLocation` names the file after the cell label). `BENCHBOOK_LINE_TABLES=0`
    /// leaves them out, to measure what they cost.
    static let lineTableFlags = KernelSettings.current.lineTables ? ["-gline-tables-only"] : []

    /// Extra frontend flags for every cell, from `BENCHBOOK_CELL_FLAGS` (space-separated),
    /// to measure what a flag costs or gains.
    static let extraFlags = KernelSettings.current.cellFlags

    /// Compiles a module into `lib<module>.so` in the work directory.
    /// - Parameters:
    ///   - source: the generated source.
    ///   - module: the module name.
    ///   - cellLabel: the file name used in `#sourceLocation`, to recognise user locations.
    ///   - linking: earlier cell modules to link against.
    ///   - hostHasLoaded: true for a library (`Cell2` for `libCell2.so`) the host that will
    ///     load the cell has loaded globally; the link leaves it out.
    ///   - emitsModule: whether to write the module file a later cell imports.
    ///   - insertions: text the engine inserted into the user's code, to correct columns.
    ///   - optimized: compile with `-O` (see ``optimizationFlags(_:)``).
    ///   - crossModule: compile for cross-module optimisation (see ``crossModuleFlags(_:)``).
    ///   - waitForHost: waits until the host that will load the cell is ready (a cached
    ///     library that left libraries out of its link needs to know that host has them).
    ///   - cancellation: stops the running step when the cell is interrupted.
    /// - Returns: the library path, or the errors.
    func compile(source: String, module: String, cellLabel: String, linking: [String],
                 hostHasLoaded: (String) -> Bool = { _ in false }, waitForHost: () -> Void = {}, emitsModule: Bool = true,
                 insertions: [Insertion] = [], optimized: Bool = false, crossModule: Bool = false,
                 cancellation: CellCancellation) -> Result<URL, CompileFailure> {
        let work = configuration.workDirectory
        let file = { (suffix: String) in work.appendingPathComponent(module + suffix) }
        let library = work.appendingPathComponent("lib\(module).so")
        let moduleFile = configuration.cellModulesDirectory.appendingPathComponent(module + ".swiftmodule")
        do {
            try FileManager.default.createDirectory(at: configuration.cellModulesDirectory, withIntermediateDirectories: true)
            try source.write(to: file(".swift"), atomically: true, encoding: .utf8)
        } catch {
            return .failure(.notWritten(work.path, String(describing: error)))
        }
        let lib = configuration.libraryDirectory
        let tools = configuration.toolsDirectory
        let runtime = tools.appendingPathComponent("../lib/swift/linux").standardizedFileURL

        // A module file (testable, for `@testable import var CellN.x`) only for a cell whose
        // names a later cell can import: writing it is a third of the compile step.
        let moduleOutput = emitsModule ? ["-enable-testing", "-emit-module-path", moduleFile.path] : []
        let frontend = frontendArguments(source: file(".swift"), module: module, object: file(".o"), optimized: optimized)
            + moduleOutput + (emitsModule ? Self.crossModuleFlags(crossModule) : [])
        // The cache first (CellCompiler+Cache.swift): a hit installs the library and module
        // files a compile would have written, without the compiler or the linker.
        let key = cacheKey(source: source, module: module, frontend: frontend, linking: linking)
        moduleKeys[module] = .some(nil)
        if let key, let hit = cached(key, module: module, cellLabel: cellLabel, insertions: insertions,
                                     hostServes: { hostHasLoaded(LinkCommand.sharedStandIns[$0] ?? $0) }, waitForHost: waitForHost) {
            if case .success = hit { moduleKeys[module] = key }
            return hit
        }
        switch runFrontend(frontend, cancellation: cancellation) {
        case .interrupted: return .failure(.interrupted)
        case .failed(let text):
            if let key { storeFailure(text, key: key) }
            return .failure(CompileFailure(diagnostics: CompilerDiagnostics.parse(text, cellLabel: cellLabel, insertions: insertions)))
        case .succeeded: break
        }

        guard let object = try? Data(contentsOf: file(".o")), let autolinked = AutolinkEntries.read(from: object) else {
            return .failure(.toolFailed("the compiler", "its object file \(file(".o").path) is missing or not ELF"))
        }
        // Libraries the host has loaded globally (the notebook library, the Swift runtime,
        // earlier cells, the C library) resolve at dlopen; naming them costs most of the link.
        func hostServes(_ name: String) -> Bool { hostHasLoaded(LinkCommand.sharedStandIns[name] ?? name) }
        let autolinkedNames = autolinked.filter { $0.hasPrefix("-l") }.map { String($0.dropFirst(2)) }
        let needed = (["swiftCore", "Benchbook"] + autolinkedNames + linking).filter { !hostServes($0) }
        var seen = Set<String>()
        let libraryFlags: [String] = needed.filter { seen.insert($0).inserted }.map { "-l" + $0 }
        let otherFlags: [String] = autolinked.filter { !$0.hasPrefix("-l") }
        // Earlier cells' libraries are found beside this one (`$ORIGIN`, the work directory),
        // so the library names no kernel's directory and fits any kernel (the cell cache).
        let paths: [String] = [
            runtime.appendingPathComponent("\(Self.architecture)/swiftrt.o").path, file(".o").path,
            "-L", runtime.path, "-L", lib.path, "-L", work.path,
            "-rpath", runtime.path, "-rpath", lib.path, "-rpath", "$ORIGIN",
        ]
        let libraries = paths + libraryFlags + otherFlags
        let (linker, arguments) = linkCommand.arguments(linking: libraries, output: library.path, omitting: hostServes)
        switch run(linker, arguments, cancellation: cancellation) {
        case .interrupted: return .failure(.interrupted)
        case .failed(let text): return .failure(.toolFailed(linker.lastPathComponent, text))
        case .succeeded: break
        }
        // Types print as one file prints them (`main.Point`), see ModuleDisplayName.
        if !ModuleDisplayName.apply(to: library, module: module) {
            Trace.note("\(module): the module name was not found in the library; its types print as \(module).X")
        }
        if let key {
            // What the link left out because the host had it: a host loading the cached
            // library must have it too.
            let linkerLibraries = linkCommand.template.filter { $0.hasPrefix("-l") }.map { String($0.dropFirst(2)) }
            let omitted = Set(["swiftCore", "Benchbook"] + autolinkedNames + linking + linkerLibraries).filter(hostServes)
            storeLibrary(key: key, module: module, omitted: omitted.sorted())
            moduleKeys[module] = key
        }
        return .success(library)
    }

    private enum StepResult { case succeeded, failed(String), interrupted }

    /// Starts the compiler process and has it compile a source that imports the notebook
    /// library, so the first cell finds the compiler and the library's modules loaded.
    func warmUp() {
        let work = configuration.workDirectory
        let source = work.appendingPathComponent("WarmUp.swift")
        guard (try? FileManager.default.createDirectory(at: configuration.cellModulesDirectory, withIntermediateDirectories: true)) != nil,
              (try? "import Benchbook\n".write(to: source, atomically: true, encoding: .utf8)) != nil else { return }
        let started = DispatchTime.now()
        server.warmUp(compiling: frontendArguments(source: source, module: "BenchbookWarmUp",
                                                   object: work.appendingPathComponent("WarmUp.o"),
                                                   optimized: configuration.optimization != .off).dropFirst().map { $0 })
        Trace.step("cell compiler warm-up", since: started)
    }

    /// The optimisation flags of a cell: `-O` with the release assert configuration, as an
    /// app is built (the debug one kept seed 000's normalisation loop from vectorising:
    /// results/normalize-loop.md). A failed check then traps without the runtime's message,
    /// but the line tables (``lineTableFlags``) keep its cause as an inlined frame named
    /// "Swift runtime failure: …" at the trap, which ``CrashReport/site(symbolizer:cellLibraries:)``
    /// reads with the cell and line. The flags are part of every cell cache key.
    static func optimizationFlags(_ optimized: Bool) -> [String] {
        optimized ? ["-O"] : ["-Onone"]
    }

    /// Cross-module optimisation, for a cell that declares no functions: its module file
    /// carries its constants' values, so an optimised later cell folds them. Without it, a
    /// loop in a later cell calls the accessor of an earlier cell's `let width = 224` on
    /// every iteration (the seed 000 normalisation loop took several times as long as the same
    /// file built with `swiftc -O`; results/normalize-loop.md has the loop's figures). A cell that declares
    /// functions is left out: their bodies would be inlined into later cells without their
    /// lines, and a trap in one must name its own cell and line. `BENCHBOOK_CROSS_MODULE=off`
    /// leaves every cell out, to measure.
    static func crossModuleFlags(_ wanted: Bool) -> [String] {
        wanted && KernelSettings.current.crossModule ? ["-cross-module-optimization"] : []
    }

    /// swift-frontend's arguments for compiling `source` to `object`.
    private func frontendArguments(source: URL, module: String, object: URL, optimized: Bool) -> [String] {
        [
            "-frontend", "-c", source.path, "-target", Self.targetTriple,
            "-module-name", module, "-parse-as-library",
            "-swift-version", "5"] + Self.optimizationFlags(optimized) + ["-suppress-warnings", "-diagnostic-style", "llvm",
            "-I", configuration.libraryDirectory.appendingPathComponent("Modules").path, "-I", configuration.cellModulesDirectory.path,
            "-o", object.path,
        ] + Self.lineTableFlags + sessionFlags + moduleMapFlags + Self.extraFlags
    }

    /// The frontend step: in the cell compiler process, or as swift-frontend when that
    /// process cannot compile (or reported a failure without an error, which swift-frontend
    /// then explains).
    private func runFrontend(_ arguments: [String], cancellation: CellCancellation) -> StepResult {
        let started = DispatchTime.now()
        switch server.compile(Array(arguments.dropFirst()), cancellation: cancellation) {
        case .succeeded:
            Trace.step("cell compiler", since: started)
            return .succeeded
        case .failed(let diagnostics) where diagnostics.contains("error: "):
            Trace.step("cell compiler", since: started)
            return .failed(diagnostics)
        case .interrupted:
            // The interrupt killed the compiler process: load another for the next cell.
            let warmUp = Thread { [self] in self.warmUp() }
            warmUp.start()
            return .interrupted
        case .failed:
            Trace.note("the cell compiler failed without an error; running swift-frontend")
        case .unavailable(let reason):
            Trace.note("running swift-frontend: \(reason)")
        }
        return run(configuration.toolsDirectory.appendingPathComponent("swift-frontend"), arguments, cancellation: cancellation)
    }

    /// Runs one step as a child process the cell's cancellation can stop.
    private func run(_ tool: URL, _ arguments: [String], cancellation: CellCancellation) -> StepResult {
        if cancellation.isCancelled { return .interrupted }
        let started = DispatchTime.now()
        defer { Trace.step(tool.lastPathComponent, since: started) }
        let configuration = ChildProcess.Configuration(executable: tool.path, arguments: arguments, limits: Self.limits)
        let completion: ChildProcess.Completion
        do {
            completion = try ChildProcess.run(configuration) { cancellation.track($0) }
        } catch {
            return .failed("\(tool.lastPathComponent) could not be started: \(error)")
        }
        cancellation.untrack()
        if cancellation.isCancelled { return .interrupted }
        switch completion.status {
        case .exited(0): return .succeeded
        case .exited: return .failed(completion.text)
        case .signalled(let signal):
            return .failed("\(tool.lastPathComponent) ended with \(ExitStatus.signalName(signal))\n\(completion.text)")
        }
    }

    static var architecture: String { EngineConfiguration.architecture }
    static var targetTriple: String { EngineConfiguration.targetTriple }
}
