/// When a cell that failed to compile is compiled again, and how: the retry policy of one
/// cell, as a state machine (each method moves it on, or throws when called out of turn).
///
/// Three things only a compile can tell, each fixed by compiling again:
/// 1. Swift refuses the `@usableFromInline` marks that keep overrides across cells (see
///    `OverrideVisibility`) when a marked member names a protocol: the cell is parsed
///    again without marks and compiled again, once.
/// 2. A member of a type from an earlier cell reached through a variable is inaccessible
///    until the modules that declare types are loaded: compiled again loading them.
/// 3. A variable whose type is an opaque `some P` of another declaration needs the type
///    the compiler named written out (a tuple pattern takes two rounds).
///
/// 2 and 3 share at most ``fixRounds`` compiles, and only while each brings something new.
/// So a cell takes at most 4 compiles and 2 parses.
///
/// Thread rules: a value, used by one cell's compile.
struct CompileRetryPolicy: Sendable {
    /// How many compiles after the first may add fixes (2 and 3 above).
    static let fixRounds = 2

    /// What one failed compile said, as far as the policy needs.
    struct Failure: Sendable, Equatable {
        /// Swift refused the `@usableFromInline` marks.
        var refusedMarks: Bool
        /// A member of an earlier cell's type was inaccessible.
        var inaccessibleMember: Bool
        /// The fixes the diagnostics call for, added to ``CompileRetryPolicy/fixes``.
        var fixes: CellCodeGenerator.Fixes
    }

    /// What to do after a failed compile.
    enum Action: Sendable, Equatable {
        /// Parse the cell again without `@usableFromInline` marks and compile that.
        case compileWithoutMarks
        /// Compile again with these fixes, loading the type modules or not.
        case compile(fixes: CellCodeGenerator.Fixes, loadingTypeModules: Bool)
        /// Stop: the last failure is the cell's error.
        case giveUp
    }

    /// A method called when the policy is not waiting for it.
    enum Misuse: Error, CustomStringConvertible {
        case finished(String)
        var description: String {
            switch self {
            case .finished(let method):
                "CompileRetryPolicy.\(method) after the cell's compiles ended; start a new policy for the next cell."
            }
        }
    }

    private enum State: Sendable, Equatable {
        /// The first compile, with marks, is running.
        case first
        /// The compile without marks (or the parse for it) is running.
        case withoutMarks
        /// A compile with fixes is running; `round` of ``fixRounds``.
        case fixing(round: Int)
        /// Compiled, or given up.
        case finished
    }

    private var state = State.first
    /// The fixes the next compile writes into the generated source.
    private(set) var fixes = CellCodeGenerator.Fixes()
    /// Whether the next compile loads every module that declares a type.
    private(set) var loadingTypeModules = false

    /// A policy for a cell whose first compile is about to run.
    init() {}

    /// The compile that ran succeeded: nothing more to do.
    mutating func succeeded() throws(Misuse) {
        guard state != .finished else { throw .finished("succeeded()") }
        state = .finished
    }

    /// The parse without marks failed: the policy goes on as if the unmarked compile had
    /// failed the same way.
    mutating func couldNotParseWithoutMarks() throws(Misuse) {
        guard state == .withoutMarks else { throw .finished("couldNotParseWithoutMarks()") }
    }

    /// The compile that ran failed.
    /// - Parameter failure: what it said.
    /// - Returns: what to do next.
    /// - Throws: ``Misuse`` when the compiles had ended.
    mutating func failed(_ failure: Failure) throws(Misuse) -> Action {
        let round: Int
        switch state {
        case .finished:
            throw .finished("failed(_:)")
        case .first where failure.refusedMarks:
            state = .withoutMarks
            return .compileWithoutMarks
        case .first, .withoutMarks:
            round = 0
        case .fixing(let current):
            round = current
        }
        let loads = failure.inaccessibleMember && !loadingTypeModules
        guard round < Self.fixRounds, failure.fixes != fixes || loads else {
            state = .finished
            return .giveUp
        }
        state = .fixing(round: round + 1)
        fixes = failure.fixes
        loadingTypeModules = loadingTypeModules || loads
        return .compile(fixes: fixes, loadingTypeModules: loadingTypeModules)
    }
}
