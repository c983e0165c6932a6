import Foundation
import SystemSupport

/// A kernel's private directory for its generated cell sources, modules and libraries:
/// `<tmp>/benchbook-<pid>-<random>`, created with mode 0700 so no other local user (on a
/// shared JupyterHub machine, no other student) can read the cells.
///
/// The directory is removed when the kernel exits normally (``removeAtExit()``) or stops
/// on purpose (``remove()``). A kernel that was killed cannot remove it, so every kernel
/// sweeps, at start, the directories of kernels that are gone (``sweepStale(in:)``).
///
/// Liveness: while the process lives it holds an exclusive `flock` on `.lock` inside the
/// directory (not inherited by the cell host or the compiler), released by the system
/// however the process ends; the pid in the name is a second check.
///
/// Thread rules: `remove` may be called from any thread, more than once.
public final class WorkDirectory: @unchecked Sendable {
    /// The name prefix of every kernel work directory.
    public static let prefix = "benchbook-"
    /// The directory.
    public let url: URL
    private let lockFile: FileDescriptor
    private let lock = NSLock()
    private var removed = false

    /// Creates a new private directory (mode 0700, a fresh random name) and locks it.
    /// - Parameter parent: where to create it; the system's temporary directory
    ///   (`TMPDIR`, else `/tmp`) by default.
    /// - Throws: ``WorkDirectoryError`` when the directory cannot be made or locked.
    public init(in parent: URL = FileManager.default.temporaryDirectory) throws(WorkDirectoryError) {
        let path: String
        do { path = try PrivateDirectory.make(in: parent.path, prefix: "\(Self.prefix)\(CurrentProcess.id)-") } catch {
            throw .cannotCreate(parent.path, error)
        }
        url = URL(fileURLWithPath: path, isDirectory: true)
        do {
            lockFile = try FileDescriptor.openLockFile(url.appendingPathComponent(".lock").path, create: true)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw .cannotLock(path, error)
        }
        let locked: Bool
        do { locked = try lockFile.lockExclusively() } catch {
            lockFile.close()
            try? FileManager.default.removeItem(at: url)
            throw .cannotLock(path, error)
        }
        guard locked else {
            lockFile.close()
            try? FileManager.default.removeItem(at: url)
            throw .cannotLock(path, SystemError("flock", code: EWOULDBLOCK))
        }
    }

    deinit { lockFile.close() }

    /// Removes the directory and everything in it.
    public func remove() {
        lock.lock()
        defer { lock.unlock() }
        guard !removed else { return }
        removed = true
        // A thread still writing here (the compiler's warm-up when the kernel is stopped as
        // it starts) can add a file while the tree is removed, and the last step then
        // fails: try again while the directory is there (seen 1 stop in 50 under load).
        for attempt in 0..<5 {
            try? FileManager.default.removeItem(at: url)
            guard FileManager.default.fileExists(atPath: url.path) else { return }
            Thread.sleep(forTimeInterval: 0.01 * Double(attempt + 1))
        }
    }

    /// Removes the directory when the process calls `exit` (a normal end or a shutdown
    /// request); a signal that kills the process leaves it to the next kernel's sweep.
    public func removeAtExit() {
        WorkDirectory.exitLock.lock()
        defer { WorkDirectory.exitLock.unlock() }
        if WorkDirectory.atExit.isEmpty { atexit { WorkDirectory.removeAllAtExit() } }
        WorkDirectory.atExit.append(self)
    }

    private static let exitLock = NSLock()
    nonisolated(unsafe) private static var atExit: [WorkDirectory] = []

    private static func removeAllAtExit() {
        exitLock.lock()
        let directories = atExit
        exitLock.unlock()
        directories.forEach { $0.remove() }
    }

    /// Removes the work directories in `parent` left by kernels that are gone: named
    /// `benchbook-<pid>-<id>`, a real directory (not a link) owned by this user, whose
    /// process does not exist and whose `.lock` (when there is one) nobody holds.
    /// Anything else is left alone.
    /// - Parameter parent: the temporary directory to sweep.
    /// - Returns: the directories removed.
    @discardableResult
    public static func sweepStale(in parent: URL = FileManager.default.temporaryDirectory) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        var swept: [URL] = []
        for name in names {
            guard let pid = ownerPID(ofDirectoryNamed: name), pid != CurrentProcess.id else { continue }
            let candidate = parent.appendingPathComponent(name, isDirectory: true)
            guard PrivateDirectory.owner(ofDirectory: candidate.path) == CurrentProcess.userID,
                  !CurrentProcess.processExists(pid) else { continue }
            let lockPath = candidate.appendingPathComponent(".lock").path
            if let lockFile = try? FileDescriptor.openLockFile(lockPath, create: false) {
                defer { lockFile.close() }
                // Held (or unknowable): a live kernel in another pid namespace sharing this directory.
                guard (try? lockFile.lockExclusively()) == true else { continue }
            }
            if (try? FileManager.default.removeItem(at: candidate)) != nil { swept.append(candidate) }
        }
        return swept
    }

    /// The pid in a name of the form `benchbook-<pid>-<id>` (id: letters and digits), or nil.
    static func ownerPID(ofDirectoryNamed name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
              parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }
}

/// Why a kernel work directory could not be made.
public enum WorkDirectoryError: Error, CustomStringConvertible {
    /// The directory could not be created in this parent directory.
    case cannotCreate(String, SystemError)
    /// The lock file in this directory could not be created or locked.
    case cannotLock(String, SystemError)

    public var description: String {
        switch self {
        case .cannotCreate(let parent, let error):
            "cannot create the kernel's cell directory in \(parent): \(error.message); set TMPDIR to a writable directory"
        case .cannotLock(let path, let error):
            "cannot lock the kernel's cell directory \(path): \(error.message); check that TMPDIR is a local file system"
        }
    }
}
