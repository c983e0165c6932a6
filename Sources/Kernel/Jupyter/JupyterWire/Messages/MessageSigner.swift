internal import CLibCrypto
import Foundation

/// Signs and verifies Jupyter messages with HMAC-SHA256 over the four JSON frames
/// (header, parent header, metadata, content), as the messaging spec requires.
///
/// An empty key turns signing off: messages are sent with an empty signature and
/// accepted without one.
public struct MessageSigner: Sendable {
    private let key: [UInt8]

    /// Creates a signer.
    /// - Parameters:
    ///   - key: the `key` from the connection file.
    ///   - scheme: the `signature_scheme`; only `hmac-sha256` is supported.
    /// - Throws: ``WireError/unsupportedSignatureScheme(_:)`` for any other scheme.
    public init(key: String, scheme: String = "hmac-sha256") throws(WireError) {
        guard scheme == "hmac-sha256" || key.isEmpty else { throw .unsupportedSignatureScheme(scheme) }
        self.key = Array(key.utf8)
    }

    /// True when messages are signed.
    public var isSigning: Bool { !key.isEmpty }

    /// The lowercase hex HMAC-SHA256 of the frames, or "" when signing is off.
    /// - Parameter frames: header, parent header, metadata and content, in that order.
    public func signature(for frames: [Data]) -> String {
        guard isSigning else { return "" }
        return digest(frames).map { String(format: "%02x", $0) }.joined()
    }

    /// Checks a received signature in constant time.
    /// - Parameters:
    ///   - signature: the hex signature frame as received.
    ///   - frames: the four JSON frames as received.
    /// - Returns: true when signing is off or the signature is right.
    public func isValid(signature: Data, for frames: [Data]) -> Bool {
        guard isSigning else { return true }
        let expected = Array(self.signature(for: frames).utf8)
        let given = [UInt8](signature)
        guard given.count == expected.count else { return false }
        return CRYPTO_memcmp(given, expected, expected.count) == 0
    }

    private func digest(_ frames: [Data]) -> [UInt8] {
        // OpenSSL 3 deprecates the incremental HMAC_CTX calls; the one-shot HMAC() over
        // the concatenated frames gives the same digest.
        var message = Data(capacity: frames.reduce(0) { $0 + $1.count })
        for frame in frames { message.append(frame) }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        message.withUnsafeBytes { buffer in
            _ = HMAC(EVP_sha256(), key, Int32(key.count), buffer.bindMemory(to: UInt8.self).baseAddress,
                     buffer.count, &output, &length)
        }
        return Array(output.prefix(Int(length)))
    }

}
