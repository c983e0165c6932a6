/// A value as one short line of text, for `%who`: what a cell's result would show (its
/// debug description), built with a bound on the work.
///
/// A type's own description is used as it is. Other values are described the way Swift's
/// default description does (`Point(x: 1, y: 2)`), but from `Mirror` with limits: an array,
/// a dictionary or a set shows its first elements and its count, nesting stops at a few
/// levels, and nothing is built past a couple of hundred characters. (Swift's default
/// description of a struct holding 7.8 million pixels is 30 MB of text and takes seconds.)
enum ValueSummary {
    /// Elements shown of an array, a dictionary or a set.
    static let shownElements = 8
    /// Characters built at most (the line is cut shorter when shown).
    static let characterBudget = 240
    /// Levels of stored properties followed.
    static let depth = 3

    /// The line, and the element count of an array, a dictionary or a set.
    static func of<T>(_ value: T) -> (text: String, count: Int?) {
        var text = BoundedText(limit: characterBudget)
        write(value, to: &text, depth: 0)
        let count = (value as? ListedContainer)?.listedCount
        return (TextLine.oneLine(TypeNames.userFacing(text.result)), count)
    }

    /// Writes `value` as far as the budget goes.
    static func write(_ value: Any, to text: inout BoundedText, depth: Int) {
        guard !text.isFull else { return }
        if let container = value as? ListedContainer {
            container.writeElements(to: &text, limit: shownElements, depth: depth)
            return
        }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {   // the type column says it is optional
            if let wrapped = mirror.children.first { write(wrapped.value, to: &text, depth: depth) } else { text.append("nil") }
            return
        }
        if value is CustomDebugStringConvertible || value is CustomStringConvertible || value is TextOutputStreamable {
            text.append(String(reflecting: value))
            return
        }
        switch mirror.displayStyle {
        case .class, .enum where mirror.children.isEmpty:
            text.append(String(reflecting: value))   // Swift's default: the class's name, the case
        case .enum:
            let payload = mirror.children.first!
            text.append("\(String(describing: type(of: value))).\(payload.label ?? "")")
            let inner = Mirror(reflecting: payload.value)
            if inner.displayStyle == .tuple {
                writeFields(inner, to: &text, depth: depth)
            } else {
                text.append("(")
                write(payload.value, to: &text, depth: depth + 1)
                text.append(")")
            }
        case .tuple:
            writeFields(mirror, to: &text, depth: depth)
        default:
            text.append(String(describing: type(of: value)))
            writeFields(mirror, to: &text, depth: depth)
        }
    }

    /// `(label: value, …)` from a mirror's children (a tuple's `.0` labels are left out).
    private static func writeFields(_ mirror: Mirror, to text: inout BoundedText, depth: Int) {
        text.append("(")
        guard depth < Self.depth else { return text.append(mirror.children.isEmpty ? ")" : "…)") }
        for (index, child) in mirror.children.enumerated() {
            guard !text.isFull else { return }
            if index > 0 { text.append(", ") }
            if let label = child.label, !label.hasPrefix(".") { text.append(label + ": ") }
            write(child.value, to: &text, depth: depth + 1)
        }
        text.append(")")
    }
}

/// Text that stops growing at a limit (and says so with `…`).
struct BoundedText {
    let limit: Int
    private(set) var result = ""

    init(limit: Int) { self.limit = limit }

    /// True once the limit is reached: writers stop walking the value.
    var isFull: Bool { result.count >= limit }

    mutating func append(_ piece: String) {
        guard !isFull else { return }
        if result.count + piece.count <= limit {
            result += piece
        } else {
            result += piece.prefix(limit - result.count) + "…"
        }
    }
}

/// The standard containers, whose description would list every element.
protocol ListedContainer {
    var listedCount: Int { get }
    /// Writes the first `limit` elements, and `…` when there are more.
    func writeElements(to text: inout BoundedText, limit: Int, depth: Int)
}

extension Collection {
    fileprivate func write(to text: inout BoundedText, limit: Int, open: String, close: String,
                           _ element: (Element, inout BoundedText) -> Void) {
        text.append(open)
        for (index, value) in prefix(limit).enumerated() {
            guard !text.isFull else { return }
            if index > 0 { text.append(", ") }
            element(value, &text)
        }
        if count > limit { text.append(", …") }
        text.append(close)
    }
}

extension Array: ListedContainer {
    var listedCount: Int { count }
    func writeElements(to text: inout BoundedText, limit: Int, depth: Int) {
        write(to: &text, limit: limit, open: "[", close: "]") { ValueSummary.write($0, to: &$1, depth: depth + 1) }
    }
}

extension ArraySlice: ListedContainer {
    var listedCount: Int { count }
    func writeElements(to text: inout BoundedText, limit: Int, depth: Int) {
        write(to: &text, limit: limit, open: "[", close: "]") { ValueSummary.write($0, to: &$1, depth: depth + 1) }
    }
}

extension ContiguousArray: ListedContainer {
    var listedCount: Int { count }
    func writeElements(to text: inout BoundedText, limit: Int, depth: Int) {
        write(to: &text, limit: limit, open: "[", close: "]") { ValueSummary.write($0, to: &$1, depth: depth + 1) }
    }
}

extension Set: ListedContainer {
    var listedCount: Int { count }
    func writeElements(to text: inout BoundedText, limit: Int, depth: Int) {
        write(to: &text, limit: limit, open: "Set([", close: "])") { ValueSummary.write($0, to: &$1, depth: depth + 1) }
    }
}

extension Dictionary: ListedContainer {
    var listedCount: Int { count }
    func writeElements(to text: inout BoundedText, limit: Int, depth: Int) {
        guard !isEmpty else { return text.append("[:]") }
        write(to: &text, limit: limit, open: "[", close: "]") { entry, text in
            ValueSummary.write(entry.key, to: &text, depth: depth + 1)
            text.append(": ")
            ValueSummary.write(entry.value, to: &text, depth: depth + 1)
        }
    }
}
