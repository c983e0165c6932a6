import SystemSupport
import Foundation
import HostProtocol
import Synchronization

/// What a cell host produced, in the order it was read.
enum HostOutput: Sendable {
    case standardOutput([UInt8])
    case standardError([UInt8])
    case event(HostEvent)
    /// The host left a frozen copy of itself after a cell.
    case snapshot(HostSnapshot)
    /// What the host's crash handler wrote on its crash channel before the host died;
    /// delivered just before ``exited(_:)``.
    case crashed(CrashReport)
    /// The event stream could not be read; the host has been killed.
    case protocolError(String)
    /// The process ended; always the last output.
    case exited(ExitStatus)
}

/// One cell host process: its pipes, and a reader thread that turns what it writes into
/// ``HostOutput`` values.
///
/// The host runs in its own process group, so a kill also ends what its cells started.
/// Standard input stays open and empty (`readLine()` in a cell waits; `input(_:)` is the
/// way to ask the user).
///
/// Thread rules: ``send(_:)``, ``signal(_:)`` and ``kill()`` from any thread. Commands and
/// signals go out in the order asked, from the host's own serial queue (`outbox`), so the
/// caller never blocks on a full command pipe: the supervisor asks under its lock, and the
/// reader thread, which needs that lock to deliver events, must never wait for a write
/// that waits for a host that waits for its events to be read. ``kill()`` does not queue:
/// it ends a host whatever is waiting to be written to it. The reader
/// thread calls `onOutput` for every output, in order, ending with
/// ``HostOutput/exited(_:)``; each end-of-file is handled once (a cell that closes its
/// standard output costs nothing afterwards), and the process's exit is seen through its
/// pidfd even when a pipe stays open in something the cell started.
final class HostProcess: Sendable {
    let process: ChildProcess
    private let commands: FileDescriptor
    /// Writes commands and sends signals, in order; see the thread rules.
    private let outbox: DispatchQueue
    private let standardInput: FileDescriptor
    private let outputs: (standardOutput: FileDescriptor, standardError: FileDescriptor, events: FileDescriptor,
                          crashes: FileDescriptor)
    private let snapshots: MessageSocket
    private let id: HostID

    /// The kernel's ends of a host's seven descriptors, and the host's ends (0–6 in the host).
    private struct Pipes {
        let command: (read: FileDescriptor, write: FileDescriptor)
        let events: (read: FileDescriptor, write: FileDescriptor)
        let output: (read: FileDescriptor, write: FileDescriptor)
        let error: (read: FileDescriptor, write: FileDescriptor)
        let input: (read: FileDescriptor, write: FileDescriptor)
        let snapshots: (kernel: MessageSocket, host: MessageSocket)
        let crashes: (read: FileDescriptor, write: FileDescriptor)

        init() throws(SystemError) {
            command = try FileDescriptor.pipe()
            events = try FileDescriptor.pipe()
            output = try FileDescriptor.pipe()
            error = try FileDescriptor.pipe()
            input = try FileDescriptor.pipe()
            snapshots = try MessageSocket.pair()
            crashes = try FileDescriptor.pipe()
        }

        /// Both ends of each of the host's descriptors, by its number in the host
        /// (``HostChannel``'s numbers; 0–2 are standard input, output and error).
        var ends: [Int32: (host: FileDescriptor, kernel: FileDescriptor)] {
            [
                STDIN_FILENO: (input.read, input.write),
                STDOUT_FILENO: (output.write, output.read),
                STDERR_FILENO: (error.write, error.read),
                HostChannel.commandDescriptor: (command.read, command.write),
                HostChannel.eventDescriptor: (events.write, events.read),
                HostChannel.snapshotDescriptor: (snapshots.host.descriptor, snapshots.kernel.descriptor),
                HostChannel.crashDescriptor: (crashes.write, crashes.read),
            ]
        }

        /// The host's ends, in descriptor order 0–6.
        var hostEnds: [FileDescriptor] {
            let ends = ends
            return (0..<Int32(HostChannel.descriptorCount)).map { ends[$0]!.host }
        }

