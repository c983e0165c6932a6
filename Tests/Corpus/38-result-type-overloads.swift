// Functions that differ only in their result type, declared in different parts of the
// program: a call is resolved by the type its context expects.
//% cell
func parse(_ text: String) -> Int { Int(text) ?? 0 }
//% cell
func parse(_ text: String) -> Double { Double(text) ?? 0 }
func parse(_ text: String) -> [String] { text.split(separator: ",").map(String.init) }
//% cell
let whole: Int = parse("42")
let fraction: Double = parse("2.5")
let parts: [String] = parse("a,b,c")
print(whole, fraction, parts)
//% cell
func zero() -> Int { 0 }
func zero() -> String { "zero" }
func takesInt(_ x: Int) -> Int { x + 1 }
func takesString(_ s: String) -> String { s + "!" }
print(takesInt(zero()), takesString(zero()), parse("7") as Int + 1)
//% cell
struct Meters { var value: Double }
extension Meters {
    static func make() -> Meters { Meters(value: 1) }
}
func make() -> Meters { Meters(value: 2) }
func make() -> Int { 3 }
let m: Meters = make()
let n: Int = make()
print(m.value, n, Meters.make().value)
