import Foundation
import JupyterWire

/// A port of the connection file that could not be bound, in the connection file's terms:
/// which field, which address, and what to change.
struct ChannelBindError: Error, CustomStringConvertible {
    /// The port's field (`shell_port`, ...).
    var field: String
    var port: Int
    /// The connection file's `ip`.
    var ip: String
    var endpoint: String
    /// What libzmq said.
    var underlying: ZeroMQError

    var description: String {
        let failure = "\(underlying.operation) failed: \(String(cString: strerror(underlying.code))) (errno \(underlying.code))"
        switch underlying.code {
        case EADDRINUSE:
            return "'\(field)' is \(port), a port another process is using on \(ip) (\(failure)); "
                + "let the Jupyter client pick free ports, or free this one"
        case ENODEV:
            return "'ip' is \"\(ip)\", which is neither an IP address nor a network interface of this machine (\(endpoint) cannot be bound); "
                + "ZeroMQ does not look up host names: write an address such as \"127.0.0.1\" (this machine only) or \"0.0.0.0\" (every interface)"
        case EADDRNOTAVAIL:
            return "'ip' is \"\(ip)\", which is not an address of this machine (\(failure)); "
                + "write one of its addresses, \"127.0.0.1\" (this machine only) or \"0.0.0.0\" (every interface)"
        default:
            return "'\(field)' (\(endpoint)) could not be bound: \(failure); check the connection file's 'ip' and ports"
        }
    }
}
