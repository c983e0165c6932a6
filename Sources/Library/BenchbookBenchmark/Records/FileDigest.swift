import Foundation
internal import CLibCrypto

/// SHA-256 of files, computed with OpenSSL's EVP interface. The only file that calls libcrypto.
enum FileDigest {
    /// The lowercase hex SHA-256 of a file's contents, read in 1 MiB chunks.
    static func sha256(of url: URL) throws -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw BenchmarkError.unreadableFile(path: url.path, reason: "cannot open it")
        }
        defer { try? handle.close() }
        guard let context = EVP_MD_CTX_new() else { throw BenchmarkError.digestFailed("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw BenchmarkError.digestFailed("EVP_DigestInit_ex")
        }
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw BenchmarkError.unreadableFile(path: url.path, reason: "\(error)")
            }
            if chunk.isEmpty { break }
            let status = chunk.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            guard status == 1 else { throw BenchmarkError.digestFailed("EVP_DigestUpdate") }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else {
            throw BenchmarkError.digestFailed("EVP_DigestFinal_ex")
        }
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
