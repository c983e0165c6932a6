import Foundation
import JupyterWire

/// Receives what a running cell produces. Called on the thread that called
/// ``CellEngine/execute(_:label:output:)``.
public protocol CellOutput: AnyObject {
    /// Text the cell wrote to `stdout` or `stderr`, as it was written.
    func stream(name: String, text: String)
    /// A `display(...)` call, or an update of an earlier display.
    func display(data: JSONValue, metadata: JSONValue, displayID: String?, isUpdate: Bool)
    /// The value of the cell's last expression.
    func result(data: JSONValue, metadata: JSONValue)
    /// Clears the cell's output so far.
    func clearOutput(wait: Bool)
    /// Asks the user for a line of input; nil when the front end does not allow input.
    func requestInput(prompt: String, password: Bool) -> String?
}

/// A failed cell as Jupyter shows it: error name, value and traceback lines.
public struct CellError: Error, Sendable, Equatable {
    public var name: String
    public var value: String
    public var traceback: [String]

    public init(name: String, value: String, traceback: [String]? = nil) {
        self.name = name
        self.value = value
        self.traceback = traceback ?? ["\(name): \(value)"]
    }
}

/// Compiles cells into libraries and runs them in the cell host, keeping notebook state.
///
/// Thread rules: `execute` is called from one thread at a time (the kernel's shell
/// thread) and blocks until the cell ends. `interrupt` may be called from any thread
/// while a cell runs. Blocking work (compiling, waiting on the host) happens only in
/// `execute`.
public final class CellEngine: @unchecked Sendable {
    /// How long a cell has to stop after an interrupt before its host is restarted.
    public static let interruptGracePeriod: TimeInterval = 2

    let configuration: EngineConfiguration
    let compiler: CellCompiler
    private(set) var symbols = SymbolTable()
    private var host: HostProcess?
    private var cellCounter = 0

    private let lock = NSLock()
    private var runningHost: HostProcess?
    private var runGeneration = 0
    private var killedForInterrupt = false

