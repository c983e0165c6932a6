import Synchronization

/// The libraries of cells that ran, in order, for a replacement host to load.
/// Appended on the shell thread, read on a host reader thread.
final class CellLibraries: Sendable {
    private let list = Mutex<[(path: String, execution: Int)]>([])

    /// The libraries of executions after `execution` (0: all), in order.
    func paths(after execution: Int) -> [String] {
        list.withLock { $0.filter { $0.execution > execution }.map(\.path) }
    }

    func append(_ path: String, execution: Int) { list.withLock { $0.append((path, execution)) } }
}
