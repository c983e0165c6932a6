// Functions: parameters and labels, defaults, variadics, in-out, multiple return values,
// optional tuples, function types, nested functions, implicit returns.
//% cell
func greet(person: String) -> String {
    let greeting = "Hello, " + person + "!"
    return greeting
}
func greet(person: String, alreadyGreeted: Bool) -> String {
    alreadyGreeted ? "Hello again, \(person)!" : greet(person: person)
}
//% cell
print(greet(person: "Tim", alreadyGreeted: true))
print(greet(person: "Anna"))
//% cell
func minMax(array: [Int]) -> (min: Int, max: Int)? {
    if array.isEmpty { return nil }
    var currentMin = array[0]
    var currentMax = array[0]
    for value in array[1..<array.count] {
        if value < currentMin { currentMin = value } else if value > currentMax { currentMax = value }
    }
    return (currentMin, currentMax)
}
if let bounds = minMax(array: [8, -6, 2, 109, 3, 71]) {
    print("min is \(bounds.min) and max is \(bounds.max)")
}
//% cell
func arithmeticMean(_ numbers: Double...) -> Double {
    var total: Double = 0
    for number in numbers { total += number }
    return total / Double(numbers.count)
}
func someFunction(parameterWithoutDefault: Int, parameterWithDefault: Int = 12) -> Int {
    parameterWithoutDefault + parameterWithDefault
}
print(arithmeticMean(1, 2, 3, 4, 5), arithmeticMean(3, 8.25, 18.75), someFunction(parameterWithoutDefault: 4))
//% cell
func swapTwoInts(_ a: inout Int, _ b: inout Int) {
    let temporaryA = a
    a = b
    b = temporaryA
}
var someInt = 3
var anotherInt = 107
swapTwoInts(&someInt, &anotherInt)
print("someInt is now \(someInt), and anotherInt is now \(anotherInt)")
//% cell
func addTwoInts(_ a: Int, _ b: Int) -> Int { a + b }
func multiplyTwoInts(_ a: Int, _ b: Int) -> Int { a * b }
var mathFunction: (Int, Int) -> Int = addTwoInts
print("Result: \(mathFunction(2, 3))")
mathFunction = multiplyTwoInts
print("Result: \(mathFunction(2, 3))")
func printMathResult(_ mathFunction: (Int, Int) -> Int, _ a: Int, _ b: Int) {
    print("Result: \(mathFunction(a, b))")
}
printMathResult(addTwoInts, 3, 5)
//% cell
func chooseStepFunction(backward: Bool) -> (Int) -> Int {
    func stepForward(input: Int) -> Int { input + 1 }
    func stepBackward(input: Int) -> Int { input - 1 }
    return backward ? stepBackward : stepForward
}
var currentValue = -4
let moveNearerToZero = chooseStepFunction(backward: currentValue > 0)
while currentValue != 0 {
    print("\(currentValue)... ", terminator: "")
    currentValue = moveNearerToZero(currentValue)
}
print("zero!")
