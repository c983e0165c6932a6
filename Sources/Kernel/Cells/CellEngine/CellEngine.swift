import BenchbookSettings
import CellSource
import Foundation
import GeneratedNames
import SystemSupport

/// Compiles cells into libraries and runs them in the cell host, keeping notebook state.
///
/// A cell goes: parse (in the cell parser process) → generate a module → compile and
/// link (child processes) → run in the host. The ``HostSupervisor`` owns the host and
/// every interrupt and restart decision; this type owns the notebook's names
/// (``SymbolTable``) and turns each outcome into what the user reads.
///
/// Thread rules: `execute`, `prepare`, `completeness` and `analyze` are called from one
/// thread (the kernel's shell thread); `execute` blocks until the cell ends. `interrupt`
/// and `shutdown` may be called from any thread.
public final class CellEngine: @unchecked Sendable {
    /// How long a cell has to stop after an interrupt before its host is restarted.
    public static let interruptGracePeriod: Double = 2

    /// Where the compiler, the library and the work directory are.
    public let configuration: EngineConfiguration
    let compiler: CellCompiler
    let parser: CellParserClient
    /// Parse, check, generate, compile and retry.
    let pipeline: CompilePipeline
    var symbols = SymbolTable()
    let supervisor: HostSupervisor
    /// Libraries of cells that ran, for a replacement host to load.
    private let libraries = CellLibraries()
    let background: BackgroundOutput
    /// The comms open between the front end and the host.
    let comms = CommRegistry()
    /// Problems of comm callbacks (a crash, a restore) to tell the user at the next cell.
    var commNotes: [String] = []
    var cellCounter = 0
    /// How cells are compiled; `%optimize on|off|auto` sets it for the kernel.
    public var optimization: Optimization
    /// The label of each execution, for messages about snapshots.
    var labels: [Int: String] = [:]

