import Foundation
import HostProtocol
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
    /// The prefix of a frame line.
    static let frameMarker = HostChannel.crashFrameMarker

    /// One frame: an offset into a loaded library.
    struct Frame: Sendable, Equatable {
        var offset: UInt64
        var library: String
    }

    private(set) var frames: [Frame] = []
    /// Runtime messages held back from the stream (shown once, in the error).
    private(set) var messages: [String] = []

    /// What starts a piece of standard error that belongs to the report.
    enum Marker: Sendable, Equatable {
        /// A frame line of the host's crash reporter.
        case frame
        /// A Swift runtime message (`Fatal error`, `Precondition failed`, ...).
        case runtimeMessage
    }

    /// Takes a piece of the host's standard error that starts with `marker` (a frame line
    /// starts with ``frameMarker``) and runs to the end of its line.
    mutating func take(_ text: some Collection<UInt8>, as marker: Marker) {
        switch marker {
        case .frame:
            let parts = text.dropFirst(Self.frameMarkerBytes.count).split(separator: UInt8(ascii: " "), maxSplits: 1)
            guard parts.count == 2, parts[0].starts(with: Array("0x".utf8)),
                  let offset = UInt64(String(decoding: parts[0].dropFirst(2), as: UTF8.self), radix: 16) else { return }
            frames.append(Frame(offset: offset, library: String(decoding: parts[1], as: UTF8.self)))
        case .runtimeMessage:
            messages.append(String(decoding: text, as: UTF8.self))
        }
    }

    /// Where the first piece of the report starts in a line, if any: a frame at its
    /// marker; a runtime message at the start of the line, or, when the line's start was
    /// shown already, at the `<file>:<line>: ` written before its words.
    /// - Parameters:
    ///   - line: the undecided bytes of a line.
    ///   - lineStarted: the line's first bytes were shown already.
    static func firstMarker(in line: [UInt8], lineStarted: Bool) -> (Marker, Int)? {
        line.withUnsafeBufferPointer { buffer in
            let frame = Bytes.find(frameMarkerBytes, in: buffer)
            let message = runtimeMarkerBytes.compactMap { Bytes.find($0, in: buffer) }.min()
            if let frame, message.map({ frame < $0 }) ?? true { return (.frame, frame) }
            guard let message else { return nil }
            return (.runtimeMessage, lineStarted ? locationStart(in: line, before: message) : 0)
        }
    }

    /// The start of `<file>:<line>: ` just before `index`, or `index` when it is not there.
    ///
    /// The runtime's file is a cell's (`In[7]`, `Cell4/In[7]`) or the standard library's
    /// (`Swift/Array.swift`); text the cell wrote without a newline can run into it, so the
    /// file starts at the first of those forms in the word before `:<line>: `, else at the
    /// word's start (at most ``longestFile`` bytes back).
    private static func locationStart(in line: [UInt8], before index: Int) -> Int {
        var position = index
        guard position >= 2, line[position - 1] == UInt8(ascii: " "), line[position - 2] == UInt8(ascii: ":") else { return index }
        position -= 2
        let digitsEnd = position
        while position > 0, line[position - 1] >= 0x30, line[position - 1] <= 0x39 { position -= 1 }
        guard position < digitsEnd, position > 0, line[position - 1] == UInt8(ascii: ":") else { return index }
        let fileEnd = position - 1
        var wordStart = fileEnd
        while wordStart > 0, fileEnd - wordStart < longestFile, line[wordStart - 1] != UInt8(ascii: " ") { wordStart -= 1 }
        let word = line[wordStart..<fileEnd]
        let anchors = fileStarts.compactMap { anchor in
            word.indices.first { word[$0...].starts(with: anchor) }
        }
        return anchors.min() ?? wordStart
    }

    /// How far back the runtime's file name is looked for.
    private static let longestFile = 256
    /// How the runtime's file names start.
    private static let fileStarts = ["Cell", "In[", "Swift/"].map { Array($0.utf8) }

    private static let frameMarkerBytes = Array(frameMarker.utf8)
    private static let runtimeMarkers = ["Fatal error", "fatal error", "Precondition failed", "Assertion failed"]
    private static let runtimeMarkerBytes = runtimeMarkers.map { Array($0.utf8) }

    /// The Swift runtime's message, without the `File.swift:123: ` prefix it writes (the
    /// location is reported from the frames instead).
    var runtimeMessage: String? {
        guard let last = messages.last else { return nil }
        return last.replacing(#/^.*?:[0-9]+:\s(?=Fatal error|fatal error|Precondition failed|Assertion failed)/#, with: "")
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
        return mergedPathLocation(of: cellFrames[0], symbolizer: symbolizer)
    }

    /// Where a failure whose call has no line was entered from (see ``MergedFailurePath``):
    /// `In[3], line 7`, or `In[3], line 7 or line 8` when two paths share the call.
    private func mergedPathLocation(of frame: Frame, symbolizer: URL) -> String? {
        let objdump = symbolizer.deletingLastPathComponent().appendingPathComponent("llvm-objdump")
        let listing = ChildProcess.Configuration(executable: objdump.path,
                                                 arguments: ["-d", "--no-show-raw-insn", frame.library])
        guard let disassembly = try? ChildProcess.run(listing), disassembly.status == .exited(code: 0),
              let function = MergedFailurePath(listing: disassembly.text, containing: frame.offset) else { return nil }
        let addresses = function.instructions.map(\.address)
        let lookup = ChildProcess.Configuration(
            executable: symbolizer.path,
            arguments: ["--functions=none", "--inlining=true", "--obj=\(frame.library)"] + addresses.map { "0x" + String($0, radix: 16) })
        guard let symbolized = try? ChildProcess.run(lookup), symbolized.status == .exited(code: 0) else { return nil }
        // One group of lines per address (its inlined frames), groups separated by a blank line.
        let groups = symbolized.text.split(separator: "\n\n", omittingEmptySubsequences: false)
        guard groups.count >= addresses.count else { return nil }
        var lines: [UInt64: String] = [:]
        for (address, group) in zip(addresses, groups) {
            if let line = Self.cellLine(in: String(group)) { lines[address] = line }
        }
        var locations: [String] = []
        for address in function.addresses(leadingToCallReturningTo: frame.offset, hasCellLine: { lines[$0] != nil }) {
            if let location = lines[address], !locations.contains(location) { locations.append(location) }
        }
        return Self.joined(locations)
    }

    /// `In[3], line 7 or line 8` from `In[3], line 7` and `In[3], line 8`.
    static func joined(_ locations: [String]) -> String? {
        guard let first = locations.first else { return nil }
        let cell = first.prefix { $0 != "," }
        guard locations.allSatisfy({ $0.hasPrefix(cell + ", ") }) else { return locations.joined(separator: " or ") }
        return String(cell) + ", " + locations.map { $0.dropFirst(cell.count + 2) }.joined(separator: " or ")
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
