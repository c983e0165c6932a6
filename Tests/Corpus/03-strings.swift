// Strings and Characters: literals, multiline, interpolation, characters, indices,
// substrings, comparison.
//% cell
let quotation = """
The White Rabbit put on his spectacles.  "Where shall I begin, \
please your Majesty?" he asked.
"""
print(quotation)
let wiseWords = "\"Imagination is more important than knowledge\" - Einstein"
print(wiseWords)
//% cell
var variableString = "Horse"
variableString += " and carriage"
let exclamationMark: Character = "!"
variableString.append(exclamationMark)
print(variableString, variableString.count)
let catCharacters: [Character] = ["C", "a", "t", "!", "🐱"]
let catString = String(catCharacters)
print(catString, catString.count)
//% cell
let multiplier = 3
let message = "\(multiplier) times 2.5 is \(Double(multiplier) * 2.5)"
print(message)
let greeting = "Guten Tag!"
print(greeting[greeting.startIndex], greeting[greeting.index(before: greeting.endIndex)])
let index = greeting.index(greeting.startIndex, offsetBy: 7)
print(greeting[index])
//% cell
var welcome = "hello"
welcome.insert("!", at: welcome.endIndex)
welcome.insert(contentsOf: " there", at: welcome.index(before: welcome.endIndex))
print(welcome)
let range = welcome.index(welcome.endIndex, offsetBy: -6)..<welcome.endIndex
welcome.removeSubrange(range)
print(welcome)
//% cell
let hello = "Hello, world!"
let comma = hello.firstIndex(of: ",") ?? hello.endIndex
let beginning = hello[..<comma]
let newString = String(beginning)
print(newString, hello.hasPrefix("Hello"), hello.hasSuffix("!"))
let eAcuteQuestion = "Voulez-vous un caf\u{E9}?"
let combinedEAcuteQuestion = "Voulez-vous un caf\u{65}\u{301}?"
print(eAcuteQuestion == combinedEAcuteQuestion)
for scalar in "Dog‼".unicodeScalars { print(scalar.value, terminator: " ") }
print()
