/// What is before a completion's `.` when SourceKit-LSP is not ready: a type's name
/// (`Tensor.`) or a value of a known type (`classifier.`, `photo.resized(width: 8).`).
///
/// Read without the compiler, from the code that declared each notebook variable and the
/// declarations in the API index: an annotation (`var m: Model`), a call of a type
/// (`try Model(contentsOf: ...)`), a library function's or member's result type, a literal,
/// and chains of those (`try Image(contentsOfFile: p).resized(width: 8)`). Anything else
/// (operators, closures, generic code) is unknown: then only the notebook's names answer.
struct ReceiverTypes {
    /// What a receiver is.
    enum Receiver: Equatable {
        /// The name of a type: its initialisers, static members and nested types apply.
        case typeName(String)
        /// A value of this type: its instance members apply.
        case value(String)
    }

    /// The API index (members by type name, top-level declarations).
    let api: LibraryAPI
    /// The code that declared each notebook variable, by its name.
    let declarations: [String: String]
    /// Chains through notebook variables stop after this many steps (a guard against
    /// variables declared from each other).
    static let depthLimit = 6

    /// The receiver written in `text`, an expression such as `Tensor`, `photo` or
    /// `photo.resized(width: 8)`, or nil when its type is unknown.
    func receiver(_ text: String) -> Receiver? {
        receiver(of: Array(text.unicodeScalars), depth: 0)
    }

    /// The expression before the `.` at `dot` in `code` (a code-point offset), as
    /// written: identifiers, calls and member accesses, for example `photo.resized(width: 8)`.
    static func expression(before dot: Int, in code: String) -> String {
        let scalars = Array(code.unicodeScalars)
        var start = dot
        while start > 0 {
            let previous = scalars[start - 1]
            if CursorScan.isIdentifier(previous) || previous == "." || previous == "?" || previous == "!" {
                start -= 1
            } else if previous == ")" || previous == "]" {
                guard let open = Self.matchingOpen(scalars, close: start - 1) else { break }
                start = open
            } else {
                break
            }
        }
        var text = String(String.UnicodeScalarView(scalars[start..<dot]))
        while text.hasPrefix(".") { text.removeFirst() }
        return text
    }

    // MARK: Expressions

    private func receiver(of scalars: [Unicode.Scalar], depth: Int) -> Receiver? {
        var parser = ChainParser(scalars: scalars)
        parser.skipEffects()
        guard let primary = parser.primary() else { return nil }
        var current: Receiver?
        switch primary {
        case .literal(let type):
            current = .value(type)
        case .name(let name, let called):
            current = start(name, called: called, depth: depth)
        }
        while current != nil, let (member, called) = parser.member() {
            current = step(current!, member: member, called: called)
        }
        return parser.isAtEnd ? current : nil
    }

    /// The receiver a chain's first name gives.
    private func start(_ name: String, called: Bool, depth: Int) -> Receiver? {
        if let source = declarations[name], depth < Self.depthLimit {
            return called ? nil : variableType(name, declaredIn: source, depth: depth + 1).map(Receiver.value)
        }
        if isType(name) { return called ? .value(name) : .typeName(name) }
        let symbols = api.topLevelSymbols.filter { $0.baseName == name }
        if called, let function = symbols.first(where: { $0.kind == "function" }) {
            return Self.resultType(of: function).map(Receiver.value)
        }
        if !called, let variable = symbols.first(where: { $0.kind == "variable" }) {
            return Self.resultType(of: variable).map(Receiver.value)
        }
        return nil
    }

    /// The receiver after `.member` (or `.member(...)`).
    private func step(_ receiver: Receiver, member: String, called: Bool) -> Receiver? {
        switch receiver {
        case .typeName(let type):
            if member == "init" { return called ? .value(type) : nil }
            let candidates = api.members(of: type).filter { $0.baseName == member }
            guard let symbol = candidates.first else { return nil }
            switch symbol.kind {
            case "enum member": return .value(type)
            case "struct", "class", "enum", "type", "interface": return called ? .value(member) : .typeName(member)
            default: return Self.resultType(of: symbol, called: called, in: type).map(Receiver.value)
            }
        case .value(let type):
            if member == "[]" { return Self.element(of: type).map(Receiver.value) }
            let candidates = api.members(of: Self.indexKey(type)).filter { $0.baseName == member && !Self.isStatic($0) }
            guard let symbol = candidates.first(where: { ($0.kind == "variable") != called }) else { return nil }
            return Self.resultType(of: symbol, called: called, in: type).map(Receiver.value)
        }
    }

    /// The index's key for a type: `[Model]` gives `Array`.
    static func indexKey(_ type: String) -> String {
        type.hasPrefix("[") ? "Array" : type
    }

