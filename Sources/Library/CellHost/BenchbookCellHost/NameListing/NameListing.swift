internal import BenchbookRuntime
import Foundation
import JSONCore

extension _BenchbookCell {
    /// One name of the notebook in a `%who`/`%whos` listing. The kernel writes the cell that
    /// makes these; the values are read here, in the host that holds them.
    public struct ListedName {
        let name: String
        /// The prompt label of the cell that made the newest definition (`In[4]`).
        let cell: String
        /// A value's type (`[Float]`), a declaration's kind (`func`), `?` when unknown.
        let type: String
        /// For a value of protocol type (`Any`), the type of what it holds.
        let heldType: String?
        /// Words a `%who` argument may name to keep this entry.
        let matches: Set<String>
        /// The one-line value (or what happened to it) and the element count of an array,
        /// a dictionary or a set. Called only for entries that are listed: a description
        /// runs the value's own code.
        let describe: () -> (text: String, count: Int?)
        /// The value's stored properties for the debugger's Variables panel (see
        /// ``_BenchbookCell/inspectNames(_:)``); empty for a declaration.
        var members: () -> [JSONValue] = { [] }

        /// A variable's name, its static type and its value.
        public static func value<T>(_ name: String, cell: String, _ value: T) -> ListedName {
            let type = TypeNames.sugared(TypeNames.userFacing(String(describing: T.self)))
            let held = TypeNames.sugared(TypeNames.userFacing(String(describing: Swift.type(of: value as Any))))
            var listed = ListedName(name: name, cell: cell, type: type, heldType: held == type ? nil : held,
                                    matches: [type, held, String(describing: T.self), "var"]) { ValueSummary.of(value) }
            listed.members = { DebuggerMembers.of(value) }
            return listed
        }

        /// A function or a type (`kind`: `func`, `struct`, `class`, `enum`, `protocol`, `typealias`).
        public static func declaration(_ name: String, kind: String, cell: String) -> ListedName {
            ListedName(name: name, cell: cell, type: kind, heldType: nil, matches: [kind]) { ("", nil) }
        }

        /// A variable whose value went with a cell host that stopped (no snapshot had it).
        public static func lost(_ name: String, cell: String) -> ListedName {
            ListedName(name: name, cell: cell, type: "?", heldType: nil, matches: ["var"]) {
                ("lost when the cell host restarted: re-run \(cell)", nil)
            }
        }

        /// A variable the listing cannot read (`private` to its cell, say), with the
        /// compiler's reason.
        public static func unreadable(_ name: String, cell: String, reason: String) -> ListedName {
            ListedName(name: name, cell: cell, type: "?", heldType: nil, matches: ["var"]) {
                ("not readable from another cell (\(TypeNames.userFacing(reason)))", nil)
            }
        }
    }

    /// Prints the listing of `%who` (one line per name) or `%whos` (a table), sorted by
    /// name, keeping only entries whose type or kind `filter` names (all when empty).
    public static func listNames(detailed: Bool, filter: [String], _ names: [ListedName]) {
        let kept = names.filter { filter.isEmpty || !$0.matches.isDisjoint(with: filter) }
            .sorted { $0.name < $1.name }
        guard !kept.isEmpty else {
            print(names.isEmpty
                  ? "Nothing is defined yet: %who lists the variables, functions and types that earlier cells define."
                  : "No names of type \(filter.joined(separator: " or ")).")
            return
        }
        let entries = kept.map { NameTable.Entry(listed: $0, described: $0.describe()) }
        print((detailed ? NameTable.rows(entries) : entries.map(NameTable.line)).joined(separator: "\n"))
    }
}

/// The two layouts of a listing.
enum NameTable {
    /// A listed name with its description.
    struct Entry {
        var listed: _BenchbookCell.ListedName
        var described: (text: String, count: Int?)
    }

    /// Width of a value in `%who`, and of the Data/Info column of `%whos`.
    static let valueWidth = 72
    static let typeWidth = 36

    /// `%who`: `name: Type = value`, or `kind name` for a declaration.
    static func line(_ entry: Entry) -> String {
        let (name, type, info) = (entry.listed.name, entry.listed.type, entry.described.text)
        if info.isEmpty { return "\(type) \(name)" }
        if type == "?" { return "\(name): \(info)" }
        return "\(name): \(type) = \(TextLine.truncated(info, to: valueWidth))"
    }

    /// `%whos`: IPython's Variable / Type / Data/Info table, with the defining cell.
    static func rows(_ entries: [Entry]) -> [String] {
        let header = ["Name", "Type", "Cell", "Data/Info"]
        let body = entries.map { entry -> [String] in
            let listed = entry.listed
            let type = listed.heldType.map { "\(listed.type) (holding \($0))" } ?? listed.type
            var info = entry.described.text
            if let count = entry.described.count { info = "\(count) element\(count == 1 ? "" : "s"): " + info }
            return [listed.name, TextLine.truncated(type, to: typeWidth), listed.cell, TextLine.truncated(info, to: valueWidth)]
        }
        let widths = (0..<3).map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
        func row(_ cells: [String]) -> String {
            var text = ""
            for column in 0..<3 { text += cells[column].padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0) }
            return (text + cells[3]).trimmingTrailingSpaces
        }
        let rule = widths.map { String(repeating: "-", count: $0) + "  " }.joined() + String(repeating: "-", count: 9)
        return [row(header), rule] + body.map(row)
    }
}

/// Type names as a student writes them.
enum TypeNames {
    /// Without the generated cell modules' names (`Cell3.Foo` → `Foo`).
    static func userFacing(_ text: String) -> String { removingCellModuleNames(text) }

    /// Without the module qualifier of the notebook's own types, which print as one file's
    /// do (`main.Point(x: main.Kind.a)` → `Point(x: Kind.a)`): `main.` where a word starts
    /// and a name follows.
    static func withoutNotebookModule(_ text: String) -> String {
        let qualifier = Array("main.".utf8)
        let bytes = Array(text.utf8)
        func isWordByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let end = index + qualifier.count
            if end < bytes.count, bytes[index..<end].elementsEqual(qualifier), index == 0 || !isWordByte(bytes[index - 1]),
               isWordByte(bytes[end]), !(bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9")), bytes[end] != UInt8(ascii: ".") {
                index = end
                continue
            }
            out.append(bytes[index])
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// With Swift's sugar: `Array<Int>` → `[Int]`, `Dictionary<String, Int>` →
    /// `[String: Int]`, `Optional<Int>` → `Int?`, innermost first.
    static func sugared(_ name: String) -> String {
        // A function type's arrow is not a closing angle bracket.
        let arrow = "\u{1}"
        var text = name.replacing("->", with: arrow)
        while true {
            let next = text
                .replacing(/\bArray<([^<>]*)>/) { "[\($0.1)]" }
                .replacing(/\bDictionary<([^<>,]*), ([^<>]*)>/) { "[\($0.1): \($0.2)]" }
                .replacing(/\bOptional<([^<>]*)>/) { match in
                    match.1.contains(" ") ? "(\(match.1))?" : "\(match.1)?"
                }
            if next == text { return text.replacing(arrow, with: "->") }
            text = next
        }
    }
}

/// Text squeezed onto one line of a given width.
enum TextLine {
    /// Line breaks (and the spaces around them) become one space.
    static func oneLine(_ text: String) -> String {
        text.contains(where: \.isNewline) ? text.replacing(/\s*[\r\n]+\s*/, with: " ") : text
    }

    /// At most `width` characters, the last one `…` when something was cut.
    static func truncated(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
