// Error Handling: throwing functions and initialisers, do-catch with patterns, try?, try!,
// rethrowing, defer, a throwing top-level statement caught in a later cell.
//% cell
enum VendingMachineError: Error {
    case invalidSelection
    case insufficientFunds(coinsNeeded: Int)
    case outOfStock
}
struct Item {
    var price: Int
    var count: Int
}
class VendingMachine {
    var inventory = ["Candy Bar": Item(price: 12, count: 7), "Chips": Item(price: 10, count: 4), "Pretzels": Item(price: 7, count: 11)]
    var coinsDeposited = 0
    func vend(itemNamed name: String) throws {
        guard let item = inventory[name] else { throw VendingMachineError.invalidSelection }
        guard item.count > 0 else { throw VendingMachineError.outOfStock }
        guard item.price <= coinsDeposited else {
            throw VendingMachineError.insufficientFunds(coinsNeeded: item.price - coinsDeposited)
        }
        coinsDeposited -= item.price
        var newItem = item
        newItem.count -= 1
        inventory[name] = newItem
        print("Dispensing \(name)")
    }
}
//% cell
let favoriteSnacks = ["Alice": "Chips", "Bob": "Licorice", "Eve": "Pretzels"]
func buyFavoriteSnack(person: String, vendingMachine: VendingMachine) throws {
    let snackName = favoriteSnacks[person] ?? "Candy Bar"
    try vendingMachine.vend(itemNamed: snackName)
}
var vendingMachine = VendingMachine()
vendingMachine.coinsDeposited = 8
do {
    try buyFavoriteSnack(person: "Alice", vendingMachine: vendingMachine)
    print("Success! Yum.")
} catch VendingMachineError.invalidSelection {
    print("Invalid Selection.")
} catch VendingMachineError.outOfStock {
    print("Out of Stock.")
} catch VendingMachineError.insufficientFunds(let coinsNeeded) {
    print("Insufficient funds. Please insert an additional \(coinsNeeded) coins.")
} catch {
    print("Unexpected error: \(error).")
}
//% cell
func someThrowingFunction(_ fail: Bool) throws -> Int {
    if fail { throw VendingMachineError.outOfStock }
    return 42
}
let x = try? someThrowingFunction(true)
let y = try? someThrowingFunction(false)
let z = try! someThrowingFunction(false)
print(x as Any, y as Any, z)
//% cell
vendingMachine.coinsDeposited = 20
try vendingMachine.vend(itemNamed: "Pretzels")
print("after a throwing statement that did not throw")
//% cell
func processFile() -> String {
    var log: [String] = []
    do {
        defer { log.append("closed") }
        log.append("opened")
        _ = try someThrowingFunction(true)
        log.append("never")
    } catch {
        log.append("caught \(error)")
    }
    return log.joined(separator: ", ")
}
print(processFile())
