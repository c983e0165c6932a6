import Foundation
import JupyterWire
import SystemSupport

/// Runs the ``DebugAdapter`` between the kernel's threads so that a debug request never
/// waits for a cell.
///
/// The control thread answers each `debug_request`. What needs the cell host (reading the
/// variables) is done by the shell thread, which owns the engine: when the shell thread is
/// waiting for a request, the job is queued and the shell thread woken; it runs the job and
/// leaves the reply in an outbox that the control thread sends (ZeroMQ sockets belong to one
/// thread). While the shell thread is busy (a cell runs), `inspectVariables` is answered at
/// once with the variables read last, and a rich view says it must wait for the cell.
///
/// Thread rules: every method may be called from any thread (one lock).
final class Debugger: @unchecked Sendable {
    /// A request waiting for the shell thread.
    struct Job {
        var message: Message
        var step: DebugAdapter.DebugStep
    }

    private let lock = NSLock()
    private var adapter: DebugAdapter
    private var shellIsBusy = false
    private var jobs: [Job] = []
    private var outbox: [(message: Message, reply: JSONValue)] = []
    /// The variables read last (shown while a cell runs).
    private var lastVariables: [VariableEntry] = []
    private let wake: (read: FileDescriptor, write: FileDescriptor)

    /// Creates the debugger, writing dumped cells under `cellDirectory`.
    /// - Throws: ``SystemError`` when no pipe can be made.
    init(cellDirectory: URL) throws {
        adapter = DebugAdapter(cellFiles: DebugCellFiles(directory: cellDirectory))
        wake = try FileDescriptor.pipe()
        wake.read.setNonBlocking()
    }

    deinit {
        wake.read.close()
        wake.write.close()
    }

    /// Readable when jobs wait for the shell thread; the shell thread polls it beside its socket.
    var wakeDescriptor: Int32 { wake.read.rawValue }

    /// What to do now about a request (control thread): a reply to send, or nothing
    /// (the job went to the shell thread, which will leave the reply in the outbox).
    func receive(_ message: Message) -> DebugAdapter.DebugStep? {
        lock.lock()
        defer { lock.unlock() }
        let step = adapter.handle(message.content)
        switch step {
        case .reply:
            return step
        case .members(let request, let reference):
            return .reply(adapter.membersResponse(to: request, reference: reference, in: lastVariables), events: [])
        case .inspectVariables(let request) where shellIsBusy:
            return .reply(adapter.variablesResponse(to: request, lastVariables), events: [])
        case .richInspect(let request, let name) where shellIsBusy:
            return .reply(adapter.failure(request, "A cell is running, and the rich view of '\(name)' is read in the cell host that runs it: open it again when the cell has finished."), events: [])
        case .inspectVariables, .richInspect:
            jobs.append(Job(message: message, step: step))
            _ = try? wake.write.write(all: [1])
            return nil
        }
    }

    /// Marks the shell thread busy with a request (shell thread).
    /// - Returns: the jobs queued before it, to run first.
    func beginShellRequest() -> [Job] {
        lock.lock()
        defer { lock.unlock() }
        shellIsBusy = true
        return takeJobsLocked()
    }

    /// Marks the shell thread as waiting for requests again (shell thread), before it says `idle`.
    func endShellRequest() {
        lock.withLock { shellIsBusy = false }
    }

    /// The jobs queued (shell thread, when ``wakeDescriptor`` is readable).
    func takeJobs() -> [Job] {
        lock.withLock { takeJobsLocked() }
    }

    private func takeJobsLocked() -> [Job] {
        while case .bytes? = try? wake.read.read(upTo: 256) {}
        defer { jobs.removeAll() }
        return jobs
    }

    /// Records variables read in the host and makes the response (shell thread).
    func answer(_ job: Job, variables: [VariableEntry]) {
        lock.withLock {
            lastVariables = variables
            guard case .inspectVariables(let request) = job.step else { return }
            outbox.append((job.message, adapter.variablesResponse(to: request, variables)))
        }
    }

    /// Records a rich view read in the host and makes the response (shell thread).
    func answer(_ job: Job, data: JSONValue, metadata: JSONValue) {
        lock.withLock {
            guard case .richInspect(let request, _) = job.step else { return }
            outbox.append((job.message, adapter.richResponse(to: request, data: data, metadata: metadata)))
        }
    }

    /// Makes a failed response to a job (shell thread).
    func answer(_ job: Job, failure message: String) {
        lock.withLock {
            switch job.step {
            case .inspectVariables(let request), .richInspect(let request, _):
                outbox.append((job.message, adapter.failure(request, message)))
            case .reply, .members:
                break
            }
        }
    }

    /// The replies the shell thread made, to send on control (control thread).
    func takeReplies() -> [(message: Message, reply: JSONValue)] {
        lock.withLock {
            defer { outbox.removeAll() }
            return outbox
        }
    }
}
