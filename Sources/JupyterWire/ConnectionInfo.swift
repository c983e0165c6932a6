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
    /// The kernel's CurveZMQ public key (Z85, 40 characters), when the client asked for
    /// transport encryption (jupyter_client 8.9+ with `transport_encryption`).
    public var curvePublicKey: String?
    /// The kernel's CurveZMQ secret key (Z85, 40 characters); see ``curvePublicKey``.
    public var curveSecretKey: String?

    enum CodingKeys: String, CodingKey {
        case transport, ip, key
        case curvePublicKey = "curve_publickey", curveSecretKey = "curve_secretkey"
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
        // Only an explicit "" means "no signing"; a null key is a broken file, not a choice.
        if c.contains(.key), try c.decodeNil(forKey: .key) {
            throw DecodingError.valueNotFound(String.self, .init(codingPath: [CodingKeys.key], debugDescription: "null"))
        }
        key = try c.decodeIfPresent(String.self, forKey: .key) ?? ""
        curvePublicKey = try c.decodeIfPresent(String.self, forKey: .curvePublicKey)
        curveSecretKey = try c.decodeIfPresent(String.self, forKey: .curveSecretKey)
    }

    /// Reads a connection file. The kernel reads it once, at start; its keys are never
    /// written to a log or an error message.
    /// - Parameter path: the path passed to the kernel as `-f {connection_file}`.
    /// - Throws: ``ConnectionFileError`` when the file is missing or not a connection file.
    public init(contentsOf path: String) throws(ConnectionFileError) {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedFailureReason ?? "cannot be read")
        }
        do { self = try JSONDecoder().decode(ConnectionInfo.self, from: data) } catch let error as DecodingError {
            throw .invalid(path: path, reason: ConnectionFileError.reason(error))
        } catch {
            throw .invalid(path: path, reason: "not a JSON object")
        }
        if let field = outOfRangePort {
            throw .invalid(path: path, reason: "'\(field)' is not a port number from 1 to 65535 (ZeroMQ would bind another port)")
        }
    }

    /// Every port with its field name.
    var ports: KeyValuePairs<String, Int> {
        ["shell_port": shellPort, "control_port": controlPort, "stdin_port": stdinPort,
         "iopub_port": iopubPort, "hb_port": heartbeatPort]
    }

    /// The first port field outside 1...65535, for TCP. Port 0 ("pick a free port") is refused
    /// too: the kernel has no way to tell the client which port it picked.
    var outOfRangePort: String? {
        guard transport == "tcp" else { return nil }
        return ports.first { !(1...65535).contains($0.value) }?.key
    }

    /// The ZeroMQ endpoint of a port: `tcp://ip:port`, or `ipc://ip-port` for ipc.
    public func endpoint(port: Int) -> String {
        transport == "ipc" ? "ipc://\(ip)-\(port)" : "\(transport)://\(ip):\(port)"
    }
}

/// Why a connection file could not be used. The description names the file and the
/// field, never a value from it (the file holds the signing and encryption keys).
public enum ConnectionFileError: Error, CustomStringConvertible, Equatable {
    /// The file is missing or cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not JSON, or a field is missing or has the wrong type.
    case invalid(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the connection file \(path) (\(reason)); the Jupyter client writes it before starting the kernel"
        case .invalid(let path, let reason):
            "the connection file \(path) is not usable: \(reason)"
        }
    }

    /// The field a decoding error is about, without the value that was found.
    static func reason(_ error: DecodingError) -> String {
        func field(_ path: [CodingKey], _ key: CodingKey? = nil) -> String {
            let names = (path + (key.map { [$0] } ?? [])).map(\.stringValue)
            return names.isEmpty ? "the file" : "'\(names.joined(separator: "."))'"
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(field(context.codingPath, key)) is missing"
        case .typeMismatch(_, let context): return "\(field(context.codingPath)) has the wrong type"
        case .valueNotFound(_, let context): return "\(field(context.codingPath)) is null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(field(context.codingPath)) is not readable"
        @unknown default: return "not a connection file"
        }
    }
}
