import CellSource
import Foundation
import GeneratedNames

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

/// Turns a cell's text into a library: parse (in the cell parser process), check, generate
/// a module, compile and link it, and compile again as ``CompileRetryPolicy`` says.
///
/// It reads the notebook's names (``SymbolTable``) but records nothing: the engine records
/// a cell once it ran.
///
/// Thread rules: used from the kernel's shell thread, one cell at a time.
struct CompilePipeline {
    let parser: CellParserClient
    let compiler: CellCompiler
    /// What the ready host has loaded, for each cell's link to leave out.
    let hostLibraries: HostLibraries
    let supervisor: HostSupervisor

    /// A cell's text with its magic line split off (``CellMagic/parse(_:)``, parsed once
    /// per cell by the engine).
    struct Cell {
        var code: String
        var label: String
        var id: CellID
        /// The magic line's parse, or nil when the cell has none.
        var magicLine: (magic: Result<CellMagic, MagicProblem>, body: String)?
    }

    /// What one compile of a cell needs.
    struct Attempt {
        var analysis: CellAnalysis
        var generator: CellCodeGenerator
        var magic: CellMagic?
        var fixes = CellCodeGenerator.Fixes()
        var loadingTypeModules = false
    }

    /// Parses, checks, generates and compiles a cell.
    /// - Parameters:
    ///   - cell: the cell.
    ///   - symbols: the names of the cells that ran.
    ///   - optimization: the kernel's `%optimize` setting.
    ///   - cancellation: stops the parse or compile step when the cell is interrupted.
    /// - Returns: the compiled cell, or why it does not run.
    func prepare(_ cell: Cell, symbols: SymbolTable, optimization: Optimization,
                 cancellation: CellCancellation) -> Result<CompiledCell, NotRun> {
        var magic: CellMagic?
        var body = cell.code
        if let parsed = cell.magicLine {
            switch parsed.magic {
            case .success(let found): magic = found
            case .failure(let problem):
                let name = if case .unknown = problem { "UnknownMagic" } else { "MagicError" }
                return .failure(.error(CellError(name: name, value: problem.description)))
            }
            body = parsed.body
        }
        let timed = magic?.isTiming == true
        let started = DispatchTime.now()
        let analysis: CellAnalysis
        do {
            analysis = try parser.analyze(body, bindingsAreLocal: timed, cancellation: cancellation)
        } catch {
            return .failure(.error(CellErrorReport.parser(error, label: cell.label)))
        }
        Trace.step("parse", since: started)
        if let problem = check(analysis, cell: cell, timed: timed, symbols: symbols) { return .failure(problem) }

        let module = RuntimeNames.module(cell.id.rawValue)
        var generator = CellCodeGenerator(module: module, cellLabel: cell.label, cellNumber: cell.id.rawValue)
        generator.optimized = optimization.optimizes(analysis, timed: timed)
        var attempt = Attempt(analysis: analysis, generator: generator, magic: magic)
        var policy = CompileRetryPolicy()
        var compiled = compile(attempt, symbols: symbols, cancellation: cancellation)
        while case .failure(let failure) = compiled, !failure.interrupted {
            let action = try! policy.failed(.init(   // a failure comes once per compile: never misused
                refusedMarks: failure.diagnostics.contains(where: \.isAboutUsableFromInline),
                inaccessibleMember: failure.diagnostics.contains(where: \.isInaccessibleMember),
                fixes: OpaqueTypes.fixes(for: failure.diagnostics, in: attempt.analysis, adding: policy.fixes)))
            switch action {
            case .giveUp:
                return .failure(.error(CellErrorReport.compile(failure.diagnostics, code: cell.code, label: cell.label,
                                                               notes: notes(on: failure.diagnostics, symbols: symbols))))
            case .compileWithoutMarks:
                guard let unmarked = try? parser.analyze(body, bindingsAreLocal: timed, marksTypes: false,
                                                         cancellation: cancellation) else {
                    try! policy.couldNotParseWithoutMarks()   // right after .compileWithoutMarks
                    continue
                }
                attempt.analysis = unmarked
            case .compile(let fixes, let loadingTypeModules):
                attempt.fixes = fixes
                attempt.loadingTypeModules = loadingTypeModules
            }
            compiled = compile(attempt, symbols: symbols, cancellation: cancellation)
        }
        switch compiled {
        case .success(let library):
            return .success(CompiledCell(analysis: attempt.analysis, label: cell.label, module: module, library: library,
                                         entrySymbol: generator.entrySymbol))
        case .failure:
            return .failure(.error(CellErrorReport.interruptedWhileCompiling()))
        }
    }

    /// What stops a parsed cell before any compile: nothing to run, a syntax error, a
    /// reserved name, a variable an earlier crash lost, an `await` in a timing magic.
    private func check(_ analysis: CellAnalysis, cell: Cell, timed: Bool, symbols: SymbolTable) -> NotRun? {
        if timed, analysis.hasTopLevelAwait {
            return .error(CellError(name: "MagicError", value: "Timing magics run their body synchronously; move the awaited work into a function and call it without await, or time it without a magic."))
        }
        if analysis.isEmpty { return .empty }
        if !analysis.syntaxProblems.isEmpty {
            return .error(CellErrorReport.syntax(analysis.syntaxProblems, code: cell.code, label: cell.label))
        }
        if !analysis.reservedNames.isEmpty {
            return .error(CellErrorReport.reservedNames(analysis.reservedNames, code: cell.code, label: cell.label))
        }
        let lost = symbols.lostReferences(in: analysis)
        return lost.isEmpty ? nil : .error(CellErrorReport.lostVariables(lost))
    }

    /// Generates the module for one attempt and compiles it.
    func compile(_ attempt: Attempt, symbols: SymbolTable, cancellation: CellCancellation) -> Result<URL, CompileFailure> {
        let analysis = attempt.analysis, generator = attempt.generator
        let written = attempt.fixes.annotations.values.flatMap { $0.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) }
        let dependencies = symbols.dependencies(of: analysis, loadingTypeModules: attempt.loadingTypeModules,
                                                alsoUsing: Set(written.map(String.init)))
        let source = generator.source(for: analysis, imports: symbols.imports + dependencies.imports + dependencies.shadowing,
                                      magic: attempt.magic,
                                      fixes: attempt.fixes)
        // What the ready host has loaded globally resolves the cell's symbols at dlopen; the
        // link names only the rest (everything, when no host is ready yet).
        hostLibraries.beginCell(host: supervisor.readyHost)
        return compiler.compile(source: source, module: generator.module, cellLabel: generator.cellLabel,
                                linking: dependencies.modules, hostHasLoaded: hostLibraries.contains(library:),
                                waitForHost: { waitForHost(cancellation: cancellation) },
                                emitsModule: Self.laterCellsCanImport(analysis, magic: attempt.magic),
                                insertions: analysis.insertions + generator.insertions(for: analysis, fixes: attempt.fixes),
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
    private func notes(on diagnostics: [CellDiagnostic], symbols: SymbolTable) -> [String] {
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
}
