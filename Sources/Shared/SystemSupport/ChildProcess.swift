internal import CSystemSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, signalled through a pidfd and reaped once.
///
/// The only place in the project that starts, signals and reaps processes. The child gets
/// exactly the descriptors listed in its configuration (everything else is closed), an
/// empty signal mask and default signal dispositions, whatever the spawning thread had
/// (dispatch threads block every signal; the kernel ignores SIGINT and SIGPIPE).
///
/// Thread rules: ``signal(_:)`` may be called from any thread at any time, even after the
/// child was reaped (a pidfd never reaches a process that reused the number). Reaping
/// (``waitForExit()``, ``exitStatusIfExited()``) is done by one thread, the owner.
/// Starting, adopting and reaping a child, and ``Subreaper``'s sweep of orphans, happen
/// under one process-wide lock (``registry``), so the sweep never sees a child of ours
/// that is not registered yet or already reaped but still registered.
public final class ChildProcess: @unchecked Sendable {
    /// What to start and how.
    public struct Configuration: Sendable {
        /// The program's absolute path.
        public var executable: String
        /// The arguments after the program name.
        public var arguments: [String]
        /// The environment; nil inherits this process's.
        public var environment: [String: String]?
        /// Descriptor numbers in the child and the descriptors of this process they are
        /// copies of. Standard input, output and error not listed read from and write to
        /// `/dev/null`; every other descriptor is closed in the child.
        public var descriptors: [Int32: FileDescriptor]
        /// Limits applied right after the program starts (`prlimit`).
        public var limits: ResourceLimits
        /// Start a new process group, so ``signalGroup(_:)`` reaches what the child starts.
        public var newProcessGroup: Bool

