import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one place where the engine makes process and pipe system calls: spawning the
/// cell host, writing commands, polling its output, signalling and reaping it.
///
/// Thread rules: one thread (the shell thread) writes commands and polls; `signal`
/// may be called from any thread.
final class HostProcess: @unchecked Sendable {
    /// A descriptor the host writes to, and what it carries.
    enum Channel: CaseIterable { case stdout, stderr, events }

    let pid: pid_t
    private let commandDescriptor: Int32
    private let standardInputDescriptor: Int32
    private let readDescriptors: [Channel: Int32]
    private var exited = false
    private var exitStatus: Int32 = 0

    /// Starts the host with descriptors 3 (commands) and 4 (events).
    /// - Throws: ``EngineError/hostStartFailed(_:)``.
    init(executable: URL) throws {
        func pipePair() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw EngineError.hostStartFailed("pipe: \(String(cString: strerror(errno)))") }
            return (fds[0], fds[1])
        }
        let command = try pipePair(), events = try pipePair(), out = try pipePair(), err = try pipePair()
        let input = try pipePair()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        posix_spawn_file_actions_adddup2(&actions, command.read, 3)
        posix_spawn_file_actions_adddup2(&actions, events.write, 4)
        for fd in [command.read, command.write, events.read, events.write, out.read, out.write, err.read, err.write, input.read, input.write] {
            posix_spawn_file_actions_addclose(&actions, fd)
        }

        var environment = ProcessInfo.processInfo.environment
        environment["BENCHBOOK_COMMAND_FD"] = "3"
        environment["BENCHBOOK_EVENT_FD"] = "4"
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let environmentStrings = environment.map { "\($0.key)=\($0.value)" }
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = environmentStrings.map { strdup($0) } + [nil]
        var cArguments: [UnsafeMutablePointer<CChar>?] = [strdup(executable.path), nil]
        defer {
            cEnvironment.forEach { free($0) }
            cArguments.forEach { free($0) }
        }
        // The spawning thread may be a dispatch worker, which blocks every signal; the
        // host must start with none blocked so SIGINT reaches the interrupt handler.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var child: pid_t = 0
        let result = posix_spawn(&child, executable.path, &actions, &attributes, &cArguments, &cEnvironment)
        for fd in [command.read, events.write, out.write, err.write, input.read] { close(fd) }
        guard result == 0 else {
            for fd in [command.write, events.read, out.read, err.read, input.write] { close(fd) }
            throw EngineError.hostStartFailed("\(executable.path): \(String(cString: strerror(result)))")
        }
        // Standard input stays open and empty: `readLine()` in a cell waits; `input(_:)`
        // is the way to ask the user.
        standardInputDescriptor = input.write
        pid = child
        commandDescriptor = command.write
        readDescriptors = [.stdout: out.read, .stderr: err.read, .events: events.read]
        for fd in readDescriptors.values { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        Glibc.signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        terminate()
        close(commandDescriptor)
        close(standardInputDescriptor)
        readDescriptors.values.forEach { close($0) }
    }

    /// Writes one command line.
    /// - Returns: false when the host is gone.
    @discardableResult
    func send(_ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(commandDescriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Waits up to `milliseconds` for output and returns what could be read, standard
    /// output and error first so text printed before a display comes before it.
    /// - Returns: the chunks read, and whether every pipe is closed (the host is gone).
    func poll(milliseconds: Int32) -> (chunks: [(Channel, [UInt8])], closed: Bool) {
        let order: [Channel] = [.stdout, .stderr, .events]
        var fds = order.map { pollfd(fd: readDescriptors[$0]!, events: Int16(POLLIN), revents: 0) }
        let ready = Glibc.poll(&fds, nfds_t(fds.count), milliseconds)
        if ready <= 0 { return ([], false) }
        var chunks: [(Channel, [UInt8])] = []
        var closedCount = 0
        for (index, channel) in order.enumerated() where fds[index].revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 65536)
            var collected: [UInt8] = []
            while true {
                let count = read(fds[index].fd, &buffer, buffer.count)
                if count > 0 { collected += buffer[0..<count]; continue }
                if count == 0 { closedCount += 1 }
                break
            }
            if !collected.isEmpty { chunks.append((channel, collected)) }
        }
        return (chunks, closedCount > 0 && !isAlive())
    }

    /// Sends a signal (SIGINT for an interrupt, SIGKILL to stop it).
    func signal(_ number: Int32) { kill(pid, number) }

    /// True while the process has not exited.
    func isAlive() -> Bool {
        if exited { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            exited = true
            exitStatus = status
            return false
        }
        return result == 0
    }

    /// How the process ended, for messages: "signal 4 (Illegal instruction)" or "exit status 1".
    var exitDescription: String {
        let signalNumber = exitStatus & 0x7f
        if signalNumber != 0 { return "signal \(signalNumber) (\(String(cString: strsignal(signalNumber))))" }
        return "exit status \((exitStatus >> 8) & 0xff)"
    }

    /// Kills the process and waits for it.
    func terminate() {
        guard !exited else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        exited = true
        exitStatus = status
    }
}
