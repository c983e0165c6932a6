// Basic Operators: arithmetic, remainder, compound assignment, comparison, ternary,
// nil-coalescing, ranges, logical operators.
//% cell
let (x, y) = (1, 2)
print(x + y, 9 % 4, -9 % 4, 1.5 * 4)
var a = 1
a += 2
a *= 3
print(a)
//% cell
print((1, "zebra") < (2, "apple"), (3, "apple") < (3, "bird"), (4, "dog") == (4, "dog"))
let contentHeight = 40
let hasHeader = true
let rowHeight = contentHeight + (hasHeader ? 50 : 20)
print(rowHeight)
//% cell
let defaultColorName = "red"
var userDefinedColorName: String?
var colorNameToUse = userDefinedColorName ?? defaultColorName
userDefinedColorName = "green"
colorNameToUse = userDefinedColorName ?? defaultColorName
print(colorNameToUse)
//% cell
for index in 1...3 {
    print("\(index) times 5 is \(index * 5)")
}
let names = ["Anna", "Alex", "Brian", "Jack"]
for i in 0..<names.count {
    print("Person \(i + 1) is called \(names[i])")
}
for name in names[2...] { print(name) }
for name in names[..<2] { print(name) }
let range = ...5
print(range.contains(7), range.contains(4), range.contains(-1))
//% cell
let enteredDoorCode = true
let passedRetinaScan = false
let hasDoorKey = false
let knowsOverridePassword = true
if (enteredDoorCode && passedRetinaScan) || hasDoorKey || knowsOverridePassword {
    print("Welcome!")
} else {
    print("ACCESS DENIED")
}
