// `private` and `fileprivate` mean "this file" in Swift: in one main.swift, an extension
// later in the file can use a type's private member, and a later statement can use a
// file-private constant or function. A notebook is that file.
//% cell
struct Counter {
    private var count = 0
    fileprivate var step = 1
    private(set) var resets = 0
    mutating func increment() { count += step }
    mutating func reset() { count = 0; resets += 1 }
}
private let greeting = "hello"
fileprivate func shout(_ text: String) -> String { text.uppercased() + "!" }
//% cell
extension Counter {
    var current: Int { count }
    mutating func double() { step *= 2 }
}
private extension Counter {
    var described: String { "count \(count), step \(step)" }
}
//% cell
var counter = Counter()
counter.increment()
counter.double()
counter.increment()
print(counter.current, counter.described, counter.resets)
counter.reset()
print(counter.current, counter.resets)
print(shout(greeting))
//% cell
private struct Secret { fileprivate let code = 42 }
final class Vault {
    private var secrets: [Secret] = []
    fileprivate func store() { secrets.append(Secret()) }
    var total: Int { secrets.reduce(0) { $0 + $1.code } }
}
//% cell
let vault = Vault()
vault.store()
vault.store()
print(vault.total, Secret().code)
