import Foundation

/// What one compile of a cell produced, as the cache keeps it: the linked library (after
/// its module name was rewritten, see ``ModuleDisplayName``) and the module files a later
/// cell's compile reads, or the compiler's error text.
///
/// On disk an entry is a directory named after its key holding its files and a `manifest`
/// written last:
///
///     benchbook-cell-cache 1
///     key <64 hex digits>
///     outcome library|failure
///     omits <libraries the link left out because the host had them loaded>
///     file <name> <size> <sha-256>
///     end
///
/// An entry is used only when the manifest is complete (its `end` line), of this format
/// version, for this key, and every file has the size and SHA-256 it lists: a truncated,
/// corrupt or foreign entry is a miss, never loaded.
struct CellCacheEntry: Equatable {
    /// The format version; entries of another are ignored.
    static let formatVersion = 1
    static let manifestName = "manifest"
    /// File names inside an entry.
    static let libraryName = "library.so"
    static let diagnosticsName = "diagnostics.txt"
    /// The module files' suffixes (`CellN.swiftmodule`, ...): stored as `module<suffix>`.
    static let moduleSuffixes = [".swiftmodule", ".swiftdoc", ".swiftsourceinfo"]
    /// Stands for the kernel's work directory in stored error text.
    static let workPlaceholder = "$BENCHBOOK_WORK"

    /// What the compile gave.
    enum Outcome: Equatable {
        /// A library; `omitted` names the libraries its link left out because the host
        /// that was to load it had them loaded (a host loading it must have them too).
        case library(omitted: [String])
        /// The compiler's errors, with the work directory written as ``workPlaceholder``.
        case failure
    }

    var outcome: Outcome
    /// The files, by their name in the entry.
    var files: [String: Data]

    /// The manifest text for this entry under `key`.
    func manifest(key: String) -> String {
        var lines = ["benchbook-cell-cache \(Self.formatVersion)", "key \(key)"]
        switch outcome {
        case .library(let omitted):
            lines.append("outcome library")
            lines.append((["omits"] + omitted).joined(separator: " "))
        case .failure:
            lines.append("outcome failure")
        }
        for name in files.keys.sorted() {
            let data = files[name]!
            lines.append("file \(name) \(data.count) \(Digest.hex(of: data))")
        }
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a manifest promises, or nil when it is incomplete, of another version or key,
    /// or malformed.
    struct Manifest: Equatable {
        var outcome: Outcome
        /// name → (size, SHA-256).
        var files: [String: (size: Int, digest: String)]

        static func == (a: Manifest, b: Manifest) -> Bool {
            a.outcome == b.outcome && a.files.mapValues { "\($0.size) \($0.digest)" } == b.files.mapValues { "\($0.size) \($0.digest)" }
        }
    }

    static func parseManifest(_ text: String, key: String) -> Manifest? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, lines[0] == "benchbook-cell-cache \(formatVersion)", lines[1] == "key \(key)",
              let end = lines.firstIndex(of: "end") else { return nil }
        var outcome: Outcome?
        var omitted: [String] = []
        var files: [String: (Int, String)] = [:]
        for line in lines[2..<end] {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "outcome" where words.count == 2 && words[1] == "library": outcome = .library(omitted: [])
            case "outcome" where words.count == 2 && words[1] == "failure": outcome = .failure
            case "omits": omitted = Array(words.dropFirst())
            case "file" where words.count == 4:
                guard isPlainName(words[1]), let size = Int(words[2]), size >= 0, words[3].count == 64 else { return nil }
                files[words[1]] = (size, words[3])
            default: return nil
            }
        }
        switch outcome {
        case .library?:
            guard files[libraryName] != nil else { return nil }
            return Manifest(outcome: .library(omitted: omitted), files: files)
        case .failure?:
            guard files[diagnosticsName] != nil else { return nil }
            return Manifest(outcome: .failure, files: files)
        case nil: return nil
        }
    }

    /// A name without a path separator or a leading dot: the only names an entry's files have.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.hasPrefix(".") && name.count < 64
    }
}