    /// The element type of an array type (`[Model]` gives `Model`), or nil.
    static func element(of type: String) -> String? {
        guard type.hasPrefix("["), type.hasSuffix("]"), type.count > 2 else { return nil }
        return String(type.dropFirst().dropLast())
    }

    /// The type of a notebook variable from the code that declared it.
    private func variableType(_ name: String, declaredIn source: String, depth: Int) -> String? {
        let scalars = Array(source.unicodeScalars)
        let target = Array(name.unicodeScalars)
        var index = 0
        while index + target.count <= scalars.count {
            defer { index += 1 }
            guard Array(scalars[index..<(index + target.count)]) == target,
                  index == 0 || !CursorScan.isIdentifier(scalars[index - 1]),
                  index + target.count == scalars.count || !CursorScan.isIdentifier(scalars[index + target.count]),
                  Self.followsIntroducer(scalars, at: index) else { continue }
            var after = index + target.count
            while after < scalars.count, scalars[after] == " " { after += 1 }
            if after < scalars.count, scalars[after] == ":" {
                let annotation = String(String.UnicodeScalarView(scalars[(after + 1)...].prefix { $0 != "=" && $0 != "\n" && $0 != "{" }))
                return Self.normalised(annotation, in: nil)
            }
            guard after < scalars.count, scalars[after] == "=" else { return nil }
            let line = scalars[(after + 1)...]
            if case .value(let type) = receiver(of: Array(Self.statement(line)), depth: depth) { return type }
            return nil
        }
        return nil
    }

    /// True when `let`/`var` (and spaces) come right before `index`.
    private static func followsIntroducer(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var end = index
        while end > 0, scalars[end - 1] == " " { end -= 1 }
        guard end < index, end >= 3 else { return false }
        let word = String(String.UnicodeScalarView(scalars[(end - 3)..<end]))
        return (word == "let" || word == "var") && (end == 3 || !CursorScan.isIdentifier(scalars[end - 4]))
    }

    /// A statement's text: up to its line's end, and on over lines that continue a chain
    /// (start with `.`) or an open parenthesis.
    private static func statement(_ scalars: ArraySlice<Unicode.Scalar>) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        var depth = 0
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "(" || scalar == "[" { depth += 1 }
            if scalar == ")" || scalar == "]" { depth -= 1 }
            if scalar == ";" && depth == 0 { break }
            if scalar == "\n" && depth <= 0 {
                let rest = scalars[(index + 1)...].drop { $0 == " " || $0 == "\t" }
                if rest.first != "." { break }
            }
            result.append(scalar)
            index += 1
        }
        return result
    }

    // MARK: The index

    private func isType(_ name: String) -> Bool {
        !api.members(of: name).isEmpty
            || api.topLevelSymbols.contains { $0.baseName == name && ["struct", "class", "enum", "type"].contains($0.kind) }
    }

    /// True for a `static` or `class` member (a type's, not a value's).
    static func isStatic(_ symbol: LibraryAPI.Symbol) -> Bool {
        let head = symbol.declaration.prefix { $0 != "(" && $0 != ":" && $0 != "=" }
        return head.split(separator: " ").contains { $0 == "static" || $0 == "class" }
            && !["struct", "class", "enum", "interface", "type"].contains(symbol.kind)
    }

    /// The type a declaration gives: a function's or method's result (when called), a
    /// property's type, an initialiser's type.
    static func resultType(of symbol: LibraryAPI.Symbol, called: Bool = true, in type: String? = nil) -> String? {
        let declaration = Array(symbol.declaration.unicodeScalars)
        switch symbol.kind {
        case "constructor":
            return called ? type : nil
        case "function", "method":
            guard called else { return nil }
            var depth = 0, arrow: Int?
            for index in declaration.indices {
                switch declaration[index] {
                case "(", "[", "<": depth += 1
                case ")", "]": depth -= 1
                case ">" where index > 0 && declaration[index - 1] == "-": if depth == 0 { arrow = index + 1 }
                case ">": depth -= 1
                default: break
                }
            }
            guard let arrow else { return nil }
            var text = String(String.UnicodeScalarView(declaration[arrow...]))
            if let clause = text.range(of: " where ") { text = String(text[..<clause.lowerBound]) }
            return normalised(text, in: type)
        case "variable":
            guard !called, let colon = declaration.firstIndex(of: ":") else { return nil }
            let text = declaration[(colon + 1)...].prefix { $0 != "{" && $0 != "=" }
            return normalised(String(String.UnicodeScalarView(text)), in: type)
        default:
            return nil
        }
    }

    /// The name the index keys a written type's members by: `Model?` and `Model!` give
    /// `Model`, `[Int]` gives `Array`, `Tensor.Storage` gives `Storage`, `Self` the type
    /// the member belongs to; a tuple, function or opaque type gives nil.
    static func normalised(_ written: String, in type: String?) -> String? {
        var text = written.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
        if text.hasPrefix("[") {
            if text.contains(":") { return "Dictionary" }
            guard text.hasSuffix("]"), let inner = normalised(String(text.dropFirst().dropLast()), in: type) else { return "Array" }
            return "[\(inner)]"
        }
        if text.hasPrefix("(") || text.hasPrefix("some ") || text.hasPrefix("any ") || text.contains("->") { return nil }
        if let generic = text.firstIndex(of: "<") { text = String(text[..<generic]) }
        if let last = text.split(separator: ".").last { text = String(last) }
        if text == "Self" { return type }
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
              text.unicodeScalars.allSatisfy(CursorScan.isIdentifier) else { return nil }
        return text
    }

    private static func matchingOpen(_ scalars: [Unicode.Scalar], close: Int) -> Int? {
        var depth = 0
        var index = close
        while index >= 0 {
            if scalars[index] == ")" || scalars[index] == "]" { depth += 1 }
            if scalars[index] == "(" || scalars[index] == "[" {
                depth -= 1
                if depth == 0 { return index }
            }
            index -= 1
        }
        return nil
    }
}

