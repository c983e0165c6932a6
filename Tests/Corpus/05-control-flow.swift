// Control Flow: for-in, while, repeat, if, switch with ranges, tuples, value bindings and
// where, labeled statements, guard, defer, availability.
//% cell
let numberOfLegs = ["spider": 8, "ant": 6, "cat": 4]
for (animalName, legCount) in numberOfLegs.sorted(by: { $0.key < $1.key }) {
    print("\(animalName)s have \(legCount) legs")
}
let base = 3, power = 10
var answer = 1
for _ in 1...power { answer *= base }
print("\(base) to the power of \(power) is \(answer)")
for tickMark in stride(from: 0, to: 60, by: 15) { print(tickMark, terminator: " ") }
print()
//% cell
let finalSquare = 25
var board = [Int](repeating: 0, count: finalSquare + 1)
board[03] = +08; board[06] = +11; board[09] = +09; board[10] = +02
board[14] = -10; board[19] = -11; board[22] = -02; board[24] = -08
var square = 0
var diceRoll = 0
repeat {
    square += board[square]
    diceRoll += 1
    if diceRoll == 7 { diceRoll = 1 }
    square += diceRoll
} while square < finalSquare
print("Game over!", square)
//% cell
let approximateCount = 62
let naturalCount: String
switch approximateCount {
case 0: naturalCount = "no"
case 1..<5: naturalCount = "a few"
case 5..<12: naturalCount = "several"
case 12..<100: naturalCount = "dozens of"
default: naturalCount = "many"
}
print("There are \(naturalCount) moons orbiting Saturn.")
let somePoint = (1, -1)
switch somePoint {
case let (x, y) where x == y: print("(\(x), \(y)) is on the line x == y")
case let (x, y) where x == -y: print("(\(x), \(y)) is on the line x == -y")
case let (x, y): print("(\(x), \(y)) is just some arbitrary point")
}
//% cell
let puzzleInput = "great minds think alike"
var puzzleOutput = ""
let charactersToRemove: [Character] = ["a", "e", "i", "o", "u", " "]
for character in puzzleInput {
    if charactersToRemove.contains(character) { continue }
    puzzleOutput.append(character)
}
print(puzzleOutput)
let integerToDescribe = 5
var description = "The number \(integerToDescribe) is"
switch integerToDescribe {
case 2, 3, 5, 7, 11, 13, 17, 19:
    description += " a prime number, and also"
    fallthrough
default:
    description += " an integer."
}
print(description)
//% cell
outer: for i in 1...3 {
    for j in 1...3 {
        if j == 2 { continue outer }
        if i == 3 { break outer }
        print(i, j)
    }
}
func greet(person: [String: String]) {
    guard let name = person["name"] else { return }
    print("Hello \(name)!")
    guard let location = person["location"] else {
        print("I hope the weather is nice near you.")
        return
    }
    print("I hope the weather is nice in \(location).")
}
greet(person: ["name": "John"])
greet(person: ["name": "Jane", "location": "Cupertino"])
//% cell
var score = 1
if score < 10 {
    defer { print(score) }
    score += 5
}
if #available(macOS 10.12, *) { print("available") }
