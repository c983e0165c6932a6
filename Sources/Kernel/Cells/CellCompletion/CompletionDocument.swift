/// The file SourceKit-LSP completes in: the imports a new cell would see, then the cell's
/// code at top level (a main file, so statements and declarations both complete).
///
/// Jupyter counts `cursor_pos` in Unicode code points of the cell; LSP positions are a
/// line and a UTF-16 offset in that line. This type maps between the two.
struct CompletionDocument: Sendable, Equatable {
    /// The whole text sent to the server.
    let text: String
    /// Lines before the cell's first line.
    let prefixLineCount: Int
    /// The import lines, joined.
    let imports: String
    /// The cell's code as written (a timing magic line is commented out in `text`).
    let cell: String

    /// Builds the document.
    /// - Parameters:
    ///   - imports: import lines, one per line.
    ///   - cell: the cell's code.
    ///   - padded: start with an empty line. SourceKit-LSP reuses its last completion
    ///     session for a request at the same place, assuming the user typed on; toggling
    ///     this line moves the place when the cell changed in any other way.
    init(imports: [String], cell: String, padded: Bool = false) {
        self.cell = cell
        prefixLineCount = imports.count + (padded ? 1 : 0)
        self.imports = imports.joined(separator: "\n")
        var body = cell
        // A timing magic line (`%timeit`) is not Swift; commenting it out keeps the lines.
        if body.hasPrefix("%") { body = "//" + body }
        // The final newline matters: SourceKit-LSP 6.3 crashes (string index out of
        // bounds) completing after an unclosed `(` at the very end of a document.
        text = (padded ? "\n" : "") + imports.map { $0 + "\n" }.joined() + body + "\n"
    }

    /// The LSP position of a code-point offset in the cell.
    func position(ofCellOffset offset: Int) -> (line: Int, character: Int) {
        var line = 0, character = 0
        for scalar in cell.unicodeScalars.prefix(max(0, offset)) {
            if scalar == "\n" {
                line += 1
                character = 0
            } else {
                character += UTF16.width(scalar)
            }
        }
        // The magic line gained "//" in the document.
        if line == 0, cell.hasPrefix("%") { character += 2 }
        return (prefixLineCount + line, character)
    }

    /// The code-point offset in the cell of an LSP position, or nil when it lies in the
    /// imports.
    func cellOffset(line: Int, character: Int) -> Int? {
        let cellLine = line - prefixLineCount
        guard cellLine >= 0 else { return nil }
        var remaining = cellLine == 0 && cell.hasPrefix("%") ? character - 2 : character
        var currentLine = 0, offset = 0
        for scalar in cell.unicodeScalars {
            if currentLine == cellLine {
                if scalar == "\n" || remaining <= 0 { break }
                remaining -= UTF16.width(scalar)
            } else if scalar == "\n" {
                currentLine += 1
            }
            offset += 1
        }
        return currentLine == cellLine ? offset : nil
    }
}

/// Scanning a cell's text around the cursor, in code points.
enum CursorScan {
    /// True for characters that continue a Swift identifier.
    static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }

    /// The start of the identifier that ends at `cursor` (the cursor when there is none).
    static func identifierStart(in code: String, cursor: Int) -> Int {
        let scalars = Array(code.unicodeScalars)
        var start = min(max(0, cursor), scalars.count)
        while start > 0, isIdentifier(scalars[start - 1]) { start -= 1 }
        return start
    }

    /// The identifier under or just before the cursor, or nil.
    static func identifier(in code: String, cursor: Int) -> Range<Int>? {
        let scalars = Array(code.unicodeScalars)
        let cursor = min(max(0, cursor), scalars.count)
        var end = cursor
        while end < scalars.count, isIdentifier(scalars[end]) { end += 1 }
        let start = identifierStart(in: code, cursor: cursor)
        return start < end ? start..<end : nil
    }

    /// The innermost unclosed call around the cursor (`normalize(image, |`): its name's
    /// range and the offset of its `(`, or nil.
    static func enclosingCall(in code: String, cursor: Int) -> (callee: Range<Int>, parenthesis: Int)? {
        let scalars = Array(code.unicodeScalars)
        let cursor = min(max(0, cursor), scalars.count)
        var depth = 0
        var index = cursor - 1
        while index >= max(0, cursor - 2000) {
            switch scalars[index] {
            case ")", "]": depth += 1
            case "(", "[":
                if depth == 0 {
                    guard scalars[index] == "(" else { return nil }
                    var nameEnd = index
                    while nameEnd > 0, scalars[nameEnd - 1] == " " { nameEnd -= 1 }
                    let nameStart = identifierStart(in: code, cursor: nameEnd)
                    return nameStart < nameEnd ? (nameStart..<nameEnd, index) : nil
                }
                depth -= 1
            default: break
            }
            index -= 1
        }
        return nil
    }

    /// True when an identifier starts an argument (`(` or `,` before it): in
    /// `Model(contentsOf` it is a label being typed, and the call is what to inspect.
    static func isArgumentStart(_ range: Range<Int>, in code: String) -> Bool {
        let scalars = Array(code.unicodeScalars)
        var index = range.lowerBound - 1
        while index >= 0, scalars[index] == " " || scalars[index] == "\n" { index -= 1 }
        return index >= 0 && (scalars[index] == "(" || scalars[index] == ",")
    }

    /// The identifier to inspect at `cursor`: the one under or just before the cursor,
    /// or else the function whose call's parentheses hold the cursor (`normalize(|`).
    /// - Returns: its code-point range, or nil.
    static func inspectedIdentifier(in code: String, cursor: Int) -> Range<Int>? {
        identifier(in: code, cursor: cursor) ?? enclosingCall(in: code, cursor: cursor)?.callee
    }

    /// The text of a code-point range of `code`.
    static func text(of range: Range<Int>, in code: String) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: Array(code.unicodeScalars)[range])
        return String(view)
    }
}

extension CursorScan {
    /// True when `code` at `cursor` is `previous` at `previousCursor` with identifier
    /// characters typed at that cursor (the user went on typing the same name).
    static func continues(_ code: String, cursor: Int, previous: String, previousCursor: Int) -> Bool {
        let new = Array(code.unicodeScalars), old = Array(previous.unicodeScalars)
        guard cursor >= previousCursor, previousCursor <= old.count, cursor <= new.count,
              new.count - cursor == old.count - previousCursor else { return false }
        return new[..<previousCursor].elementsEqual(old[..<previousCursor])
            && new[cursor...].elementsEqual(old[previousCursor...])
            && new[previousCursor..<cursor].allSatisfy(isIdentifier)
    }
}
