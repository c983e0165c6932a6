internal import CSystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// Listening TCP sockets (IPv4 or IPv6) that `benchbook-kernel-launcher` bound before it became this
/// process, so that a client connecting at once is never refused (see the launcher).
///
/// The launcher names them in `BENCHBOOK_LISTENING_SOCKETS` as `<port>:<fd>,...`, the format
/// both read from one definition (CSystemSupport's `listening_sockets.h`).
/// ``take()`` reads that once, removes it from the environment, and keeps only
/// descriptors that are listening TCP sockets on the port named; it makes those
/// close-on-exec (the cell host and the compiler must not hold the kernel's ports) and
/// non-blocking (as ZeroMQ's own listeners are).
public enum InheritedListeners {
    /// The environment variable the launcher sets.
    public static let environmentName = BB_LISTENING_SOCKETS_VARIABLE
    /// Between two items (`,`).
    static let itemSeparator = Character(BB_LISTENING_SOCKETS_SEPARATOR)
    /// Between an item's port and its descriptor (`:`).
    static let portSeparator = Character(BB_LISTENING_SOCKETS_PORT_SEPARATOR)

    /// The inherited listening sockets by port; empty when there are none.
    ///
    /// Thread rules: call it once, on the main thread, before other threads start.
    public static func take() -> [Int: Int32] {
        guard let value = getenv(environmentName) else { return [:] }
        let text = String(cString: value)
        unsetenv(environmentName)
        var sockets: [Int: Int32] = [:]
        for item in text.split(separator: itemSeparator) {
            let parts = item.split(separator: portSeparator)
            guard parts.count == 2, let port = Int(parts[0]), let fd = Int32(parts[1]), fd > 2,
                  isListening(fd, onPort: port) else { continue }
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            sockets[port] = fd
        }
        return sockets
    }

    /// True when `fd` is a listening TCP socket (IPv4 or IPv6) bound to `port`.
    static func isListening(_ fd: Int32, onPort port: Int) -> Bool {
        var accepting: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &size) == 0, accepting == 1 else { return false }
        var address = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return false }
        // sin_port and sin6_port are at the same offset, after the family.
        let family = Int32(address.sin6_family)
        return (family == AF_INET || family == AF_INET6) && Int(UInt16(bigEndian: address.sin6_port)) == port
    }
}
