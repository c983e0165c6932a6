// EXPECT-MISMATCH: private-across-cells
// `private` and `fileprivate` mean "this file" in Swift; in one main.swift an extension
// later in the file can use a private member. In a notebook each cell is its own file, so
// a later cell cannot.
//% cell
struct Counter {
    private var count = 0
    mutating func increment() { count += 1 }
}
//% cell
extension Counter {
    var current: Int { count }
}
//% cell
var counter = Counter()
counter.increment()
print(counter.current)
