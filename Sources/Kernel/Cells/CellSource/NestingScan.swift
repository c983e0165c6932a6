/// How deeply a cell's brackets nest, found by a linear scan that skips comments and
/// string literals (an approximation of Swift's lexer: enough to refuse pathological text
/// before a recursive parser sees it).
public struct NestingScan: Sendable, Equatable {
    /// The deepest nesting of `(`, `[` and `{` together.
    public private(set) var deepest = 0
    /// The deepest nesting of `[` alone (Swift's parser slows down exponentially with it).
    public private(set) var deepestSquare = 0

    /// The deepest nesting the cell parser accepts.
    public static let limit = 256

    /// Scans `text`.
    public init(_ text: String) {
        var stack: [UInt8] = []
        var squares = 0
        let bytes = Array(text.utf8)
        var index = 0
        // Interpolations (`\(`) inside strings nest like code; `stringDepths` holds the
        // bracket depth at which each open string's interpolation began.
        var stringDepths: [Int] = []
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                var level = 0
                repeat {
                    if at(0) == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") { level += 1; index += 2; continue }
                    if at(0) == UInt8(ascii: "*"), at(1) == UInt8(ascii: "/") { level -= 1; index += 2; continue }
                    index += 1
                } while level > 0 && index < bytes.count
                continue
            }
            if byte == UInt8(ascii: "\"") {
                // Skip the literal up to its end or to an interpolation.
                let multiline = at(1) == UInt8(ascii: "\"") && at(2) == UInt8(ascii: "\"")
                index += multiline ? 3 : 1
                var resumed = false
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "\\") {
                        if at(1) == UInt8(ascii: "(") {
                            stringDepths.append(stack.count)
                            stack.append(UInt8(ascii: "("))
                            index += 2
                            resumed = true
                            break
                        }
                        index += 2
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "\"") {
                        if !multiline { index += 1; break }
                        if at(1) == UInt8(ascii: "\""), at(2) == UInt8(ascii: "\"") { index += 3; break }
                    }
                    if !multiline, bytes[index] == 0x0A { break }
                    index += 1
                }
                if resumed { deepest = max(deepest, stack.count) }
                continue
            }
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                stack.append(byte)
                if byte == UInt8(ascii: "[") { squares += 1 }
                deepest = max(deepest, stack.count)
                deepestSquare = max(deepestSquare, squares)
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let open = stack.popLast(), open == UInt8(ascii: "[") { squares -= 1 }
                if let resume = stringDepths.last, resume == stack.count, byte == UInt8(ascii: ")") {
                    // The interpolation closed: continue inside the string it interrupted.
                    stringDepths.removeLast()
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                        index += 1
                    }
                }
            default:
                break
            }
            index += 1
        }
    }

    /// Why the cell parser refuses this text, or nil when it accepts it.
    public var refusal: String? {
        guard deepest > Self.limit else { return nil }
        return "This cell nests brackets \(deepest) levels deep; the kernel reads at most \(Self.limit) levels. "
            + "Nothing ran. Build deeply nested values in a loop or split the expression."
    }
}