        /// Creates a configuration.
        public init(executable: String, arguments: [String] = [], environment: [String: String]? = nil,
                    descriptors: [Int32: FileDescriptor] = [:], limits: ResourceLimits = .none,
                    newProcessGroup: Bool = false) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.descriptors = descriptors
            self.limits = limits
            self.newProcessGroup = newProcessGroup
        }
    }

    /// The process id.
    public let pid: Int32
    /// Every child a ``ChildProcess`` will reap. Held while a child is started (until it is
    /// registered), while one is reaped (until it is forgotten) and by ``Subreaper``.
    static let registry = Mutex<Set<Int32>>([])
    /// Readable once the process has exited (a pidfd), for `poll`.
    public let exitNotification: FileDescriptor
    private let inGroup: Bool
    private let reaped = Mutex<ExitStatus?>(nil)

    /// Starts the program.
    /// - Parameter configuration: what to start.
    /// - Throws: ``SystemError`` when it cannot be started (missing program, no memory).
    public init(_ configuration: Configuration) throws(SystemError) {
        var configuration = configuration
        let null = try FileDescriptor.openNull()
        defer { null.close() }
        for standard: Int32 in 0...2 where configuration.descriptors[standard] == nil {
            configuration.descriptors[standard] = null
        }
        // Copies numbered above every target, so no dup2 overwrites a source it still needs.
        let highest = configuration.descriptors.keys.max() ?? 2
        var sources: [(target: Int32, copy: FileDescriptor)] = []
        defer { sources.forEach { $0.copy.close() } }
        for (target, source) in configuration.descriptors.sorted(by: { $0.key < $1.key }) {
            sources.append((target, try source.duplicate(atLeast: highest + 1)))
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, copy) in sources { posix_spawn_file_actions_adddup2(&actions, copy.rawValue, target) }
        bb_spawn_add_closefrom(&actions, highest + 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGPIPE, SIGTERM, SIGQUIT, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if configuration.newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argumentStrings = [configuration.executable] + configuration.arguments
        let environmentStrings = configuration.environment.map { $0.map { "\($0.key)=\($0.value)" } }
        var cArguments: [UnsafeMutablePointer<CChar>?] = argumentStrings.map { strdup($0) } + [nil]
        var cEnvironment: [UnsafeMutablePointer<CChar>?]? = environmentStrings.map { $0.map { strdup($0) } + [nil] }
        defer {
            cArguments.forEach { free($0) }
            cEnvironment?.forEach { free($0) }
        }
        // Started and registered in one step: a child that exits at once is never taken
        // for an orphan and reaped behind this object's back.
        let (result, child, pidfd) = Self.registry.withLock { registry -> (Int32, Int32, Int32) in
            var child: Int32 = 0
            let result: Int32
            if cEnvironment != nil {
                result = posix_spawn(&child, configuration.executable, &actions, &attributes, &cArguments, &cEnvironment!)
            } else {
                result = posix_spawn(&child, configuration.executable, &actions, &attributes, &cArguments, environ)
            }
            guard result == 0 else { return (result, 0, -1) }
            registry.insert(child)
            return (result, child, bb_pidfd_open(child))
        }
        guard result == 0 else { throw SystemError("posix_spawn \(configuration.executable)", code: result) }

        pid = child
        inGroup = configuration.newProcessGroup
        exitNotification = FileDescriptor(rawValue: pidfd)
        if pidfd < 0 {
            let error = SystemError("pidfd_open")
            Glibc.kill(child, SIGKILL)
            Self.registry.withLock { registry in
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0, errno == EINTR {}
                registry.remove(child)
            }
            throw error
        }
        exitNotification.setCloseOnExec()
        do { try configuration.limits.apply(to: child) } catch {
            _ = bb_pidfd_send_signal(pidfd, SIGKILL)
            _ = waitForExit()
            throw error
        }
    }

    /// Takes charge of a child this process already started some other way (a `fork` in
    /// C code), or adopted as the subreaper: it is signalled and reaped through this object
    /// from now on.
    /// - Parameters:
    ///   - pid: the child's process id.
    ///   - leadsGroup: true when the child made itself the leader of a process group
    ///     (``signalGroup(_:)`` then reaches that group).
    /// - Throws: ``SystemError`` when there is no such process.
    public init(adopting pid: Int32, leadsGroup: Bool = false) throws(SystemError) {
        let pidfd = Self.registry.withLock { registry in
            let pidfd = bb_pidfd_open(pid)
            if pidfd >= 0 { registry.insert(pid) }
            return pidfd
        }
        guard pidfd >= 0 else { throw SystemError("pidfd_open \(pid)") }
        self.pid = pid
        inGroup = leadsGroup
        exitNotification = FileDescriptor(rawValue: pidfd)
        exitNotification.setCloseOnExec()
    }

    deinit {
        if exitStatusIfExited() == nil {
            signal(SIGKILL)
            _ = waitForExit()
        }
        exitNotification.close()
    }

    /// Sends a signal; does nothing once the process is gone.
    /// - Parameter number: for example `SIGINT` or `SIGKILL`.
    public func signal(_ number: Int32) {
        _ = bb_pidfd_send_signal(exitNotification.rawValue, number)
    }

    /// Sends a signal to the child's process group (what it started too), when it was
    /// started in its own group and has not been reaped; otherwise to the child alone.
    /// - Parameter number: the signal.
    public func signalGroup(_ number: Int32) {
        reaped.withLock { status in
            // The group id is the child's pid, which cannot be reused before it is reaped.
            if inGroup, status == nil { Glibc.kill(-pid, number) } else { signal(number) }
        }
    }

    /// The processor time the process has used so far (user and system, all its threads),
    /// in seconds, or nil once it is gone. Unlike wall time, it does not grow while other
    /// processes have the processors.
    public var processorSeconds: Double? {
        var clock = clockid_t()
        guard clock_getcpuclockid(pid, &clock) == 0 else { return nil }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Waits until the process exits and reaps it.
    /// - Returns: how it ended.
    public func waitForExit() -> ExitStatus {
        while true {
            if let status = exitStatusIfExited() { return status }
            // Readable once the child has exited; it is reaped above, under the lock.
            _ = try? FileDescriptor.poll([exitNotification], timeout: -1)
        }
    }

    /// Waits until the process exits or `seconds` pass.
    /// - Returns: how it ended, or nil when it is still running at the deadline.
    public func waitForExit(timeout seconds: Double) -> ExitStatus? {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while true {
            if let status = exitStatusIfExited() { return status }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            _ = try? FileDescriptor.poll([exitNotification], timeout: Int32(clamping: max(1, milliseconds)))
        }
    }

    /// Reaps the process if it has exited.
    /// - Returns: how it ended, or nil while it runs.
    public func exitStatusIfExited() -> ExitStatus? {
        if let known = reaped.withLock({ $0 }) { return known }
        // Reaped and forgotten in one step (see ``registry``); `reaped` is set in the same
        // step, so ``signalGroup(_:)`` never signals a group whose id was freed.
        return Self.registry.withLock { registry in
            reaped.withLock { known -> ExitStatus? in
                if let known { return known }
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid {
                    known = ExitStatus(waitStatus: status)
                } else if result < 0, errno == ECHILD {
                    known = .exited(code: -1)  // not a child of ours (cannot happen while registered)
                } else {
                    return nil
                }
                registry.remove(pid)
                return known
            }
        }
    }

    /// Kills the process (and its group, when it has one) and reaps it.
    /// - Returns: how it ended (SIGKILL unless it had exited already).
    @discardableResult
    public func kill() -> ExitStatus {
        signalGroup(SIGKILL)
        return waitForExit()
    }
}
