// A small program a student writes: accounts with a protocol, a class hierarchy, errors and
// a ledger, built up cell by cell.
//% cell
enum BankError: Error, CustomStringConvertible {
    case insufficientFunds(needed: Int)
    case frozen(String)
    var description: String {
        switch self {
        case .insufficientFunds(let needed): return "needs \(needed) more"
        case .frozen(let owner): return "\(owner)'s account is frozen"
        }
    }
}
protocol Account: AnyObject {
    var owner: String { get }
    var balance: Int { get set }
    func withdraw(_ amount: Int) throws
}
extension Account {
    func deposit(_ amount: Int) { balance += amount }
}
//% cell
class CheckingAccount: Account {
    let owner: String
    var balance = 0
    var isFrozen = false
    init(owner: String) { self.owner = owner }
    func withdraw(_ amount: Int) throws {
        if isFrozen { throw BankError.frozen(owner) }
        guard amount <= balance else { throw BankError.insufficientFunds(needed: amount - balance) }
        balance -= amount
    }
}
class SavingsAccount: CheckingAccount {
    let rate: Double
    init(owner: String, rate: Double) {
        self.rate = rate
        super.init(owner: owner)
    }
    func addInterest() { balance += Int(Double(balance) * rate) }
    override func withdraw(_ amount: Int) throws {
        try super.withdraw(amount + 1)
    }
}
//% cell
var ledger: [String] = []
func transfer(_ amount: Int, from source: Account, to target: Account) {
    do {
        try source.withdraw(amount)
        target.deposit(amount)
        ledger.append("\(source.owner) -> \(target.owner): \(amount)")
    } catch {
        ledger.append("failed: \(error)")
    }
}
let alice = CheckingAccount(owner: "Alice")
let bob = SavingsAccount(owner: "Bob", rate: 0.05)
alice.deposit(100)
bob.deposit(40)
//% cell
transfer(30, from: alice, to: bob)
transfer(80, from: bob, to: alice)
bob.addInterest()
alice.isFrozen = true
transfer(5, from: alice, to: bob)
for line in ledger { print(line) }
print(alice.balance, bob.balance)
