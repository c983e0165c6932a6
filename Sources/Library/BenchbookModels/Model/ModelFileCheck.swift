internal import SystemSupport
import BenchbookRuntime

/// Loads a model file once in a forked child before the notebook's own process does, so
/// a damaged file that crashes the runtime, loops, or claims huge memory becomes an error.
///
/// The child may grow its address space by at most ``addressSpaceBudget`` (a damaged size
/// field then fails to allocate instead of taking the machine's memory) and must finish
/// within ``timeLimit``. Its verdict is final: a refused file is never loaded again here.
enum ModelFileCheck {
    /// How much more memory the check may map than the process had when it forked. Real
    /// models of the course need a few hundred megabytes at most.
    static let addressSpaceBudget: UInt64 = 2 << 30
    /// How long loading (and, for TensorFlow Lite, one run) may take.
    static let timeLimit = 60.0

    /// Why a check child refused a file.
    struct Refusal {
        /// What the child wrote, or what happened to it.
        var text: String
        /// The child's exit status when it exited (a shim may say with it what kind of failure
        /// it was), `nil` when it was killed or could not start.
        var exitStatus: Int?
    }

    /// Runs a check that a C shim starts.
    /// - Parameter start: forks the child with the given budget, returning its pid (or -1)
    ///   and the read end of its message pipe.
    /// - Returns: nil when the file loaded in the child, or why it was refused.
    static func refusal(_ start: (UInt64, inout Int32) -> Int32) -> String? {
        check(start)?.text
    }

    /// Runs a check as ``refusal(_:)`` does, keeping the child's exit status.
    static func check(_ start: (UInt64, inout Int32) -> Int32) -> Refusal? {
        // The check forks the host: never while the runtimes load on another thread.
        RuntimePreload.waitUntilDone()
        var messageDescriptor: Int32 = -1
        let pid = start(addressSpaceBudget, &messageDescriptor)
        guard pid > 0, let child = try? ChildProcess(adopting: pid) else {
            return Refusal(text: "the check process could not be started", exitStatus: nil)
        }
        let messages = FileDescriptor(rawValue: messageDescriptor)
        defer { messages.close() }
        guard let status = child.waitForExit(timeout: timeLimit) else {
            child.kill()
            return Refusal(text: "loading it did not finish within \(Int(timeLimit)) s in a check process", exitStatus: nil)
        }
        switch status {
        case .exited(0):
            return nil
        case .exited(let code):
            let text = String(decoding: (try? messages.readToEnd()) ?? [], as: UTF8.self)
            return Refusal(text: text.isEmpty ? "the check process failed (\(status))" : text, exitStatus: Int(code))
        case .signalled(let signal):
            return Refusal(text: "the loader crashed in a check process (\(ExitStatus.signalName(signal)))", exitStatus: nil)
        }
    }
}
