import Foundation

/// The connection file a Jupyter client writes before starting the kernel.
public struct ConnectionInfo: Sendable, Decodable {
    public var transport: String
    public var ip: String
    public var shellPort: Int
    public var controlPort: Int
    public var stdinPort: Int
    public var iopubPort: Int
    public var heartbeatPort: Int
    public var signatureScheme: String
    public var key: String

    enum CodingKeys: String, CodingKey {
        case transport, ip, key
        case shellPort = "shell_port", controlPort = "control_port", stdinPort = "stdin_port"
        case iopubPort = "iopub_port", heartbeatPort = "hb_port", signatureScheme = "signature_scheme"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transport = try c.decodeIfPresent(String.self, forKey: .transport) ?? "tcp"
        ip = try c.decodeIfPresent(String.self, forKey: .ip) ?? "127.0.0.1"
        shellPort = try c.decode(Int.self, forKey: .shellPort)
        controlPort = try c.decode(Int.self, forKey: .controlPort)
        stdinPort = try c.decode(Int.self, forKey: .stdinPort)
        iopubPort = try c.decode(Int.self, forKey: .iopubPort)
        heartbeatPort = try c.decode(Int.self, forKey: .heartbeatPort)
        signatureScheme = try c.decodeIfPresent(String.self, forKey: .signatureScheme) ?? "hmac-sha256"
        key = try c.decodeIfPresent(String.self, forKey: .key) ?? ""
    }

    /// Reads a connection file.
    /// - Parameter path: the path passed to the kernel as `-f {connection_file}`.
    /// - Throws: a Foundation error when the file is missing or not valid JSON.
    public init(contentsOf path: String) throws {
        self = try JSONDecoder().decode(ConnectionInfo.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The ZeroMQ endpoint of a port: `tcp://ip:port`, or `ipc://ip-port` for ipc.
    public func endpoint(port: Int) -> String {
        transport == "ipc" ? "ipc://\(ip)-\(port)" : "\(transport)://\(ip):\(port)"
    }
}