/// Reads a chain of names, calls and member accesses (`try Image(p).resized(width: 8)`).
private struct ChainParser {
    enum Primary {
        case name(String, called: Bool)
        case literal(String)
    }

    let scalars: [Unicode.Scalar]
    var index = 0

    /// True when only spaces (or a comment) are left.
    var isAtEnd: Bool {
        let rest = String(String.UnicodeScalarView(scalars[index...])).trimmingCharacters(in: .whitespacesAndNewlines)
        return rest.isEmpty || rest.hasPrefix("//")
    }

    /// Skips `try`, `try?`, `try!` and `await`.
    mutating func skipEffects() {
        while true {
            skipSpaces()
            let rest = String(String.UnicodeScalarView(scalars[index...]))
            if let word = ["try?", "try!", "try ", "await "].first(where: rest.hasPrefix) {
                index += word.unicodeScalars.count
            } else {
                return
            }
        }
    }

    mutating func primary() -> Primary? {
        skipSpaces()
        guard index < scalars.count else { return nil }
        let first = scalars[index]
        if first == "\"" {
            guard let close = scalars[(index + 1)...].firstIndex(of: "\"") else { return nil }
            index = close + 1
            return .literal("String")
        }
        if ("0"..."9").contains(first) {
            let number = scalars[index...].prefix { CursorScan.isIdentifier($0) || $0 == "." }
            index += number.count
            return .literal(number.contains(".") || number.contains("e") ? "Double" : "Int")
        }
        guard let name = identifier() else { return nil }
        if name == "true" || name == "false" { return .literal("Bool") }
        return .name(name, called: call())
    }

    /// The next `.member` or `.member(...)`, also after a line break or `?`/`!`.
    mutating func member() -> (String, Bool)? {
        let saved = index
        while index < scalars.count, scalars[index] == "?" || scalars[index] == "!" { index += 1 }
        skipSpaces(newlines: true)
        if index < scalars.count, scalars[index] == "[", index == saved || scalars[index - 1] != " " {
            skipBalanced()
            return ("[]", false)
        }
        guard index < scalars.count, scalars[index] == "." else { index = saved; return nil }
        index += 1
        guard let name = identifier() else { index = saved; return nil }
        return (name, call())
    }

    private mutating func identifier() -> String? {
        let start = index
        while index < scalars.count, CursorScan.isIdentifier(scalars[index]) { index += 1 }
        guard start < index, !("0"..."9").contains(scalars[start]) else { index = start; return nil }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    /// Skips a balanced `(...)` right after a name; true when there was one.
    private mutating func call() -> Bool {
        guard index < scalars.count, scalars[index] == "(" else { return false }
        skipBalanced()
        return true
    }

    /// Skips a balanced `(...)` or `[...]` at the index.
    private mutating func skipBalanced() {
        var depth = 0
        var inString = false
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\"" { inString.toggle() }
            if inString { continue }
            if scalar == "(" || scalar == "[" { depth += 1 }
            if scalar == ")" || scalar == "]" {
                depth -= 1
                if depth == 0 { return }
            }
        }
    }

    private mutating func skipSpaces(newlines: Bool = false) {
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" || (newlines && scalars[index] == "\n") {
            index += 1
        }
    }
}
