import Foundation
import SystemSupport

/// What a cell host wrote about its own crash, turned into the user's terms: the runtime's
/// message without the runtime's file and line, and the innermost line of cell code.
///
/// The host's crash reporter writes one line per frame of the crashing thread,
/// `@@benchbook-crash-frame@@ <offset> <library>` (see `bb_install_crash_reporter`);
/// cell libraries carry line tables whose file names are cell labels (`In[7]`), so
/// `llvm-symbolizer` maps a frame in cell code to the user's cell and line.
///
/// Thread rules: a value; used on the shell thread.
struct CrashReport: Sendable {
    /// The prefix of a frame line (BB_CRASH_FRAME_MARKER).
    static let frameMarker = "@@benchbook-crash-frame@@"

    /// One frame: an offset into a loaded library.
    struct Frame: Sendable, Equatable {
        var offset: UInt64
        var library: String
    }

    private(set) var frames: [Frame] = []
    /// Runtime messages held back from the stream (shown once, in the error).
    private(set) var messages: [String] = []

    /// Takes a line of the host's standard error.
    /// - Returns: true when the line belongs to the crash report (it is not shown as it is).
    mutating func take(_ line: String) -> Bool {
        if let marker = line.range(of: Self.frameMarker) {
            // Text the cell wrote without a final newline can precede the first frame.
            let parts = line[marker.upperBound...].split(separator: " ", maxSplits: 1)
            if parts.count == 2, let offset = UInt64(parts[0].dropFirst(2), radix: 16) {
                frames.append(Frame(offset: offset, library: String(parts[1])))
            }
            return true
        }
        if Self.isRuntimeMessage(line) {
            messages.append(line)
            return true
        }
        return false
    }

    /// True for a line of the crash reporter (never shown, even between cells).

    /// The Swift runtime's message, without the `File.swift:123: ` prefix it writes (the
    /// location is reported from the frames instead).
    var runtimeMessage: String? {
        guard let last = messages.last else { return nil }
        return last.replacing(#/^.*?:[0-9]+:\s(?=Fatal error|fatal error|Precondition failed|Assertion failed)/#, with: "")
    }

    static func isRuntimeMessage(_ line: String) -> Bool {
        ["Fatal error", "fatal error", "Precondition failed", "Assertion failed"].contains { line.contains($0) }
    }

    /// The innermost frame in cell code, as `In[7], line 3`, or nil.
    /// - Parameters:
    ///   - symbolizer: `llvm-symbolizer`.
    ///   - cellLibraries: the directory where cell libraries are written.
    func cellLocation(symbolizer: URL, cellLibraries: URL) -> String? {
        let prefix = cellLibraries.standardizedFileURL.path
        let cellFrames = frames.filter { $0.library.hasPrefix(prefix) }
        guard !cellFrames.isEmpty else { return nil }
        // Innermost first; usually the first cell frame is the user's line (generated
        // code has no cell label as its file), so one run is enough.
        for frame in cellFrames {
            let configuration = ChildProcess.Configuration(
                executable: symbolizer.path,
                // Inlined frames too: in an optimised cell, a failed bounds check is code of the
                // standard library inlined into the cell's line (issue 23).
                arguments: ["--functions=none", "--inlining=true", "--obj=\(frame.library)", "0x" + String(frame.offset, radix: 16)])
            guard let completion = try? ChildProcess.run(configuration), completion.status == .exited(code: 0) else { continue }
            if let location = Self.cellLine(in: completion.text) { return location }
        }
        return nil
    }

    /// `In[7], line 3` from a symbolizer line such as `/work/In[7]:3:11`: the file of a
    /// line in cell code is the cell's label (generated code is in `CellN.swift`).
    static func cellLine(in text: String) -> String? {
        for line in text.split(separator: "\n") {
            guard let match = line.firstMatch(of: /([^\/]+):([0-9]+):[0-9]+$/), !match.1.hasSuffix(".swift"),
                  let number = Int(match.2), number > 0 else { continue }
            return "\(match.1), line \(number)"
        }
        return nil
    }
}
