public import BenchbookRuntime
internal import CCellHost
import Dispatch
import Foundation
internal import HostProtocol

/// Support for the code the kernel generates from a cell. Not for use in notebooks.
///
/// A cell's generated module calls ``run(cell:body:)`` from its entry point. Statements
/// that need a local scope (a binding whose value needs `try` or `await`, `guard let`,
/// `async let`) run through ``_BenchbookScope`` so that an error is reported instead of
/// trapping.
///
/// Thread rules: each cell runs on a fresh thread of its own while the host's serving loop
/// waits; `async` cells run their body on that thread too (see ``CellExecutor``).
public enum _BenchbookCell {
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
            // Like a REPL, a result shows its debug form: strings in quotes, and the
            // notebook's own types without their module (`Point(x: 1)`, which `debugPrint`
            // prints as `main.Point(x: 1)`). A string is shown as it is, `main.` and all.
            let text = removingCellModuleNames(String(reflecting: value))
            let bundle = (value as? NotebookDisplayable)?.mimeBundle
                ?? MimeBundle(plainText: value is any StringProtocol ? text : TypeNames.withoutNotebookModule(text))
            KernelChannel.shared.send(bundle.resultEvent)
        }
    }

    /// Runs a cell's statements, reporting a thrown error and how many bindings were made.
    /// - Parameters:
    ///   - cell: the cell's number.
    ///   - optimization: how the cell was compiled (recorded with benchmarks it runs).
    /// - Returns: 0 on success, 1 when the cell threw.
    public static func run(cell: Int, optimization: CodeOptimization, body: (Context) throws -> Void) -> Int32 {
        CodeOptimization.ofRunningCell = optimization
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
    public static func run(cell: Int, optimization: CodeOptimization,
                           body: @escaping @Sendable (Context) async throws -> Void) -> Int32 {
        CodeOptimization.ofRunningCell = optimization
        let context = begin(cell)
        let outcome = blocking { try await body(context) }
        switch outcome {
        case .success: return finish(context, error: nil)
        case .failure(let error): return finish(context, error: error)
        }
    }

    private static func begin(_ cell: Int) -> Context {
        Interrupt.install()
        Interrupt.clear()
        return Context()
    }

    private static func finish(_ context: Context, error: Error?) -> Int32 {
        fflush(nil)
        let thrown = error.map { error in
            HostEvent.ThrownError(typeName: removingCellModuleNames(String(describing: type(of: error))),
                                  description: removingCellModuleNames(String(describing: error)))
        }
        KernelChannel.shared.send(.finished(bound: context.boundCount, error: thrown))
        return error == nil ? 0 : 1
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
