internal import CZeroMQ
import Foundation

/// The CurveZMQ key pair a kernel's sockets serve with, from the connection file's
/// `curve_publickey` and `curve_secretkey` (Z85 text, 40 characters each).
///
/// Jupyter clients use the public key as the server key of every socket they connect,
/// so the pair must match: the secret key's public half is checked against it.
public struct CurveServerKey: Sendable {
    /// The 32-byte secret key.
    let secret: [UInt8]

    /// Checks and decodes a key pair.
    /// - Parameters:
    ///   - publicKey: `curve_publickey`.
    ///   - secretKey: `curve_secretkey`.
    /// - Throws: ``CurveKeyError`` when libzmq has no CURVE support, a key is not Z85
    ///   text of 40 characters, or the two keys do not belong together.
    public init(publicKey: String, secretKey: String) throws(CurveKeyError) {
        guard zmq_has("curve") == 1 else { throw .unsupported }
        guard let secret = Self.decode(secretKey) else { throw .malformed("curve_secretkey") }
        guard Self.decode(publicKey) != nil else { throw .malformed("curve_publickey") }
        var derived = [CChar](repeating: 0, count: 41)
        guard zmq_curve_public(&derived, secretKey) == 0 else { throw .malformed("curve_secretkey") }
        guard Self.text(derived) == publicKey else { throw .mismatchedPair }
        self.secret = secret
    }

    /// The key pair of a connection file, nil when it has none (no transport encryption).
    /// - Throws: ``CurveKeyError`` when only one of the two keys is there, or as
    ///   ``init(publicKey:secretKey:)``.
    public init?(connection: ConnectionInfo) throws(CurveKeyError) {
        switch (connection.curvePublicKey, connection.curveSecretKey) {
        case (nil, nil): return nil
        case (let publicKey?, let secretKey?): try self.init(publicKey: publicKey, secretKey: secretKey)
        case (nil, _): throw .incompletePair(missing: "curve_publickey")
        case (_, nil): throw .incompletePair(missing: "curve_secretkey")
        }
    }

    /// A new random key pair as Z85 text (for tests and tools acting as a client).
    /// - Throws: ``CurveKeyError/unsupported`` when libzmq has no CURVE support.
    public static func generatePair() throws(CurveKeyError) -> (publicKey: String, secretKey: String) {
        var publicKey = [CChar](repeating: 0, count: 41), secretKey = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&publicKey, &secretKey) == 0 else { throw .unsupported }
        return (text(publicKey), text(secretKey))
    }

    /// The text of a NUL-terminated Z85 buffer.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The 32 bytes of a 40-character Z85 key, or nil when it is not one.
    static func decode(_ text: String) -> [UInt8]? {
        let z85 = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#".utf8)
        guard text.utf8.count == 40, text.utf8.allSatisfy(z85.contains) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard zmq_z85_decode(&bytes, text) != nil else { return nil }
        return bytes
    }
}

/// Why the connection file's CurveZMQ keys cannot be used. Never contains a key.
public enum CurveKeyError: Error, CustomStringConvertible, Equatable {
    /// The libzmq in use was built without CURVE (libsodium).
    case unsupported
    /// Only one of the two keys is in the connection file.
    case incompletePair(missing: String)
    /// A key is not 40 characters of Z85 text.
    case malformed(String)
    /// The public key does not belong to the secret key.
    case mismatchedPair

    public var description: String {
        switch self {
        case .unsupported:
            "the connection file asks for CurveZMQ encryption, but this libzmq has no CURVE support; install a libzmq built with libsodium (Debian's libzmq5 is)"
        case .incompletePair(let missing):
            "the connection file has one CurveZMQ key but not '\(missing)'; a client that asks for encryption writes both"
        case .malformed(let field):
            "the connection file's '\(field)' is not a 40-character Z85 CurveZMQ key"
        case .mismatchedPair:
            "the connection file's 'curve_publickey' does not belong to its 'curve_secretkey'; clients could not connect"
        }
    }
}

extension ZeroMQSocket {
    /// Makes this socket a CurveZMQ server: peers must complete a CURVE handshake with
    /// the key's public half, and everything after it is encrypted. Call before `bind`.
    /// - Throws: ``ZeroMQError`` when libzmq refuses an option.
    public func makeCurveServer(with key: CurveServerKey) throws {
        var on: Int32 = 1
        guard zmq_setsockopt(handle, ZMQ_CURVE_SERVER, &on, MemoryLayout<Int32>.size) == 0 else {
            throw ZeroMQError.last("zmq_setsockopt(ZMQ_CURVE_SERVER)")
        }
        guard zmq_setsockopt(handle, ZMQ_CURVE_SECRETKEY, key.secret, key.secret.count) == 0 else {
            throw ZeroMQError.last("zmq_setsockopt(ZMQ_CURVE_SECRETKEY)")
        }
    }

    /// Makes this socket a CurveZMQ client of a server (tests and tools). Call before `connect`.
    /// - Parameters:
    ///   - serverKey: the server's public key (Z85).
    ///   - publicKey: this client's public key (Z85).
    ///   - secretKey: this client's secret key (Z85).
    /// - Throws: ``ZeroMQError`` when libzmq refuses a key.
    public func makeCurveClient(serverKey: String, publicKey: String, secretKey: String) throws {
        for (option, value, name) in [(ZMQ_CURVE_SERVERKEY, serverKey, "SERVERKEY"), (ZMQ_CURVE_PUBLICKEY, publicKey, "PUBLICKEY"),
                                      (ZMQ_CURVE_SECRETKEY, secretKey, "SECRETKEY")] {
            let bytes = Array(value.utf8)
            guard zmq_setsockopt(handle, option, bytes, bytes.count) == 0 else {
                throw ZeroMQError.last("zmq_setsockopt(ZMQ_CURVE_\(name))")
            }
        }
    }
}