        /// The kernel's ends, in the order of the host's descriptors they face.
        var kernelEnds: [FileDescriptor] {
            let ends = ends
            return (0..<Int32(HostChannel.descriptorCount)).map { ends[$0]!.kernel }
        }
    }

    /// Starts a host and its reader thread.
    /// - Parameters:
    ///   - id: the supervisor's name for it (given to its snapshots).
    ///   - executable: `benchbook-cell-host`.
    ///   - library: `libBenchbook.so`, which the host loads before it serves.
    ///   - onOutput: receives every output on the reader thread.
    /// - Throws: ``SystemError`` when the process cannot be started.
    convenience init(_ id: HostID, executable: String, library: String,
                     onOutput: @escaping @Sendable (HostOutput) -> Void) throws(SystemError) {
        let pipes = try Pipes()
        var environment = ProcessInfo.processInfo.environment
        environment[HostChannel.commandVariable] = String(HostChannel.commandDescriptor)
        environment[HostChannel.eventVariable] = String(HostChannel.eventDescriptor)
        // The runtime's backtracer prints frames of generated code; the kernel reports traps itself.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        var descriptors: [Int32: FileDescriptor] = [:]
        for (number, fd) in pipes.hostEnds.enumerated() { descriptors[Int32(number)] = fd }
        let configuration = ChildProcess.Configuration(
            executable: executable, arguments: [library], environment: environment,
            descriptors: descriptors, newProcessGroup: true)
        let process: ChildProcess
        do {
            process = try ChildProcess(configuration)
        } catch {
            (pipes.hostEnds + pipes.kernelEnds).forEach { $0.close() }
            throw error
        }
        pipes.hostEnds.forEach { $0.close() }
        self.init(id, process: process, pipes: pipes, onOutput: onOutput)
    }

    /// Makes a snapshot the host (it has been adopted: its host died) and starts reading it.
    /// - Throws: ``SystemError`` when the snapshot is gone.
    convenience init(_ id: HostID, promoting snapshot: HostSnapshot,
                     onOutput: @escaping @Sendable (HostOutput) -> Void) throws(SystemError) {
        let pipes = try Pipes()
        let process: ChildProcess
        do {
            try snapshot.promote(pipes.hostEnds)
            process = try ChildProcess(adopting: snapshot.pid, leadsGroup: true)
        } catch {
            (pipes.hostEnds + pipes.kernelEnds).forEach { $0.close() }
            throw error
        }
        pipes.hostEnds.forEach { $0.close() }
        self.init(id, process: process, pipes: pipes, onOutput: onOutput)
    }

    private init(_ id: HostID, process: ChildProcess, pipes: Pipes, onOutput: @escaping @Sendable (HostOutput) -> Void) {
        self.id = id
        self.process = process
        commands = pipes.command.write
        outbox = DispatchQueue(label: "benchbook.host.\(id.rawValue).commands")
        standardInput = pipes.input.write
        outputs = (pipes.output.read, pipes.error.read, pipes.events.read, pipes.crashes.read)
        snapshots = pipes.snapshots.kernel
        [outputs.standardOutput, outputs.standardError, outputs.events, outputs.crashes, snapshots.descriptor]
            .forEach { $0.setNonBlocking() }
        let reader = Thread { [self] in readUntilExit(onOutput) }
        reader.name = "cell host \(process.pid) reader"
        reader.start()
    }

    deinit {
        process.kill()
        // After every queued write, which fails at once now that the host is dead.
        outbox.async { [commands] in commands.close() }
        standardInput.close()
        [outputs.standardOutput, outputs.standardError, outputs.events, outputs.crashes, snapshots.descriptor].forEach { $0.close() }
    }

    /// Queues a command; a host that is gone never reads it (it reports its exit instead).
    func send(_ command: HostCommand) {
        let frame = command.frame
        outbox.async { [commands] in _ = try? commands.write(all: frame) }
    }

    /// Sends a signal to the host alone (SIGINT for an interrupt), after the commands queued
    /// before it (an interrupt never overtakes the run it interrupts).
    func signal(_ number: Int32) {
        outbox.async { [process] in process.signal(number) }
    }

