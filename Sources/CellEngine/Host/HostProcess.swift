import SystemSupport
import Foundation
import HostProtocol
import Synchronization

/// What a cell host produced, in the order it was read.
enum HostOutput: Sendable {
    case standardOutput([UInt8])
    case standardError([UInt8])
    case event(HostEvent)
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
/// Thread rules: ``send(_:)``, ``signal(_:)`` and ``kill()`` from any thread. The reader
/// thread calls `onOutput` for every output, in order, ending with
/// ``HostOutput/exited(_:)``; each end-of-file is handled once (a cell that closes its
/// standard output costs nothing afterwards), and the process's exit is seen through its
/// pidfd even when a pipe stays open in something the cell started.
final class HostProcess: Sendable {
    let process: ChildProcess
    private let commands: Mutex<FileDescriptor>
    private let standardInput: FileDescriptor
    private let outputs: (standardOutput: FileDescriptor, standardError: FileDescriptor, events: FileDescriptor)

    /// Starts a host and its reader thread.
    /// - Parameters:
    ///   - executable: `benchbook-cell-host`.
    ///   - library: `libBenchbook.so`, which the host loads before it serves.
    ///   - onOutput: receives every output on the reader thread.
    /// - Throws: ``SystemError`` when the process cannot be started.
    init(executable: String, library: String, onOutput: @escaping @Sendable (HostOutput) -> Void) throws(SystemError) {
        let command = try FileDescriptor.pipe(), events = try FileDescriptor.pipe()
        let out = try FileDescriptor.pipe(), err = try FileDescriptor.pipe(), input = try FileDescriptor.pipe()
        var environment = ProcessInfo.processInfo.environment
        environment[HostChannel.commandVariable] = String(HostChannel.commandDescriptor)
        environment[HostChannel.eventVariable] = String(HostChannel.eventDescriptor)
        // The runtime's backtracer prints frames of generated code; the kernel reports traps itself.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let configuration = ChildProcess.Configuration(
            executable: executable, arguments: [library], environment: environment,
            descriptors: [0: input.read, 1: out.write, 2: err.write,
                          HostChannel.commandDescriptor: command.read, HostChannel.eventDescriptor: events.write],
            newProcessGroup: true)
        let childEnds = [input.read, out.write, err.write, command.read, events.write]
        do {
            process = try ChildProcess(configuration)
        } catch {
            (childEnds + [input.write, out.read, err.read, command.write, events.read]).forEach { $0.close() }
            throw error
        }
        childEnds.forEach { $0.close() }
        commands = Mutex(command.write)
        standardInput = input.write
        outputs = (out.read, err.read, events.read)
        [out.read, err.read, events.read].forEach { $0.setNonBlocking() }
        let reader = Thread { [self] in readUntilExit(onOutput) }
        reader.name = "cell host \(process.pid) reader"
        reader.start()
    }

    deinit {
        process.kill()
        commands.withLock { $0.close() }
        standardInput.close()
        [outputs.standardOutput, outputs.standardError, outputs.events].forEach { $0.close() }
    }

    /// Writes a command.
    /// - Returns: false when the host is gone.
    @discardableResult
    func send(_ command: HostCommand) -> Bool {
        let frame = command.frame
        return commands.withLock { fd in (try? fd.write(all: frame)) != nil }
    }

    /// Sends a signal to the host alone (SIGINT for an interrupt).
    func signal(_ number: Int32) { process.signal(number) }

    /// Kills the host and what its cells started; the reader thread reports the exit.
    func kill() { process.signalGroup(SIGKILL) }

    private func readUntilExit(_ onOutput: @Sendable (HostOutput) -> Void) {
        var open = [outputs.standardOutput, outputs.standardError, outputs.events]
        var decoder = Framing.Decoder()
        func drain(_ fd: FileDescriptor) {
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
                    else if !deliverEvents(bytes, &decoder, onOutput) {
                        open.removeAll { $0 == fd }
                        return
                    }
                }
            }
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
                onOutput(.exited(process.waitForExit()))
                return
            }
        }
    }

    /// Decodes and delivers events; false (and the host killed) when the stream is damaged.
    private func deliverEvents(_ bytes: [UInt8], _ decoder: inout Framing.Decoder,
                               _ onOutput: @Sendable (HostOutput) -> Void) -> Bool {
        do {
            for payload in try decoder.append(bytes) {
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
