// Pattern matching: tuples, ranges, enum payloads with where, if case, for case, optional
// patterns, expression patterns with a custom ~= operator.
//% cell
enum Token {
    case number(Int)
    case word(String)
    case symbol(Character)
}
let tokens: [Token] = [.number(3), .word("apples"), .symbol("+"), .number(12), .word("pears"), .symbol("=")]
//% cell
for token in tokens {
    switch token {
    case .number(let n) where n > 10: print("big number \(n)")
    case .number(let n): print("number \(n)")
    case .word(let w) where w.hasSuffix("s"): print("plural \(w)")
    case .word(let w): print("word \(w)")
    case .symbol(let c): print("symbol \(c)")
    }
}
//% cell
for case .word(let w) in tokens { print("only words:", w) }
if case .number(let first) = tokens[0], first < 5 { print("starts small:", first) }
let maybeValues: [Int?] = [1, nil, 3]
for case let value? in maybeValues { print("value", value) }
//% cell
func ~= (pattern: ClosedRange<Double>, value: Int) -> Bool { pattern.contains(Double(value)) }
func classify(_ point: (Int, Int)) -> String {
    switch point {
    case (0, 0): return "origin"
    case (_, 0): return "on the x-axis"
    case (0, _): return "on the y-axis"
    case (-2.5...2.5, -2...2): return "near the origin"
    default: return "far away"
    }
}
print([(0, 0), (3, 0), (0, -1), (1, 1), (9, 9)].map(classify))
