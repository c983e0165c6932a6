#if canImport(Glibc)
import Glibc
#endif

/// Directories only their owner may read, and what tells whether another process still
/// uses one: an exclusive `flock` on a file inside it.
public enum PrivateDirectory {
    /// Creates a new directory with mode 0700 named `prefix` followed by six random
    /// characters (`mkdtemp`), in `parent`.
    /// - Parameters:
    ///   - parent: an existing directory.
    ///   - prefix: the start of the new directory's name.
    /// - Returns: the new directory's path.
    /// - Throws: ``SystemError`` when it cannot be created.
    public static func make(in parent: String, prefix: String) throws(SystemError) -> String {
        var template = Array("\(parent)/\(prefix)XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp in \(parent)") }
        return String(cString: made)
    }

    /// The owner of `path` when it is a directory itself (not a link to one), else nil.
    /// - Parameter path: the path to look at.
    public static func owner(ofDirectory path: String) -> UInt32? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return info.st_uid
    }
}

extension FileDescriptor {
    /// Opens a lock file for reading and writing (closes on `exec`, never follows a link),
    /// creating it with mode 0600 when `create` is true.
    /// - Parameters:
    ///   - path: the file.
    ///   - create: create it when missing.
    /// - Throws: ``SystemError`` (`ENOENT` when it is missing and `create` is false).
    public static func openLockFile(_ path: String, create: Bool) throws(SystemError) -> FileDescriptor {
        let flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0)
        let fd = Glibc.open(path, flags, 0o600)
        guard fd >= 0 else { throw SystemError("open \(path)") }
        return FileDescriptor(rawValue: fd)
    }

    /// Takes an exclusive `flock` on the file without waiting. The system releases it when
    /// every copy of the descriptor is closed, however the process ends.
    /// - Returns: true when taken, false when another open file description holds it.
    /// - Throws: ``SystemError`` for errors other than the lock being held.
    public func lockExclusively() throws(SystemError) -> Bool {
        while flock(rawValue, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK: return false
            default: throw SystemError("flock")
            }
        }
        return true
    }
}
