internal import CZeroMQ
import Foundation

/// An error from libzmq, with the operation that failed.
public struct ZeroMQError: Error, CustomStringConvertible {
    /// The libzmq call that failed, for example `zmq_bind(tcp://127.0.0.1:5555)`.
    public var operation: String
    /// The C `errno` value.
    public var code: Int32

    public var description: String {
        "\(operation) failed: \(String(cString: zmq_strerror(code))) (errno \(code)). "
            + "Check that the address is free and the connection file is correct."
    }

    static func last(_ operation: String) -> ZeroMQError {
        ZeroMQError(operation: operation, code: zmq_errno())
    }
}

/// A ZeroMQ context. Owns the C context and terminates it in `deinit`.
///
/// Thread rules: a context may be shared by all threads; sockets may not.
public final class ZeroMQContext: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// Creates a context.
    /// - Throws: ``ZeroMQError`` when libzmq cannot create one.
    public init() throws {
        guard let handle = zmq_ctx_new() else { throw ZeroMQError.last("zmq_ctx_new") }
        self.handle = handle
    }

    deinit { zmq_ctx_term(handle) }
}

/// The kinds of socket a Jupyter kernel binds (router, publisher, reply), and the
/// client kinds tests connect with (dealer, subscriber).
public enum ZeroMQSocketKind: Sendable {
    case router, publisher, reply, dealer, subscriber

    var rawValue: Int32 {
        switch self {
        case .router: ZMQ_ROUTER
        case .publisher: ZMQ_PUB
        case .reply: ZMQ_REP
        case .dealer: ZMQ_DEALER
        case .subscriber: ZMQ_SUB
        }
    }
}

/// A ZeroMQ socket that owns its C socket and closes it in `deinit`.
///
/// Thread rules: a socket is used by one thread at a time. Sockets shared between
/// threads (iopub) are guarded by the caller with a lock.
public final class ZeroMQSocket: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    private let context: ZeroMQContext

    /// Creates a socket in a context.
    /// - Throws: ``ZeroMQError``.
    public init(_ kind: ZeroMQSocketKind, context: ZeroMQContext) throws {
        guard let handle = zmq_socket(context.handle, kind.rawValue) else {
            throw ZeroMQError.last("zmq_socket")
        }
        self.handle = handle
        self.context = context
        var linger: Int32 = 1000
        zmq_setsockopt(handle, ZMQ_LINGER, &linger, MemoryLayout<Int32>.size)
    }

    deinit { zmq_close(handle) }

    /// Makes the socket an IPv6 socket (it then takes IPv4 connections too), for an IPv6
    /// address in a connection file. Call before ``bind(_:listening:)``.
    /// - Throws: ``ZeroMQError``.
    public func enableIPv6() throws {
        var on: Int32 = 1
        guard zmq_setsockopt(handle, ZMQ_IPV6, &on, MemoryLayout<Int32>.size) == 0 else {
            throw ZeroMQError.last("zmq_setsockopt(ZMQ_IPV6)")
        }
    }

    /// Binds to an endpoint such as `tcp://127.0.0.1:5555` or `ipc:///tmp/kernel-1`.
    /// - Parameters:
    ///   - endpoint: the address.
    ///   - listening: a socket already listening on that address (inherited from
    ///     `benchbook-kernel-launcher`), used instead of a new one (`ZMQ_USE_FD`).
    /// - Throws: ``ZeroMQError`` when the address is in use or invalid.
    public func bind(_ endpoint: String, listening: Int32? = nil) throws {
        if var descriptor = listening {
            guard zmq_setsockopt(handle, ZMQ_USE_FD, &descriptor, MemoryLayout<Int32>.size) == 0 else {
                throw ZeroMQError.last("zmq_setsockopt(ZMQ_USE_FD)")
            }
        }
        guard zmq_bind(handle, endpoint) == 0 else { throw ZeroMQError.last("zmq_bind(\(endpoint))") }
    }

    /// Connects to an endpoint (used by tests acting as a client).
    /// - Throws: ``ZeroMQError``.
    public func connect(_ endpoint: String) throws {
        guard zmq_connect(handle, endpoint) == 0 else { throw ZeroMQError.last("zmq_connect(\(endpoint))") }
    }

    /// Sends all frames of one multipart message.
    /// - Throws: ``ZeroMQError`` when a frame cannot be queued.
    public func send(_ frames: [Data]) throws {
        for (index, frame) in frames.enumerated() {
            let flags = index == frames.count - 1 ? 0 : ZMQ_SNDMORE
            let result = frame.withUnsafeBytes { buffer in
                zmq_send(handle, buffer.baseAddress, buffer.count, flags)
            }
            if result < 0 { throw ZeroMQError.last("zmq_send") }
        }
    }

    /// Receives all frames of one multipart message, blocking until one arrives.
    /// - Throws: ``ZeroMQError`` (for example when the context is terminated).
    public func receive() throws -> [Data] {
        var frames: [Data] = []
        while true {
            var message = zmq_msg_t()
            zmq_msg_init(&message)
            defer { zmq_msg_close(&message) }
            while zmq_msg_recv(&message, handle, 0) < 0 {
                if zmq_errno() == EINTR { continue }
                throw ZeroMQError.last("zmq_msg_recv")
            }
            let size = zmq_msg_size(&message)
            frames.append(size == 0 ? Data() : Data(bytes: zmq_msg_data(&message), count: size))
            if zmq_msg_more(&message) == 0 { return frames }
        }
    }

    /// Waits until a message can be received.
    /// - Parameter milliseconds: how long to wait; -1 waits forever.
    /// - Returns: true when a message is ready.
    public func waitForInput(milliseconds: Int) -> Bool {
        var item = zmq_pollitem_t(socket: handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)
        while true {
            let result = zmq_poll(&item, 1, milliseconds)
            if result < 0, zmq_errno() == EINTR { continue }
            return result > 0 && (item.revents & Int16(ZMQ_POLLIN)) != 0
        }
    }

    /// Waits until a message can be received or a file descriptor can be read.
    /// - Parameters:
    ///   - descriptor: a descriptor to watch beside the socket (a pipe another thread writes
    ///     to, to wake this one).
    ///   - milliseconds: how long to wait; -1 waits forever.
    /// - Returns: which of the two is ready.
    public func waitForInput(orReadable descriptor: Int32, milliseconds: Int) -> (message: Bool, descriptor: Bool) {
        var items = [zmq_pollitem_t(socket: handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0),
                     zmq_pollitem_t(socket: nil, fd: descriptor, events: Int16(ZMQ_POLLIN), revents: 0)]
        while true {
            let result = zmq_poll(&items, 2, milliseconds)
            if result < 0, zmq_errno() == EINTR { continue }
            guard result > 0 else { return (false, false) }
            return ((items[0].revents & Int16(ZMQ_POLLIN)) != 0, (items[1].revents & Int16(ZMQ_POLLIN)) != 0)
        }
    }

    /// Forwards every message back to its sender until the context ends (the heartbeat).
    public func echoForever() {
        while let frames = try? receive() {
            try? send(frames)
        }
    }
}

/// The libzmq version, for the kernel banner.
public var zeroMQVersion: String {
    var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
    zmq_version(&major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
}
