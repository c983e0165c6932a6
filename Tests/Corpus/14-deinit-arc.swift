// Deinitialization and Automatic Reference Counting: deinit when the last reference goes,
// weak and unowned references breaking cycles.
//% cell
class Person {
    let name: String
    init(name: String) {
        self.name = name
        print("\(name) is being initialized")
    }
    deinit { print("\(name) is being deinitialized") }
    var apartment: Apartment?
}
class Apartment {
    let unit: String
    init(unit: String) { self.unit = unit }
    weak var tenant: Person?
    deinit { print("Apartment \(unit) is being deinitialized") }
}
//% cell
var reference1: Person?
var reference2: Person?
reference1 = Person(name: "John Appleseed")
reference2 = reference1
reference1 = nil
print("still here")
reference2 = nil
//% cell
var john: Person?
var unit4A: Apartment?
john = Person(name: "John Appleseed")
unit4A = Apartment(unit: "4A")
john!.apartment = unit4A
unit4A!.tenant = john
john = nil
unit4A = nil
//% cell
class Customer {
    let name: String
    var card: CreditCard?
    init(name: String) { self.name = name }
    deinit { print("\(name) is being deinitialized") }
}
class CreditCard {
    let number: UInt64
    unowned let customer: Customer
    init(number: UInt64, customer: Customer) {
        self.number = number
        self.customer = customer
    }
    deinit { print("Card #\(number) is being deinitialized") }
}
var customer: Customer? = Customer(name: "John Appleseed")
customer!.card = CreditCard(number: 1234_5678_9012_3456, customer: customer!)
customer = nil