    /// Creates an engine; nothing is started until ``prepare()`` or the first cell.
    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
        self.compiler = CellCompiler(configuration: configuration)
    }

    /// Completion and inspection for this notebook; SourceKit-LSP starts on first use.
    /// Used from the same thread as ``execute(_:label:output:)``.
    public private(set) lazy var completion = CodeCompletion(engine: self)

    deinit { shutdown() }

    /// Starts the cell host and preloads the notebook library, without waiting.
    /// - Throws: ``EngineError`` when the host cannot start.
    public func prepare() throws {
        _ = try ensureHost()
    }

    /// Stops the cell host.
    public func shutdown() {
        host?.terminate()
        host = nil
    }

    /// Compiles and runs one cell.
    /// - Parameters:
    ///   - code: the cell's source.
    ///   - label: its prompt label, used as the file name in messages (`In[7]`).
    ///   - output: receives streams, displays, the result and input requests.
    /// - Returns: nil on success, or the error to show.
    public func execute(_ code: String, label: String, output: CellOutput) -> CellError? {
        var magic: CellMagic?
        var body = code
        if let parsed = CellMagic.parse(code) {
            switch parsed.magic {
            case .success(let found): magic = found
            case .failure(let unknown):
                return CellError(name: "UnknownMagic", value: "\(unknown.name) is not a Benchbook magic; the magics are \(CellMagic.names.joined(separator: ", ")).")
            }
            body = parsed.body
        }
        let analysis = CellAnalysis(source: body, bindingsAreLocal: magic != nil)
        if magic != nil, analysis.hasTopLevelAwait {
            return CellError(name: "MagicError", value: "Timing magics run their body synchronously; move the awaited work into a function and call it without await, or time it without a magic.")
        }
        if analysis.isEmpty { return nil }
        if !analysis.syntaxProblems.isEmpty {
            return CellErrorReport.syntax(analysis.syntaxProblems, code: code, label: label)
        }
        let lost = symbols.lostReferences(in: analysis)
        if !lost.isEmpty { return CellErrorReport.lostVariables(lost) }

        cellCounter += 1
        let module = "Cell\(cellCounter)"
        let generator = CellCodeGenerator(module: module, cellLabel: label, cellNumber: cellCounter)
        beginPhase()
        compiler.resetCancellation()
        var compiled = compile(analysis, generator: generator, magic: magic, loadingTypeModules: false)
        if case .failure(let failure) = compiled, failure.diagnostics.contains(where: \.isInaccessibleMember) {
            // A member of a type from an earlier cell, reached through a variable: load
            // the modules that declare types, testable, and try once more.
            compiled = compile(analysis, generator: generator, magic: magic, loadingTypeModules: true)
        }
        let library: URL
        switch compiled {
        case .success(let url): library = url
        case .failure(let failure):
            endPhase()
            if failure.interrupted { return CellErrorReport.interruptedWhileCompiling() }
            return CellErrorReport.compile(failure.diagnostics, code: code, label: label)
        }
        if interruptWasRequested() {
            endPhase()
            return CellErrorReport.interruptedWhileCompiling()
        }

        let host: HostProcess
        do { host = try ensureHost() } catch {
            endPhase()
            return CellError(name: "KernelError", value: String(describing: error))
        }
        setRunning(host)
        let runStarted = DispatchTime.now()
        let run = HostRun(host: host, output: output).run(library: library, symbol: generator.entrySymbol)
        Trace.step("load and run", since: runStarted)
        let killed = endPhase()

        switch run {
        case .completed(let bound, let thrown, let loaderError):
            symbols.record(analysis, module: module, cellLabel: label, boundCount: bound)
            if let loaderError { return CellError(name: "LoadError", value: loaderError) }
            if let thrown { return CellErrorReport.thrown(name: thrown.name, value: thrown.value) }
            return nil
        case .crashed(let message):
            symbols.record(analysis, module: module, cellLabel: label, boundCount: 0)
            let lostNames = symbols.markVariablesLost()
            let how = host.exitDescription
            self.host = nil
            return killed
                ? CellErrorReport.interruptKilled(lost: lostNames)
                : CellErrorReport.crash(message: message, how: how, label: label, lost: lostNames)
        }
    }

    private func compile(_ analysis: CellAnalysis, generator: CellCodeGenerator, magic: CellMagic?,
                         loadingTypeModules: Bool) -> Result<URL, CompileFailure> {
        let dependencies = symbols.dependencies(of: analysis, loadingTypeModules: loadingTypeModules)
        let source = generator.source(for: analysis, imports: symbols.imports + dependencies.imports, magic: magic)
        return compiler.compile(source: source, module: generator.module, cellLabel: generator.cellLabel,
                                linking: dependencies.modules, insertions: analysis.insertions)
    }

    /// Asks the running cell to stop: SIGINT to the host (library loops stop with an
    /// error and keep state); a cell still running after the grace period has its
    /// host restarted. A compile in progress is cancelled.
    public func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        runGeneration += 1
        compiler.cancel()
        guard let running = runningHost else { return }
        running.signal(SIGINT)
        let generation = runGeneration
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.interruptGracePeriod) { [weak self] in
            guard let self else { return }
            self.lock.lock()
            defer { self.lock.unlock() }
            if self.runGeneration == generation, let host = self.runningHost, host === running {
                self.killedForInterrupt = true
                host.signal(SIGKILL)
            }
        }
    }

    private var interruptGeneration = 0

    private func beginPhase() {
        lock.lock()
        interruptGeneration = runGeneration
        killedForInterrupt = false
        lock.unlock()
    }

    private func interruptWasRequested() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return runGeneration != interruptGeneration
    }

    private func setRunning(_ host: HostProcess) {
        lock.lock()
        runningHost = host
        lock.unlock()
    }

    /// Ends compile or run; returns true when the host was killed after an interrupt.
    @discardableResult
    private func endPhase() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        runningHost = nil
        return killedForInterrupt
    }

    /// The live host, starting a new one (and reloading every cell library, so earlier
    /// declarations are usable again) when there is none.
    private func ensureHost() throws -> HostProcess {
        if let host, host.isAlive() { return host }
        let fresh = try HostProcess(executable: configuration.hostExecutable)
        fresh.send("load\t" + configuration.libraryDirectory.appendingPathComponent("libBenchbook.so").path)
        for module in symbols.modules {
            fresh.send("load\t" + configuration.workDirectory.appendingPathComponent("lib\(module).so").path)
        }
        host = fresh
        return fresh
    }
}
