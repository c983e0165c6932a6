import Foundation
import HostProtocol
import SystemSupport

/// What a cell host wrote about its own crash, turned into the user's terms: the runtime's
/// message without the runtime's file and line, and the innermost line of cell code.
///
/// The host's crash handler writes the report to its own crash channel
/// (`BB_SEAM_CRASH_DESCRIPTOR`; see `bb_install_crash_reporter`), never to standard error:
/// the signal, the Swift runtime's fatal message as the runtime wrote it (read from the
/// runtime's own record of it), and one line per frame of the crashing thread. So a crash
/// is told from what a cell prints by the channel it comes on, never by the text's shape,
/// and a cell that closed its standard error still gets its report. Cell libraries carry
/// line tables whose file names are cell labels (`In[7]`), so `llvm-symbolizer` maps a
/// frame in cell code to the user's cell and line.
///
/// Thread rules: a value.
struct CrashReport: Sendable, Equatable {
    /// One frame: an offset into a loaded library.
    struct Frame: Sendable, Equatable {
        var offset: UInt64
        var library: String
    }

    /// The signal the handler caught.
    private(set) var signal: Int32?
    /// The Swift runtime's fatal message, exactly as it wrote it to standard error (with its
    /// `<file>:<line>: ` and final newline), when the crash was a Swift trap.
    private(set) var writtenMessage: String?
    private(set) var frames: [Frame] = []

    /// A report with the given parts (tests).
    init(signal: Int32? = nil, writtenMessage: String? = nil, frames: [Frame] = []) {
        self.signal = signal
        self.writtenMessage = writtenMessage
        self.frames = frames
    }

    /// Reads what the host wrote on its crash channel; records it does not know, and a
    /// record cut short by the host's end, are skipped.
    /// - Returns: nil when the channel carried nothing.
    init?(channel bytes: [UInt8]) {
        guard !bytes.isEmpty else { return nil }
        var index = 0
        func line() -> ArraySlice<UInt8>? {
            guard index < bytes.count else { return nil }
            let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            defer { index = end + 1 }
            return bytes[index..<end]
        }
        while let record = line() {
            let parts = record.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
            let word = String(decoding: parts.first ?? [], as: UTF8.self)
            let argument = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
            switch word {
            case HostChannel.crashSignalRecord:
                signal = Int32(argument)
            case HostChannel.crashMessageRecord:
                guard let length = Int(argument), length >= 0, index + length <= bytes.count else { return }
                writtenMessage = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                index += length + 1
            case HostChannel.crashFrameRecord:
                guard parts.count == 3, argument.hasPrefix("0x"), let offset = UInt64(argument.dropFirst(2), radix: 16) else { continue }
                frames.append(Frame(offset: offset, library: String(decoding: parts[2], as: UTF8.self)))
            default:
                continue
            }
        }
    }

    /// The Swift runtime's message, without the `File.swift:123: ` prefix it writes (the
    /// location is reported from the frames instead) and its final newline.
    var runtimeMessage: String? {
        guard let written = writtenMessage else { return nil }
        let message = written.hasSuffix("\n") ? String(written.dropLast()) : written
        let words = message.replacing(#/^[^\n]*?:[0-9]+:\s(?=Fatal error|fatal error|Precondition failed|Assertion failed)/#, with: "")
        return words.isEmpty ? nil : words
    }

    /// Where in the cells a crash happened, and what failed when the runtime wrote no message.
    struct Site: Sendable, Equatable {
        /// The innermost line of cell code, as `In[7], line 3`.
        var location: String?
        /// The cause of a trap with no message, from the debug information at the trap
        /// (`-O` and the release assert configuration keep no message, only a `ud2` whose
        /// inlined frame is named "Swift runtime failure: Index out of range"), written as
        /// the runtime writes its messages: `Fatal error: Index out of range`.
        var failure: String?
    }

    /// The innermost frame in cell code, as `In[7], line 3`, and the cause of a trap that
    /// came with no message.
    /// - Parameters:
    ///   - symbolizer: `llvm-symbolizer`.
    ///   - cellLibraries: the directory where cell libraries are written.
    func site(symbolizer: URL, cellLibraries: URL) -> Site {
        let prefix = cellLibraries.standardizedFileURL.path
        let cellFrames = frames.filter { $0.library.hasPrefix(prefix) }
        guard !cellFrames.isEmpty else { return Site() }
        // Innermost first; usually the first cell frame is the user's line (generated
        // code has no cell label as its file), so one run is enough.
        var failure: String?
        for (position, frame) in cellFrames.enumerated() {
            let configuration = ChildProcess.Configuration(
                executable: symbolizer.path,
                // Inlined frames too: in an optimised cell, a failed check is code of the
                // standard library inlined into the cell's line (issue 23); their names
                // say which check (issue 48).
                arguments: ["--functions=short", "--inlining=true", "--obj=\(frame.library)", "0x" + String(frame.offset, radix: 16)])
            guard let completion = try? ChildProcess.run(configuration), completion.status == .exited(code: 0) else { continue }
            // Only the innermost frame faulted: an outer one's "runtime failure" is a call's.
            if position == 0 { failure = Self.runtimeFailure(in: completion.text) }
            if let location = Self.cellLine(in: completion.text) { return Site(location: location, failure: failure) }
        }
        return Site(location: mergedPathLocation(of: cellFrames[0], symbolizer: symbolizer), failure: failure)
    }

    /// `Fatal error: Index out of range` from the symbolizer's frame names of a trap
    /// (`Swift runtime failure: Index out of range`), or nil when none names a failure.
    static func runtimeFailure(in text: String) -> String? {
        let marker = "Swift runtime failure: "
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(marker) }) else { return nil }
        let cause = line.dropFirst(marker.count).trimmingCharacters(in: .whitespaces)
        return cause.isEmpty ? nil : "Fatal error: " + cause
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
