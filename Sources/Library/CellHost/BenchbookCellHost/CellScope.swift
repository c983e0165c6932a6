/// The values that top-level statements sharing a local scope bind, for the code the
/// kernel generates from a cell. Not for use in notebooks.
///
/// Swift allows `guard let`, a constant given its value after its declaration, a `try` or
/// `await` in a binding's value, and `async let` only in a local scope. The kernel runs such
/// statements in a closure at their place in the cell (``run()``), and declares each name
/// they bind as a module variable initialised from ``result``:
/// ```
/// let __bb_scope_v = _BenchbookScope("In[3]") { () throws in
///     guard let v = maybe else { fatalError() }
///     return v
/// }
/// let v = __bb_scope_v.result
/// ```
/// Creating the scope runs nothing, so a module variable read before its scope has run (by
/// a function the scope calls, or after the cell host restarted without the cell) stops
/// with a message instead of running the statements again or waiting on itself.
///
/// Thread rules: run on the cell's thread by its entry point, once.
public final class _BenchbookScope<Value>: @unchecked Sendable {
    private enum Body {
        case synchronous(() throws -> Value)
        case asynchronous(() async throws -> Value)
    }

    private let cellLabel: String
    private let body: Body
    private var value: Value?

    /// A scope whose statements do not `await`.
    public init(_ cellLabel: String, _ body: @escaping () throws -> Value) {
        self.cellLabel = cellLabel
        self.body = .synchronous(body)
    }

    /// A scope whose statements `await`.
    public init(_ cellLabel: String, _ body: @escaping () async throws -> Value) {
        self.cellLabel = cellLabel
        self.body = .asynchronous(body)
    }

    /// Runs the statements of a scope that does not `await`.
    /// - Throws: what the statements throw.
    public func run() throws {
        guard case .synchronous(let body) = body else { preconditionFailure("an awaiting scope runs with runAsync()") }
        value = try body()
    }

    /// Runs the statements of a scope that `await`s.
    /// - Throws: what the statements throw.
    public func runAsync() async throws {
        switch body {
        case .synchronous(let body): value = try body()
        case .asynchronous(let body): value = try await body()
        }
    }

    /// The values the statements bound, once they ran.
    public var result: Value {
        guard let value else {
            fatalError("a variable of \(cellLabel) was read before \(cellLabel) gave it its value (or after the cell host restarted without it); re-run \(cellLabel)")
        }
        return value
    }
}

/// A notebook variable declared with a type and no value, which a later cell sets (for
/// the code the kernel generates; not for use in notebooks).
///
/// Thread rules: read and written by cells, one at a time.
public final class _BenchbookUnset<Value>: @unchecked Sendable {
    private let name: String
    private let cellLabel: String
    private let isConstant: Bool
    private var stored: Value?

    /// A variable `name` declared in `cellLabel`; a constant can be set once.
    public init(_ name: String, cell cellLabel: String, isConstant: Bool) {
        self.name = name
        self.cellLabel = cellLabel
        self.isConstant = isConstant
    }

    /// The value; reading it before a cell set it stops the cell with a message.
    public var value: Value {
        get {
            guard let stored else {
                fatalError("'\(name)' (declared in \(cellLabel) without a value) is read before any cell gave it one; assign it first")
            }
            return stored
        }
        set {
            if isConstant, stored != nil {
                fatalError("'\(name)' is a constant (let) and already has its value; declare it with var to change it")
            }
            stored = newValue
        }
    }
}
