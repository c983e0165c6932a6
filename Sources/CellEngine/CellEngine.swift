import CellSource
import Foundation
import HostProtocol
import Synchronization
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
    private(set) var symbols = SymbolTable()
    private let supervisor: HostSupervisor
    /// Libraries of cells that ran, for a replacement host to load.
    private let libraries = CellLibraries()
    private let background: BackgroundOutput
    private var cellCounter = 0

    /// Creates an engine; nothing is started until ``prepare()`` or the first cell.
    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
        compiler = CellCompiler(configuration: configuration)
        parser = CellParserClient(executable: configuration.parserExecutable.path)
        let libraries = self.libraries
        let background = BackgroundOutput()
        self.background = background
        supervisor = HostSupervisor(
            launch: .init(executable: configuration.hostExecutable.path, library: configuration.library.path),
            gracePeriod: Self.interruptGracePeriod,
            librariesToReload: { libraries.paths },
            background: { background.deliver($0) })
    }

    deinit { shutdown() }

    /// Starts the cell host (which loads the notebook library) and the cell parser,
    /// without waiting for either.
    public func prepare() {
        supervisor.prepare()
        parser.warmUp()
    }

    /// Stops the cell host and the parser.
    public func shutdown() {
        supervisor.shutdown()
        parser.stop()
    }

    /// Interrupts the cell that is compiling or running: a compile step is stopped; a
    /// running cell gets SIGINT (library loops stop with an error and keep state) and, if
    /// it is still running after the grace period, its host is restarted.
    /// - Parameter stamp: the interrupt request's session and date; an interrupt the same
    ///   client sent before the current cell was meant for an earlier one and is dropped.
    public func interrupt(_ stamp: ClientStamp? = nil) {
        supervisor.interrupt(stamp)
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
    ///   - stamp: the request's session and date, to tell late interrupts apart.
    ///   - output: receives streams, displays, the result and input requests.
    /// - Returns: nil on success, or the error to show.
    public func execute(_ code: String, label: String, stamp: ClientStamp? = nil, output: CellOutput) -> CellError? {
        background.setOutput(output)
        reportHostLosses(to: output)
        cellCounter += 1
        let id = CellID(cellCounter)
        let cancellation = CellCancellation()
        let sink = supervisor.beginCompile(id, stamp: stamp, cancellation: cancellation)
        let prepared = prepare(code, label: label, id: id, cancellation: cancellation)
        guard case .success(let cell) = prepared else {
            supervisor.endCompile(id, run: nil)
            if cancellation.isCancelled { return CellErrorReport.interruptedWhileCompiling() }
            if case .failure(.error(let error)) = prepared { return error }
            return nil
        }
        supervisor.endCompile(id, run: .run(cell: id.rawValue, library: cell.library.path, symbol: cell.entrySymbol))
        let started = DispatchTime.now()
        let reader = CellRunReader(sink: sink, output: output) { [supervisor] answer in
            supervisor.sendInputReply(id, answer)
        }
        let outcome = reader.read()
        Trace.step("load and run", since: started)
        for note in supervisor.takeNotes() { output.stream(name: "stderr", text: note + "\n") }
        return finish(cell, outcome: outcome, label: label)
    }

    // MARK: Steps

    /// A cell compiled and ready to run.
    private struct CompiledCell {
        var analysis: CellAnalysis
        var label: String
        var module: String
        var library: URL
        var entrySymbol: String
    }

    /// Why a cell does not run.
    private enum NotRun: Error {
        /// Only comments and whitespace.
        case empty
        /// An error to show (syntax, compile, lost variable, unknown magic).
        case error(CellError)
    }

    /// Parses, checks, generates and compiles a cell.
    private func prepare(_ code: String, label: String, id: CellID,
                         cancellation: CellCancellation) -> Result<CompiledCell, NotRun> {
        var magic: CellMagic?
        var body = code
        if let parsed = CellMagic.parse(code) {
            switch parsed.magic {
            case .success(let found): magic = found
            case .failure(let unknown):
                return .failure(.error(CellError(name: "UnknownMagic", value: "\(unknown.name) is not a Benchbook magic; the magics are \(CellMagic.names.joined(separator: ", ")).")))
            }
            body = parsed.body
        }
        let started = DispatchTime.now()
        let analysis: CellAnalysis
        do {
            analysis = try parser.analyze(body, bindingsAreLocal: magic != nil, cancellation: cancellation)
        } catch {
            return .failure(.error(CellErrorReport.parser(error, label: label)))
        }
        Trace.step("parse", since: started)
        if magic != nil, analysis.hasTopLevelAwait {
            return .failure(.error(CellError(name: "MagicError", value: "Timing magics run their body synchronously; move the awaited work into a function and call it without await, or time it without a magic.")))
        }
        if analysis.isEmpty { return .failure(.empty) }
        if !analysis.syntaxProblems.isEmpty {
            return .failure(.error(CellErrorReport.syntax(analysis.syntaxProblems, code: code, label: label)))
        }
        let lost = symbols.lostReferences(in: analysis)
        if !lost.isEmpty { return .failure(.error(CellErrorReport.lostVariables(lost))) }

        let module = RuntimeNames.module(id.rawValue)
        let generator = CellCodeGenerator(module: module, cellLabel: label, cellNumber: id.rawValue)
        var compiled = compile(analysis, generator: generator, magic: magic, loadingTypeModules: false, cancellation: cancellation)
        if case .failure(let failure) = compiled, failure.diagnostics.contains(where: \.isInaccessibleMember) {
            // A member of a type from an earlier cell, reached through a variable: load
            // the modules that declare types, testable, and try once more.
            compiled = compile(analysis, generator: generator, magic: magic, loadingTypeModules: true, cancellation: cancellation)
        }
        switch compiled {
        case .success(let library):
            return .success(CompiledCell(analysis: analysis, label: label, module: module, library: library, entrySymbol: generator.entrySymbol))
        case .failure(let failure):
            if failure.interrupted { return .failure(.error(CellErrorReport.interruptedWhileCompiling())) }
            return .failure(.error(CellErrorReport.compile(failure.diagnostics, code: code, label: label)))
        }
    }

    private func compile(_ analysis: CellAnalysis, generator: CellCodeGenerator, magic: CellMagic?,
                         loadingTypeModules: Bool, cancellation: CellCancellation) -> Result<URL, CompileFailure> {
        let dependencies = symbols.dependencies(of: analysis, loadingTypeModules: loadingTypeModules)
        let source = generator.source(for: analysis, imports: symbols.imports + dependencies.imports, magic: magic)
        return compiler.compile(source: source, module: generator.module, cellLabel: generator.cellLabel,
                                linking: dependencies.modules, insertions: analysis.insertions, cancellation: cancellation)
    }

    /// Records what a run left behind and says how it went.
    private func finish(_ cell: CompiledCell, outcome: CellRunOutcome, label: String) -> CellError? {
        switch outcome {
        case .completed(let bound, let thrown):
            remember(cell, bound: bound)
            return thrown.map { CellErrorReport.thrown(name: $0.typeName, value: $0.description) }
        case .couldNotRun(let message):
            return CellError(name: "LoadError", value: message)
        case .crashed(let message, let status):
            remember(cell, bound: 0)
            return CellErrorReport.crash(message: message, status: status, label: label, lost: symbols.markVariablesLost())
        case .killedAfterInterrupt:
            remember(cell, bound: 0)
            return CellErrorReport.interruptKilled(lost: symbols.markVariablesLost())
        case .interruptedBeforeRun:
            return CellErrorReport.interruptedWhileCompiling()
        case .hostUnavailable(let reason):
            return CellError(name: "KernelError", value: EngineError.hostStartFailed(reason).description)
        }
    }

    /// Records a cell that ran: its names for later cells, its library for a new host.
    private func remember(_ cell: CompiledCell, bound: Int) {
        symbols.record(cell.analysis, module: cell.module, cellLabel: cell.label, boundCount: bound)
        libraries.append(cell.library.path)
    }

    /// Tells the user about hosts that died between cells (their values are gone).
    private func reportHostLosses(to output: CellOutput) {
        let losses = supervisor.takeHostLosses()
        guard let last = losses.last else { return }
        let lost = symbols.markVariablesLost()
        output.stream(name: "stderr", text: CellErrorReport.hostLostBetweenCells(status: last, lost: lost) + "\n")
    }
}