    /// Kills the host and what its cells started; the reader thread reports the exit.
    func kill() { process.signalGroup(SIGKILL) }

    private func readUntilExit(_ onOutput: @Sendable (HostOutput) -> Void) {
        var open = [outputs.standardOutput, outputs.standardError, outputs.events, outputs.crashes, snapshots.descriptor]
        var decoder = Framing.Decoder()
        /// What the crash handler wrote; a report is at most a few kilobytes.
        var crashBytes: [UInt8] = []
        func drain(_ fd: FileDescriptor) {
            if fd == snapshots.descriptor {
                if !receiveSnapshots(onOutput) { open.removeAll { $0 == fd } }
                return
            }
            while true {
                let result: FileDescriptor.ReadResult
                do { result = try fd.read() } catch { result = .endOfFile }
                switch result {
                case .wouldBlock:
                    return
                case .endOfFile:
                    open.removeAll { $0 == fd }
                    if fd == outputs.events {
                        // No more events can come: a host without its channel is of no use.
                        process.signalGroup(SIGKILL)
                    }
                    return
                case .bytes(let bytes):
                    if fd == outputs.standardOutput { onOutput(.standardOutput(bytes)) }
                    else if fd == outputs.standardError { onOutput(.standardError(bytes)) }
                    else if fd == outputs.crashes { if crashBytes.count < 1 << 20 { crashBytes += bytes } }
                    else if !deliverEvents(bytes, &decoder, afterOutputs: drainOutputs, onOutput) {
                        open.removeAll { $0 == fd }
                        return
                    }
                }
            }
        }
        // The host flushes its standard output and error before it writes an event, so text
        // printed before an event is in its pipe by the time the event is read: read it
        // first, even while events keep coming (a print between two events, then `done`).
        // A snapshot announced before an event (the host snapshots before `done`) is read
        // first too, so the supervisor keeps it before the cell ends.
        func drainOutputs() {
            for fd in [outputs.standardOutput, outputs.standardError, snapshots.descriptor] where open.contains(fd) { drain(fd) }
        }
        while true {
            let ready = (try? FileDescriptor.poll(open + [process.exitNotification], timeout: -1)) ?? []
            // Output before events, so text printed before a display is shown before it
            // (the library flushes standard output before it writes an event).
            for fd in open where ready.contains(fd) { drain(fd) }
            if ready.contains(process.exitNotification) {
                for fd in open { drain(fd) }
                // End what the cells started while the group id is still reserved (the
                // host is not reaped yet).
                process.signalGroup(SIGKILL)
                if let report = CrashReport(channel: crashBytes) { onOutput(.crashed(report)) }
                onOutput(.exited(process.waitForExit()))
                return
            }
        }
    }

    /// Delivers the snapshots announced so far; false once the host's end is closed.
    private func receiveSnapshots(_ onOutput: @Sendable (HostOutput) -> Void) -> Bool {
        while true {
            guard (try? FileDescriptor.poll([snapshots.descriptor], timeout: 0))?.isEmpty == false else { return true }
            let message: MessageSocket.Message?
            do { message = try snapshots.receive(capacity: 256) } catch where error.code == EMSGSIZE {
                continue  // Not a message of the seam (dropped whole); the channel still works.
            } catch {
                return false
            }
            guard let message else { return false }
            if let snapshot = HostSnapshot(announcement: message, from: id) {
                onOutput(.snapshot(snapshot))
            }
        }
    }

    /// Decodes and delivers events, after the output the host wrote before them;
    /// false (and the host killed) when the stream is damaged.
    private func deliverEvents(_ bytes: [UInt8], _ decoder: inout Framing.Decoder, afterOutputs drainOutputs: () -> Void,
                               _ onOutput: @Sendable (HostOutput) -> Void) -> Bool {
        do {
            let payloads = try decoder.append(bytes)
            if !payloads.isEmpty { drainOutputs() }
            for payload in payloads {
                onOutput(.event(try HostEvent(payload: payload)))
            }
            return true
        } catch {
            onOutput(.protocolError("the cell host's event stream is damaged (\(error))"))
            process.signalGroup(SIGKILL)
            return false
        }
    }
}
