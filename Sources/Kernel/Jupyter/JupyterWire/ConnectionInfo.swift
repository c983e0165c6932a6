internal import CConnectionFile
import Foundation

/// The connection file a Jupyter client writes before starting the kernel.
///
/// Read with `CConnectionFile`, the reader `benchbook-kernel-launcher` uses too, so the
/// launcher and the kernel cannot read one file two ways: strict JSON, a name written twice
/// refused (escaped or not), each error naming the field and what was wrong.
public struct ConnectionInfo: Sendable, Equatable {
    public var transport: String
    public var ip: String
    public var shellPort: Int
    public var controlPort: Int
    public var stdinPort: Int
    public var iopubPort: Int
    public var heartbeatPort: Int
    public var signatureScheme: String
    public var key: String
    /// The kernel's CurveZMQ public key (Z85, 40 characters), when the client asked for
    /// transport encryption (jupyter_client 8.9+ with `transport_encryption`).
    public var curvePublicKey: String?
    /// The kernel's CurveZMQ secret key (Z85, 40 characters); see ``curvePublicKey``.
    public var curveSecretKey: String?

    /// Reads a connection file. The kernel reads it once, at start; its keys are never
    /// written to a log or an error message.
    /// - Parameter path: the path passed to the kernel as `-f {connection_file}`.
    /// - Throws: ``ConnectionFileError`` when the file cannot be read or is not a usable
    ///   connection file; its description names the field and what was wrong.
    public init(contentsOf path: String) throws(ConnectionFileError) {
        var file = bb_connection_file()
        defer { bb_connection_file_free(&file) }
        guard bb_connection_file_read(path, &file) == 0 else { throw .invalid(path: path, reason: Self.error(of: file)) }
        self.init(file)
    }

    /// Reads connection-file text (tests, and files that are not on disk).
    /// - Parameter text: the file's bytes.
    /// - Throws: ``ConnectionFileError/invalid(path:reason:)`` with the path `<text>`.
    public init(text: some Collection<UInt8>) throws(ConnectionFileError) {
        var file = bb_connection_file()
        defer { bb_connection_file_free(&file) }
        let bytes = Array(text)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { bb_connection_file_parse($0.baseAddress, $0.count, &file) }
        }
        guard status == 0 else { throw .invalid(path: "<text>", reason: Self.error(of: file)) }
        self.init(file)
    }

    /// The fields of a file the C reader accepted.
    private init(_ file: bb_connection_file) {
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        transport = text(file.transport) ?? "tcp"
        ip = text(file.ip) ?? "127.0.0.1"
        key = text(file.key) ?? ""
        signatureScheme = text(file.signature_scheme) ?? "hmac-sha256"
        curvePublicKey = text(file.curve_publickey)
        curveSecretKey = text(file.curve_secretkey)
        let ports = withUnsafeBytes(of: file.ports) { Array($0.bindMemory(to: Int.self)) }
        (shellPort, controlPort, stdinPort, iopubPort, heartbeatPort) = (ports[0], ports[1], ports[2], ports[3], ports[4])
    }

    private static func error(of file: bb_connection_file) -> String {
        withUnsafeBytes(of: file.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Every port with its field name.
    var ports: KeyValuePairs<String, Int> {
        ["shell_port": shellPort, "control_port": controlPort, "stdin_port": stdinPort,
         "iopub_port": iopubPort, "hb_port": heartbeatPort]
    }

    /// True when `ip` is an IPv6 address (TCP): the sockets must be made IPv6 sockets
    /// (`ZMQ_IPV6`), which take IPv4 connections too.
    public var isIPv6: Bool { transport == "tcp" && ip.contains(":") }

    /// The ZeroMQ endpoint of a port: `tcp://ip:port`, or `ipc://ip-port` for ipc. An IPv6
    /// address is written in brackets (`tcp://[::1]:5555`); `localhost` is the IPv4 loopback,
    /// `127.0.0.1`, as jupyter_client's own `localhost()` (ZeroMQ binds addresses and
    /// interface names, and does not resolve host names).
    public func endpoint(port: Int) -> String {
        if transport == "ipc" { return "ipc://\(ip)-\(port)" }
        let host = ip == "localhost" ? "127.0.0.1" : isIPv6 && !ip.hasPrefix("[") ? "[\(ip)]" : ip
        return "tcp://\(host):\(port)"
    }
}

/// Why a connection file could not be used. The description names the file and the
/// field, never a value of its keys (the file holds the signing and encryption keys).
public enum ConnectionFileError: Error, CustomStringConvertible, Equatable {
    /// The file cannot be read, or is not a usable connection file; `reason` says which
    /// field and what was wrong (from the shared reader).
    case invalid(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalid(let path, let reason):
            "the connection file \(path) is not usable: \(reason)"
        }
    }
}
