// Protocols across cells: property and method requirements, mutating requirements,
// initialiser requirements, protocols as types, delegation, conformance added by an
// extension in a later cell, protocol inheritance, composition, optional-free defaults
// through protocol extensions.
//% cell
protocol FullyNamed {
    var fullName: String { get }
}
struct Person: FullyNamed {
    var fullName: String
}
class Starship: FullyNamed {
    var prefix: String?
    var name: String
    init(name: String, prefix: String? = nil) {
        self.name = name
        self.prefix = prefix
    }
    var fullName: String { (prefix != nil ? prefix! + " " : "") + name }
}
//% cell
let john = Person(fullName: "John Appleseed")
let ncc1701 = Starship(name: "Enterprise", prefix: "USS")
let named: [FullyNamed] = [john, ncc1701]
print(named.map(\.fullName))
//% cell
protocol RandomNumberGenerator {
    func random() -> Double
}
class LinearCongruentialGenerator: RandomNumberGenerator {
    var lastRandom = 42.0
    let m = 139968.0
    let a = 3877.0
    let c = 29573.0
    func random() -> Double {
        lastRandom = ((lastRandom * a + c).truncatingRemainder(dividingBy: m))
        return lastRandom / m
    }
}
class Dice {
    let sides: Int
    let generator: RandomNumberGenerator
    init(sides: Int, generator: RandomNumberGenerator) {
        self.sides = sides
        self.generator = generator
    }
    func roll() -> Int { Int(generator.random() * Double(sides)) + 1 }
}
//% cell
var d6 = Dice(sides: 6, generator: LinearCongruentialGenerator())
for _ in 1...5 { print("Random dice roll is \(d6.roll())") }
//% cell
protocol TextRepresentable {
    var textualDescription: String { get }
}
extension Dice: TextRepresentable {
    var textualDescription: String { "A \(sides)-sided dice" }
}
//% cell
let d12 = Dice(sides: 12, generator: LinearCongruentialGenerator())
print(d12.textualDescription)
let things: [TextRepresentable] = [d12, d6]
for thing in things { print(thing.textualDescription) }
//% cell
protocol Togglable { mutating func toggle() }
enum OnOffSwitch: Togglable {
    case off, on
    mutating func toggle() {
        switch self {
        case .off: self = .on
        case .on: self = .off
        }
    }
}
var lightSwitch = OnOffSwitch.off
lightSwitch.toggle()
print(lightSwitch)
//% cell
protocol Named { var name: String { get } }
protocol Aged { var age: Int { get } }
struct Student: Named, Aged {
    var name: String
    var age: Int
}
func wishHappyBirthday(to celebrator: Named & Aged) {
    print("Happy birthday, \(celebrator.name), you're \(celebrator.age)!")
}
wishHappyBirthday(to: Student(name: "Malcolm", age: 21))
//% cell
extension RandomNumberGenerator {
    func randomBool() -> Bool { random() > 0.5 }
}
let generator = LinearCongruentialGenerator()
print("Here's a random number: \(generator.random())")
print("And here's a random Boolean: \(generator.randomBool())")
