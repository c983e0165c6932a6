import Dispatch
internal import CBenchbookSupport
import Foundation
internal import HostProtocol

/// Support for the code the kernel generates from a cell. Not for use in notebooks.
///
/// A cell's generated module calls ``run(cell:body:)`` from its entry point. Bindings
/// whose initial value needs `try` or `await` are evaluated through ``evaluate(cell:_:)``
/// so that an error is reported instead of trapping.
///
/// Thread rules: each cell runs on a fresh thread of its own while the host's serving loop
/// waits; `async` cells run their body on that thread too (see ``CellExecutor``).
public enum _BenchbookCell {
    nonisolated(unsafe) private static var activeCell = 0

    /// Per-cell state handed to the generated body.
    public final class Context: @unchecked Sendable {
        /// How many of the cell's bindings are initialised, in order.
        public private(set) var boundCount = 0

        /// Records that the next binding is initialised.
        public func bound() { boundCount += 1 }

        /// Shows the value of the cell's last expression as its `execute_result`.
        /// `Void` values show nothing.
        public func present<T>(_ value: T) {
            if T.self == Void.self { return }
            if let optional = value as? OptionalProtocol, optional.isNone {
                KernelChannel.shared.send(MimeBundle(plainText: "nil").resultEvent)
                return
            }
            // Like a REPL, a result shows its debug form: strings in quotes.
            let bundle = (value as? NotebookDisplayable)?.mimeBundle
                ?? MimeBundle(plainText: removingCellModuleNames(String(reflecting: value)))
            KernelChannel.shared.send(bundle.resultEvent)
        }
    }

    /// The check the kernel puts at the top of each loop body in cell code where an error
    /// can propagate: stops the loop when the user interrupts, keeping every value.
    /// - Throws: ``InterruptedError``.
    public static func checkInterrupt() throws {
        if bb_interrupt_pending() != 0 {
            bb_clear_interrupt()
            throw InterruptedError(activity: "The loop")
        }
    }

    /// The check the kernel puts at the top of each loop body in cell code that cannot
    /// throw (a closure, a non-throwing function): stops the cell with a trap when the user
    /// interrupts; the kernel then restores the host as it was before the cell.
    public static func stopIfInterrupted() {
        if bb_interrupt_pending() != 0 {
            fatalError("Interrupted inside a function or closure that cannot throw, so the cell was stopped")
        }
    }

    /// Runs a cell's statements, reporting a thrown error and how many bindings were made.
    /// - Returns: 0 on success, 1 when the cell threw.
    public static func run(cell: Int, body: (Context) throws -> Void) -> Int32 {
        let context = begin(cell)
        do {
            try body(context)
            return finish(context, error: nil)
        } catch {
            return finish(context, error: error)
        }
    }

    /// Runs a cell whose statements use `await`, blocking until they finish.
    /// - Returns: 0 on success, 1 when the cell threw.
    public static func run(cell: Int, body: @escaping @Sendable (Context) async throws -> Void) -> Int32 {
        let context = begin(cell)
        let outcome = blocking { try await body(context) }
        switch outcome {
        case .success: return finish(context, error: nil)
        case .failure(let error): return finish(context, error: error)
        }
    }

    /// Evaluates a binding's initial value, capturing a thrown error.
    public static func evaluate<T>(cell: Int, _ body: () throws -> T) -> Result<T, Error> {
        guardActive(cell)
        return Result { try body() }
    }

    /// Evaluates a binding's initial value that needs `await`, blocking until it is ready.
    public static func evaluate<T>(cell: Int, _ body: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
        guardActive(cell)
        return blocking(body)
    }

    private static func begin(_ cell: Int) -> Context {
        activeCell = cell
        Interrupt.install()
        Interrupt.clear()
        return Context()
    }

    private static func finish(_ context: Context, error: Error?) -> Int32 {
        activeCell = 0
        fflush(nil)
        let thrown = error.map { error in
            HostEvent.ThrownError(typeName: removingCellModuleNames(String(describing: type(of: error))),
                                  description: removingCellModuleNames(String(describing: error)))
        }
        KernelChannel.shared.send(.finished(bound: context.boundCount, error: thrown))
        return error == nil ? 0 : 1
    }

    /// A lost binding's initialiser must not run again behind the user's back (after a
    /// host restart, its cell's code would re-run on first use). Stop with a clear message.
    private static func guardActive(_ cell: Int) {
        if activeCell != cell {
            fatalError("a value from an earlier run of the notebook was lost when the cell host restarted; re-run the cell that defines it")
        }
    }

    /// Runs async work to completion on the calling thread (the cell's thread), through a
    /// ``CellExecutor`` preferred by the task, not on the global concurrent pool.
    private static func blocking<T>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
        let box = ResultBox<T>()
        let executor = CellExecutor()
        Task(executorPreference: executor) {
            let result: Result<T, Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            executor.finish { box.result = result }
        }
        executor.run()
        return box.result!
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}

private protocol OptionalProtocol {
    var isNone: Bool { get }
}

extension Optional: OptionalProtocol {
    var isNone: Bool { self == nil }
}
