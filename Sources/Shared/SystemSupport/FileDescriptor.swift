internal import CSystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor number with the read, write and poll loops the project needs.
///
/// Not owning: whoever creates a descriptor closes it (the types that hold one close it
/// in `deinit`). Every loop here retries on `EINTR`. The only place in the project that
/// calls `read`, `write`, `pipe`, `poll` and `fcntl`.
public struct FileDescriptor: Hashable, Sendable {
    /// The descriptor number.
    public let rawValue: Int32

    /// Wraps a descriptor number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Creates a pipe whose two ends close on `exec`.
    /// - Returns: the read end and the write end.
    /// - Throws: ``SystemError``.
    public static func pipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        guard bb_pipe_cloexec(&ends) == 0 else { throw SystemError("pipe") }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// Opens `/dev/null` for reading and writing (closes on `exec`).
    /// - Throws: ``SystemError``.
    public static func openNull() throws(SystemError) -> FileDescriptor {
        let fd = Glibc.open("/dev/null", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open /dev/null") }
        return FileDescriptor(rawValue: fd)
    }

    /// Opens a file for reading (closes on `exec`).
    /// - Throws: ``SystemError``.
    public static func open(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open \(path)") }
        return FileDescriptor(rawValue: fd)
    }

    /// Closes the descriptor, ignoring errors (there is nothing useful to do about them).
    public func close() { _ = Glibc.close(rawValue) }

    /// Makes reads and writes return `EAGAIN` instead of blocking.
    public func setNonBlocking() {
        let flags = fcntl(rawValue, F_GETFL)
        if flags >= 0 { _ = fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Marks the descriptor to close when this process executes another program.
    public func setCloseOnExec() {
        let flags = fcntl(rawValue, F_GETFD)
        if flags >= 0 { _ = fcntl(rawValue, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// A duplicate numbered at least `minimum`, closing on `exec`.
    /// - Throws: ``SystemError``.
    public func duplicate(atLeast minimum: Int32) throws(SystemError) -> FileDescriptor {
        let fd = fcntl(rawValue, F_DUPFD_CLOEXEC, minimum)
        guard fd >= 0 else { throw SystemError("fcntl F_DUPFD_CLOEXEC") }
        return FileDescriptor(rawValue: fd)
    }

    /// What one read returned.
    public enum ReadResult: Equatable, Sendable {
        /// Bytes were read.
        case bytes([UInt8])
        /// The other end is closed and everything was read.
        case endOfFile
        /// Nothing to read now (non-blocking descriptor).
        case wouldBlock
    }

    /// Reads once, up to `maximum` bytes.
    /// - Throws: ``SystemError`` for errors other than `EINTR` and `EAGAIN`.
    public func read(upTo maximum: Int = 65536) throws(SystemError) -> ReadResult {
        while true {
            // Read straight into the array that is returned: no zeroing, no copy.
            var count = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: maximum) { buffer, initialized in
                count = Glibc.read(rawValue, buffer.baseAddress, maximum)
                initialized = max(count, 0)
            }
            if count > 0 { return .bytes(bytes) }
            if count == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN: return .wouldBlock
            default: throw SystemError("read")
            }
        }
    }

    /// Reads exactly `count` bytes, blocking until they arrive.
    /// - Returns: the bytes; fewer when the other end closed after some of them; nil when
    ///   it closed before the first.
    /// - Throws: ``SystemError``.
    public func read(exactly count: Int) throws(SystemError) -> [UInt8]? {
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = result.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress! + filled, count - filled) }
            if got > 0 { filled += got; continue }
            if got == 0 { return filled == 0 ? nil : Array(result[0..<filled]) }
            if errno == EINTR { continue }
            throw SystemError("read")
        }
        return result
    }

    /// Reads until the other end closes.
    /// - Throws: ``SystemError``.
    public func readToEnd() throws(SystemError) -> [UInt8] {
        var collected: [UInt8] = []
        while true {
            switch try read() {
            case .bytes(let bytes): collected += bytes
            case .endOfFile: return collected
            case .wouldBlock: _ = try FileDescriptor.poll([self], timeout: -1)
            }
        }
    }

    /// Writes every byte, waiting when the pipe is full.
    /// - Throws: ``SystemError`` (`EPIPE` when the reader is gone; SIGPIPE must be ignored).
    public func write<Bytes: Collection<UInt8>>(all bytes: Bytes) throws(SystemError) {
        let data = Array(bytes)
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + offset, data.count - offset) }
            if written >= 0 { offset += written; continue }
            switch errno {
            case EINTR: continue
            case EAGAIN: _ = try FileDescriptor.poll([self], events: Int16(POLLOUT), timeout: -1)
            default: throw SystemError("write")
            }
        }
    }

    /// Waits until some of `descriptors` are ready.
    /// - Parameters:
    ///   - descriptors: the descriptors to watch.
    ///   - events: `POLLIN` (readable, the default) or `POLLOUT`.
    ///   - timeout: milliseconds; -1 waits for ever, 0 only looks.
    /// - Returns: the ready descriptors (readable also means closed or failed), in the
    ///   order given; empty on timeout.
    /// - Throws: ``SystemError``.
    public static func poll(_ descriptors: [FileDescriptor], events: Int16 = Int16(POLLIN),
                            timeout: Int32) throws(SystemError) -> [FileDescriptor] {
        var entries = descriptors.map { pollfd(fd: $0.rawValue, events: events, revents: 0) }
        while true {
            let ready = Glibc.poll(&entries, nfds_t(entries.count), timeout)
            if ready >= 0 { break }
            if errno != EINTR { throw SystemError("poll") }
        }
        return zip(descriptors, entries).filter { $0.1.revents != 0 }.map(\.0)
    }
}