/// The libraries of cells that ran, in order, for a replacement host to load.
/// Appended on the shell thread, read on a host reader thread.
final class CellLibraries: Sendable {
    private let list = Mutex<[String]>([])

    var paths: [String] { list.withLock { $0 } }

    func append(_ path: String) { list.withLock { $0.append(path) } }
}

/// Routes output that a host writes while none of its cells runs (a thread an earlier cell
/// started) to the last cell's output, as ipykernel does.
final class BackgroundOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var output: CellOutput?
    private var standardOutput = UTF8Stream(), standardError = UTF8Stream()

    /// Makes `output` the destination from now on.
    func setOutput(_ output: CellOutput) {
        lock.withLock { self.output = output }
    }

    /// Delivers one output (called on a host reader thread).
    func deliver(_ item: HostOutput) {
        lock.withLock {
            guard let output else { return }
            switch item {
            case .standardOutput(let bytes):
                let text = standardOutput.append(bytes)
                if !text.isEmpty { output.stream(name: "stdout", text: text) }
            case .standardError(let bytes):
                let text = NameScrubber.userFacing(standardError.append(bytes))
                if !text.isEmpty { output.stream(name: "stderr", text: text) }
            case .event(.display(let display)):
                output.display(data: display.data, metadata: display.metadata, displayID: display.displayID,
                               isUpdate: display.isUpdate)
            default:
                break
            }
        }
    }
}
