import Foundation

/// The inputs (and plain-text outputs) of stored executions, for `history_request`.
struct History {
    struct Entry {
        var session: Int
        var line: Int
        var input: String
        var output: String?
    }

    /// This kernel's session number in the history.
    let session = 1
    private(set) var entries: [Entry] = []

    mutating func append(line: Int, input: String) {
        entries.append(Entry(session: session, line: line, input: input, output: nil))
    }

    mutating func setOutput(_ output: String, line: Int) {
        if let index = entries.lastIndex(where: { $0.line == line }) { entries[index].output = output }
    }

    /// The last `count` entries.
    func tail(_ count: Int) -> [Entry] { Array(entries.suffix(max(0, count))) }

    /// Entries with `start <= line < stop` (stop 0 or less: to the end).
    func range(start: Int, stop: Int) -> [Entry] {
        entries.filter { $0.line >= start && (stop <= 0 || $0.line < stop) }
    }

    /// Entries whose input matches a glob pattern (`*` and `?`), newest last.
    func search(pattern: String, count: Int, unique: Bool) -> [Entry] {
        var matches = entries.filter { fnmatch(pattern, $0.input, 0) == 0 }
        if unique {
            var seen = Set<String>()
            matches = matches.reversed().filter { seen.insert($0.input).inserted }.reversed()
        }
        return count > 0 ? Array(matches.suffix(count)) : matches
    }
}