    /// Creates an engine; nothing is started until ``prepare()`` or the first cell.
    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
        optimization = configuration.optimization
        compiler = CellCompiler(configuration: configuration)
        parser = CellParserClient(executable: configuration.parserExecutable.path)
        let libraries = self.libraries
        let background = BackgroundOutput(comms: comms)
        self.background = background
        let supervisor = HostSupervisor(
            launch: .init(executable: configuration.hostExecutable.path, library: configuration.library.path),
            gracePeriod: Self.interruptGracePeriod,
            librariesToReload: { libraries.paths(after: $0) },
            background: { background.deliver($0) })
        self.supervisor = supervisor
        pipeline = CompilePipeline(parser: parser, compiler: compiler, hostLibraries: HostLibraries(), supervisor: supervisor)
    }

    deinit { shutdown() }

    /// Starts the cell host (which loads the notebook library), the cell parser and (unless
    /// a shared cell cache is configured) the cell compiler, without waiting for any.
    public func prepare() {
        supervisor.prepare()
        parser.warmUp()
        // With a class's cell cache (read-only, warmed by the teacher), a lesson's cells are
        // loaded, not compiled: the compiler starts at the first cell that misses, and a
        // class starting together does not start a compiler per student it may never use.
        // `BENCHBOOK_COMPILER_WARMUP=always` warms it at start anyway (`never`: not even then).
        let warmUpSetting = KernelSettings.current.compilerWarmUp
        guard warmUpSetting == .always || (warmUpSetting == .auto && configuration.cellCache.shared.isEmpty) else { return }
        let compiler = self.compiler
        let warmUp = Thread { compiler.warmUp() }
        warmUp.name = "cell compiler warm-up"
        warmUp.start()
    }

    /// Stops the cell host, the parser and the compiler.
    public func shutdown() {
        supervisor.shutdown()
        parser.stop()
        compiler.server.stop()
    }

    /// Interrupts the cell that is compiling or running: a compile step is stopped; a
    /// running cell gets SIGINT (library loops stop with an error and keep state) and, if
    /// it is still running after the grace period, its host is restarted.
    /// Between cells it does nothing (see ``SupervisorState``: the kernel serves control
    /// requests that arrived before a cell first, so no clock decides it).
    public func interrupt() {
        supervisor.interrupt()
    }

    /// Whether code is ready to run, judged by the Swift parser.
    public func completeness(of code: String) -> Completeness {
        parser.completeness(of: code)
    }

    /// The analysis of a cell's text (names it defines), or nil when it cannot be parsed.
    public func analyze(_ code: String) -> CellAnalysis? {
        try? parser.analyze(code, bindingsAreLocal: false, cancellation: nil)
    }

    /// Compiles and runs one cell.
    /// - Parameters:
    ///   - code: the cell's source.
    ///   - label: its prompt label, used as the file name in messages (`In[7]`).
    ///   - output: receives streams, displays, the result and input requests.
    /// - Returns: nil on success, or the error to show.
    public func execute(_ code: String, label: String, output: CellOutput) -> CellError? {
        let magicLine = CellMagic.parse(code)   // once per cell
        switch magicLine?.magic {
        case .success(.optimize(let setting)): return setOptimization(setting, output: output)
        case .success(.cache): return showCache(output: output)   // CellEngine+Cache.swift
        default: break
        }
        background.setOutput(output, streams: streams(label: label + "-later"))
        reportHostLosses(to: output)
        for note in commNotes { output.stream(name: "stderr", text: note + "\n") }
        commNotes.removeAll()
        return run(label: label, output: output, isUserCell: true) { id, cancellation in
            prepare(.init(code: code, label: label, id: id, magicLine: magicLine), cancellation: cancellation)
        }
    }

    /// Compiles and runs a cell the engine writes (a user's, or one the debugger asks for).
    /// - Parameters:
    ///   - isUserCell: false for a cell the user did not write (the debugger's): output of
    ///     background threads keeps going to the user's last cell.
    ///   - prepare: parses and compiles the cell, given its number.
    func run(label: String, output: CellOutput, isUserCell: Bool,
             prepare: (CellID, CellCancellation) -> Result<CompiledCell, NotRun>) -> CellError? {
        cellCounter += 1
        let id = CellID(cellCounter)
        labels[id.rawValue] = label
        if isUserCell { background.setExecution(id.rawValue) }
        let cancellation = CellCancellation()
        let sink = supervisor.beginCompile(id, cancellation: cancellation)
        let prepared = prepare(id, cancellation)
        guard case .success(let cell) = prepared else {
            supervisor.endCompile(id, run: nil)
            if cancellation.isCancelled { return CellErrorReport.interruptedWhileCompiling() }
            if case .failure(.error(let error)) = prepared { return error }
            return nil
        }
        supervisor.endCompile(id, run: .run(cell: id.rawValue, library: cell.library.path, symbol: cell.entrySymbol))
        let started = DispatchTime.now()
        let reader = CellRunReader(sink: sink, output: output, answerInput: { [supervisor] answer in
            supervisor.sendInputReply(id, answer)
        }, symbolizer: configuration.toolsDirectory.appendingPathComponent("llvm-symbolizer"),
           cellDirectory: configuration.workDirectory, comms: comms, execution: id.rawValue,
           streams: streams(label: label), label: label)
        let outcome = reader.read()
        Trace.step("load and run", since: started)
        for note in supervisor.takeNotes() { output.stream(name: "stderr", text: note + "\n") }
        return finish(cell, id: id, outcome: outcome, label: label, output: output)
    }

    // MARK: Steps

    /// The output streams of one run, within the configured limit.
    /// - Parameter label: names the files output past the limit goes to.
    func streams(label: String) -> CellStreams {
        let configuration = self.configuration
        return CellStreams(limit: configuration.outputLimit) {
            OutputSpill(label: label, workingDirectory: configuration.outputDirectory, fallback: configuration.workDirectory)
        }
    }

    /// Parses, checks, generates and compiles a cell (``CompilePipeline``), or writes the
    /// listing cell of `%who`.
    private func prepare(_ cell: CompilePipeline.Cell, cancellation: CellCancellation) -> Result<CompiledCell, NotRun> {
        if let listing = NameListing.parse(cell.code) {   // %who, %whos: CellEngine+NameListing.swift
            return prepareListing(listing, label: cell.label, id: cell.id, cancellation: cancellation)
        }
        return pipeline.prepare(cell, symbols: symbols, optimization: optimization, cancellation: cancellation)
    }

    /// Records what a run left behind and says how it went.
    private func finish(_ cell: CompiledCell, id: CellID, outcome: CellRunOutcome, label: String,
                        output: CellOutput) -> CellError? {
        switch outcome {
        case .completed(let bound, let thrown):
            remember(cell, id: id, bound: bound)
            return thrown.map { CellErrorReport.thrown(name: $0.typeName, value: $0.description) }
        case .couldNotRun(let message):
            return CellErrorReport.loadFailed(message, label: label,
                                              demangler: configuration.toolsDirectory.appendingPathComponent("swift-demangle"))
        case .crashed(let message, let location, let status):
            remember(cell, id: id, bound: 0)
            closeComms(openedAfter: 0, output: output)
            return CellErrorReport.crash(message: message, location: location, status: status, label: label,
                                         lost: symbols.markVariablesLost())
        case .killedAfterInterrupt:
            remember(cell, id: id, bound: 0)
            closeComms(openedAfter: 0, output: output)
            return CellErrorReport.interruptKilled(lost: symbols.markVariablesLost())
        case .restored(let message, let location, let status, let afterInterrupt, let afterCell):
            // The host is the copy taken before this cell ran: nothing of it is kept.
            closeComms(openedAfter: afterCell, output: output)
            let restoration = CellErrorReport.Restoration(
                afterLabel: labels[afterCell], seconds: supervisor.takeRestoreSeconds(for: id) ?? 0,
                lost: symbols.markVariablesLost(after: afterCell))
            return afterInterrupt
                ? CellErrorReport.interruptKilled(label: label, restored: restoration)
                : CellErrorReport.crash(message: message, location: location, status: status, label: label, restored: restoration)
        case .interruptedBeforeRun:
            return CellErrorReport.interruptedWhileCompiling()
        case .hostUnavailable(let reason):
            return CellError(name: "KernelError", value: EngineError.hostStartFailed(reason).description)
        }
    }

    /// Records a cell that ran: its names for later cells, its library for a new host.
    private func remember(_ cell: CompiledCell, id: CellID, bound: Int) {
        symbols.record(cell.analysis, module: cell.module, cellLabel: cell.label, execution: id.rawValue, boundCount: bound)
        libraries.append(cell.library.path, execution: id.rawValue)
    }

    /// Tells the user about hosts that died between cells (their values are gone).
    func reportHostLosses(to output: CellOutput) {
        for loss in supervisor.takeHostLosses() {
            let text: String
            let site = loss.crash?.site(symbolizer: configuration.toolsDirectory.appendingPathComponent("llvm-symbolizer"),
                                        cellLibraries: configuration.workDirectory)
            let message = (loss.crash?.runtimeMessage ?? site?.failure).map(NameScrubber.userFacing)
            let location = site?.location
            if let restored = loss.restored {
                let restoration = CellErrorReport.Restoration(
                    afterLabel: labels[restored.afterCell], seconds: restored.seconds,
                    lost: symbols.markVariablesLost(after: restored.afterCell))
                text = CellErrorReport.hostRestoredBetweenCells(status: loss.status, message: message, location: location,
                                                                restored: restoration)
                closeComms(openedAfter: restored.afterCell, output: output)
            } else {
                text = CellErrorReport.hostLostBetweenCells(status: loss.status, message: message, location: location,
                                                            lost: symbols.markVariablesLost())
                closeComms(openedAfter: 0, output: output)
            }
            output.stream(name: "stderr", text: text + "\n")
        }
    }
}
