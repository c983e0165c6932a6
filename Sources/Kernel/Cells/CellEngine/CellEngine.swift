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
    var symbols = SymbolTable()
    let supervisor: HostSupervisor
    /// Libraries of cells that ran, for a replacement host to load.
    private let libraries = CellLibraries()
    /// What the ready host has loaded, for each cell's link to leave out.
    private let hostLibraries = HostLibraries()
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
        supervisor = HostSupervisor(
            launch: .init(executable: configuration.hostExecutable.path, library: configuration.library.path),
            gracePeriod: Self.interruptGracePeriod,
            librariesToReload: { libraries.paths(after: $0) },
            background: { background.deliver($0) })
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
        let warmUpSetting = ProcessInfo.processInfo.environment["BENCHBOOK_COMPILER_WARMUP"]
        guard warmUpSetting == "always" || (warmUpSetting != "never" && configuration.cellCache.shared.isEmpty) else { return }
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
        if let parsed = CellMagic.parse(code), case .success(.optimize(let setting)) = parsed.magic {
            return setOptimization(setting, output: output)
        }
        if let parsed = CellMagic.parse(code), case .success(.cache) = parsed.magic {
            return showCache(output: output)   // CellEngine+Cache.swift
        }
        background.setOutput(output, streams: streams(label: label + "-later"))
        reportHostLosses(to: output)
        for note in commNotes { output.stream(name: "stderr", text: note + "\n") }
        commNotes.removeAll()
        return run(label: label, output: output, isUserCell: true) { id, cancellation in
            prepare(code, label: label, id: id, cancellation: cancellation)
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

    /// A cell compiled and ready to run.
    struct CompiledCell {
        var analysis: CellAnalysis
        var label: String
        var module: String
        var library: URL
        var entrySymbol: String
    }

    /// Why a cell does not run.
    enum NotRun: Error {
        /// Only comments and whitespace.
        case empty
        /// An error to show (syntax, compile, lost variable, unknown magic).
        case error(CellError)
    }

    /// Parses, checks, generates and compiles a cell.
    private func prepare(_ code: String, label: String, id: CellID,
                         cancellation: CellCancellation) -> Result<CompiledCell, NotRun> {
        if let listing = NameListing.parse(code) {   // %who, %whos: CellEngine+NameListing.swift
            return prepareListing(listing, label: label, id: id, cancellation: cancellation)
        }
        var magic: CellMagic?
        var body = code
        if let parsed = CellMagic.parse(code) {
            switch parsed.magic {
            case .success(let found): magic = found
            case .failure(let problem):
                let name = if case .unknown = problem { "UnknownMagic" } else { "MagicError" }
                return .failure(.error(CellError(name: name, value: problem.description)))
            }
            body = parsed.body
        }
        let started = DispatchTime.now()
        let analysis: CellAnalysis
        do {
            analysis = try parser.analyze(body, bindingsAreLocal: magic?.isTiming == true, cancellation: cancellation)
        } catch {
            return .failure(.error(CellErrorReport.parser(error, label: label)))
        }
        Trace.step("parse", since: started)
        if magic?.isTiming == true, analysis.hasTopLevelAwait {
            return .failure(.error(CellError(name: "MagicError", value: "Timing magics run their body synchronously; move the awaited work into a function and call it without await, or time it without a magic.")))
        }
        if analysis.isEmpty { return .failure(.empty) }
        if !analysis.syntaxProblems.isEmpty {
            return .failure(.error(CellErrorReport.syntax(analysis.syntaxProblems, code: code, label: label)))
        }
        if !analysis.reservedNames.isEmpty {
            return .failure(.error(CellErrorReport.reservedNames(analysis.reservedNames, code: code, label: label)))
        }
        let lost = symbols.lostReferences(in: analysis)
        if !lost.isEmpty { return .failure(.error(CellErrorReport.lostVariables(lost))) }

        let module = RuntimeNames.module(id.rawValue)
        var generator = CellCodeGenerator(module: module, cellLabel: label, cellNumber: id.rawValue)
        generator.optimized = optimization.optimizes(analysis, timed: magic?.isTiming == true)
        var request = CompileRequest(analysis: analysis, generator: generator, magic: magic)
        var compiled = compile(request, cancellation: cancellation)
        // The `@usableFromInline` marks that keep overrides across cells (see
        // OverrideVisibility) are refused when a marked member names a protocol: compile
        // without them.
        if case .failure(let failure) = compiled, failure.diagnostics.contains(where: \.isAboutUsableFromInline),
           let unmarked = try? parser.analyze(body, bindingsAreLocal: magic?.isTiming == true, marksTypes: false,
                                             cancellation: cancellation) {
            request.analysis = unmarked
            compiled = compile(request, cancellation: cancellation)
        }
        // Two things only a compile can tell, each fixed by compiling again: a member of a
        // type from an earlier cell reached through a variable (load the modules that
        // declare types), and a variable whose type is an opaque `some P` from another
        // declaration (write the type the compiler named; a tuple pattern takes two rounds).
        for _ in 0..<2 {
            guard case .failure(let failure) = compiled else { break }
            let fixes = OpaqueTypes.fixes(for: failure.diagnostics, in: request.analysis, adding: request.fixes)
            let inaccessible = failure.diagnostics.contains(where: \.isInaccessibleMember)
            guard fixes != request.fixes || (inaccessible && !request.loadingTypeModules) else { break }
            request.fixes = fixes
            request.loadingTypeModules = request.loadingTypeModules || inaccessible
            compiled = compile(request, cancellation: cancellation)
        }
        switch compiled {
        case .success(let library):
            return .success(CompiledCell(analysis: request.analysis, label: label, module: module, library: library,
                                         entrySymbol: generator.entrySymbol))
        case .failure(let failure):
            if failure.interrupted { return .failure(.error(CellErrorReport.interruptedWhileCompiling())) }
            return .failure(.error(CellErrorReport.compile(failure.diagnostics, code: code, label: label,
                                                           notes: notes(on: failure.diagnostics))))
        }
    }

    /// What one compile of a cell needs.
    struct CompileRequest {
        var analysis: CellAnalysis
        var generator: CellCodeGenerator
        var magic: CellMagic?
        var fixes = CellCodeGenerator.Fixes()
        var loadingTypeModules = false
    }

    func compile(_ request: CompileRequest, cancellation: CellCancellation) -> Result<URL, CompileFailure> {
        let analysis = request.analysis, generator = request.generator
        let written = request.fixes.annotations.values.flatMap { $0.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) }
        let dependencies = symbols.dependencies(of: analysis, loadingTypeModules: request.loadingTypeModules,
                                                alsoUsing: Set(written.map(String.init)))
        let source = generator.source(for: analysis, imports: symbols.imports + dependencies.imports, magic: request.magic,
                                      fixes: request.fixes)
        // What the ready host has loaded globally resolves the cell's symbols at dlopen; the
        // link names only the rest (everything, when no host is ready yet).
        hostLibraries.beginCell(host: supervisor.readyHost)
        return compiler.compile(source: source, module: generator.module, cellLabel: generator.cellLabel,
                                linking: dependencies.modules, hostHasLoaded: hostLibraries.contains(library:),
                                waitForHost: { [self] in waitForHost(cancellation: cancellation) },
                                emitsModule: Self.laterCellsCanImport(analysis, magic: request.magic),
                                insertions: analysis.insertions + generator.insertions(for: analysis, fixes: request.fixes),
                                optimized: generator.optimized, crossModule: !analysis.declaresCallables,
                                cancellation: cancellation)
    }

    /// Waits (at most a minute) until a host is ready to run the cell, and starts the
    /// questions about what it has loaded again. A cached library whose link left out what
    /// the host loads needs this; the run would wait for the host anyway.
    private func waitForHost(cancellation: CellCancellation) {
        let deadline = DispatchTime.now() + .seconds(60)
        while supervisor.readyHost == nil, !cancellation.isCancelled, DispatchTime.now() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        hostLibraries.beginCell(host: supervisor.readyHost)
    }

    /// Explanations added to a compile error: a name no earlier cell declares may be
    /// declared by a cell that has not run yet, which one Swift file would allow.
    private func notes(on diagnostics: [CellDiagnostic]) -> [String] {
        var notes: [String] = []
        if let name = diagnostics.compactMap(\.unknownName).first(where: { symbols.live($0).isEmpty }) {
            notes.append("Note: no cell has declared '\(name)' so far. Cells run in the order you run them, and a cell sees "
                + "only what the cells run before it declared (in one Swift file a declaration may come later); a cell "
                + "that stopped with an error keeps only what it declared before the error. If '\(name)' is declared in "
                + "another cell, run that cell first, or move the declaration into this cell.")
        }
        if diagnostics.contains(where: { $0.message.hasPrefix("redundant conformance of") }) {
            notes.append("Note: an earlier cell already declared this conformance, and a type conforms to a protocol "
                + "once (running an extension cell again declares it again). To change the members, write them in an "
                + "extension without the conformance (`extension Point { ... }`): the newest member is the one used. "
                + "Or run the cell that declares the type again, then this one.")
        }
        return notes
    }

    /// True when the cell declares or binds something a later cell can import (its module
    /// file is written only then).
    static func laterCellsCanImport(_ analysis: CellAnalysis, magic: CellMagic?) -> Bool {
        analysis.items.contains { item in
            switch item {
            case .declaration, .moduleWideDeclaration: true
            case .binding, .localScope, .unsetBinding: magic == nil
            case .statement, .result, .import: false
            }
        }
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
            let message = loss.crash?.runtimeMessage.map(NameScrubber.userFacing)
            let location = loss.crash?.cellLocation(symbolizer: configuration.toolsDirectory.appendingPathComponent("llvm-symbolizer"),
                                                     cellLibraries: configuration.workDirectory)
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
