internal import CSystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// A connected Unix socket that keeps message boundaries and can carry descriptors
/// (`SOCK_SEQPACKET`, `SCM_RIGHTS`): how a forked snapshot of the cell host and the kernel
/// find each other, and how a snapshot gets its new pipes when it becomes the host.
///
/// Not owning: whoever holds one closes it. The only place that calls `sendmsg`/`recvmsg`.
public struct MessageSocket: Hashable, Sendable {
    /// The socket's descriptor.
    public let descriptor: FileDescriptor

    /// Wraps a socket descriptor.
    public init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    /// A connected pair (both ends close on exec).
    /// - Throws: ``SystemError``.
    public static func pair() throws(SystemError) -> (MessageSocket, MessageSocket) {
        var ends: [Int32] = [0, 0]
        guard bb_seqpacket_pair(&ends) == 0 else { throw SystemError("socketpair") }
        return (MessageSocket(FileDescriptor(rawValue: ends[0])), MessageSocket(FileDescriptor(rawValue: ends[1])))
    }

    /// Sends one message with descriptors attached (at most 16).
    /// - Throws: ``SystemError`` (`EPIPE` when the peer is gone, `EINVAL` for more than 16
    ///   descriptors).
    public func send(_ bytes: [UInt8], descriptors: [FileDescriptor] = []) throws(SystemError) {
        let numbers = descriptors.map(\.rawValue)
        let sent = bytes.withUnsafeBytes { buffer in
            numbers.withUnsafeBufferPointer { fds in
                bb_send_with_fds(descriptor.rawValue, buffer.baseAddress, UInt(buffer.count), fds.baseAddress, Int32(fds.count))
            }
        }
        guard sent >= 0 else { throw SystemError("sendmsg") }
    }

    /// One received message.
    public struct Message: Sendable {
        /// Its bytes.
        public var bytes: [UInt8]
        /// The descriptors that came with it (now owned by the receiver).
        public var descriptors: [FileDescriptor]
    }

    /// Receives one message, waiting for it.
    /// - Parameter capacity: the longest message expected.
    /// - Returns: the message, or nil when the peer closed the socket (an empty message
    ///   without descriptors reads the same: this project's messages are never empty).
    /// - Throws: ``SystemError``: `EMSGSIZE` for a longer message or more than 16
    ///   descriptors (dropped whole, its descriptors closed).
    public func receive(capacity: Int = 65536) throws(SystemError) -> Message? {
        var bytes = [UInt8](repeating: 0, count: capacity)
        var fds = [Int32](repeating: -1, count: 16)
        var count: Int32 = 0
        let received = bytes.withUnsafeMutableBytes { buffer in
            fds.withUnsafeMutableBufferPointer { fdBuffer in
                bb_receive_with_fds(descriptor.rawValue, buffer.baseAddress, UInt(buffer.count), fdBuffer.baseAddress, 16, &count)
            }
        }
        guard received >= 0 else { throw SystemError("recvmsg") }
        let descriptors = fds.prefix(Int(count)).map(FileDescriptor.init(rawValue:))
        if received == 0 && descriptors.isEmpty { return nil }
        return Message(bytes: Array(bytes.prefix(received)), descriptors: descriptors)
    }
}
