// Enumerations: switch over cases, CaseIterable, associated values, raw values, recursive
// enumerations.
//% cell
enum CompassPoint: CaseIterable {
    case north, south, east, west
}
var directionToHead = CompassPoint.west
directionToHead = .south
switch directionToHead {
case .north: print("Lots of planets have a north")
case .south: print("Watch out for penguins")
case .east: print("Where the sun rises")
case .west: print("Where the skies are blue")
}
print("\(CompassPoint.allCases.count) directions")
//% cell
enum Barcode {
    case upc(Int, Int, Int, Int)
    case qrCode(String)
}
var productBarcode = Barcode.upc(8, 85909, 51226, 3)
productBarcode = .qrCode("ABCDEFGHIJKLMNOP")
switch productBarcode {
case let .upc(numberSystem, manufacturer, product, check):
    print("UPC : \(numberSystem), \(manufacturer), \(product), \(check).")
case let .qrCode(productCode):
    print("QR code: \(productCode).")
}
//% cell
enum Planet: Int {
    case mercury = 1, venus, earth, mars, jupiter, saturn, uranus, neptune
}
let earthsOrder = Planet.earth.rawValue
let positionToFind = 11
if let somePlanet = Planet(rawValue: positionToFind) {
    print(somePlanet)
} else {
    print("There isn't a planet at position \(positionToFind)")
}
enum ASCIIControlCharacter: Character {
    case tab = "\t", lineFeed = "\n", carriageReturn = "\r"
}
print(earthsOrder, Planet(rawValue: 7)!, ASCIIControlCharacter.lineFeed.rawValue == "\n")
//% cell
indirect enum ArithmeticExpression {
    case number(Int)
    case addition(ArithmeticExpression, ArithmeticExpression)
    case multiplication(ArithmeticExpression, ArithmeticExpression)
}
func evaluate(_ expression: ArithmeticExpression) -> Int {
    switch expression {
    case let .number(value): return value
    case let .addition(left, right): return evaluate(left) + evaluate(right)
    case let .multiplication(left, right): return evaluate(left) * evaluate(right)
    }
}
//% cell
let five = ArithmeticExpression.number(5)
let four = ArithmeticExpression.number(4)
let sum = ArithmeticExpression.addition(five, four)
let product = ArithmeticExpression.multiplication(sum, ArithmeticExpression.number(2))
print(evaluate(product))
