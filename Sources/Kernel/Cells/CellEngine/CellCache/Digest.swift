import Foundation
internal import CLibCrypto

/// SHA-256 over bytes fed in pieces, with OpenSSL's EVP interface (the kernel links
/// libcrypto for message signing already). Owns its OpenSSL context, freed in deinit.
///
/// Thread rules: one thread at a time.
final class Digest {
    private let context: OpaquePointer?

    /// Starts an empty digest.
    init() {
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes.
    func update(_ data: some DataProtocol) {
        guard let context else { return }
        for region in data.regions {
            region.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }
    }

    /// Adds a string's UTF-8 bytes, then a separator no string of ours contains, so two
    /// different lists of strings never feed the same bytes.
    func update(field: String) {
        update(Data(field.utf8))
        update(Data([0, 0x1f]))
    }

    /// Adds a file's contents (and its length); an unreadable file adds a marker instead.
    func update(file url: URL) {
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe) else {
            update(field: "unreadable \(url.lastPathComponent)")
            return
        }
        update(field: "\(url.lastPathComponent) \(data.count)")
        update(data)
    }

    /// The digest in lowercase hex (64 characters); the digest cannot be fed after this.
    func finish() -> String {
        var bytes = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard let context, EVP_DigestFinal_ex(context, &bytes, &length) == 1 else { return "" }
        return bytes.prefix(Int(length)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The SHA-256 of some bytes in hex.
    static func hex(of data: some DataProtocol) -> String {
        let digest = Digest()
        digest.update(data)
        return digest.finish()
    }
}
