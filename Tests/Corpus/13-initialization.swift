// Initialization: custom initialisers, argument labels, optional properties, delegation,
// designated and convenience initialisers over a hierarchy built in several cells,
// failable initialisers, required initialisers, default values from closures.
//% cell
struct Celsius {
    var temperatureInCelsius: Double
    init(fromFahrenheit fahrenheit: Double) { temperatureInCelsius = (fahrenheit - 32.0) / 1.8 }
    init(fromKelvin kelvin: Double) { temperatureInCelsius = kelvin - 273.15 }
    init(_ celsius: Double) { temperatureInCelsius = celsius }
}
print(Celsius(fromFahrenheit: 212.0).temperatureInCelsius, Celsius(fromKelvin: 273.15).temperatureInCelsius, Celsius(37.0).temperatureInCelsius)
//% cell
class Food {
    var name: String
    init(name: String) { self.name = name }
    convenience init() { self.init(name: "[Unnamed]") }
}
let namedMeat = Food(name: "Bacon")
let mysteryMeat = Food()
print(namedMeat.name, mysteryMeat.name)
//% cell
class RecipeIngredient: Food {
    var quantity: Int
    init(name: String, quantity: Int) {
        self.quantity = quantity
        super.init(name: name)
    }
    override convenience init(name: String) { self.init(name: name, quantity: 1) }
}
//% cell
class ShoppingListItem: RecipeIngredient {
    var purchased = false
    var description: String {
        var output = "\(quantity) x \(name)"
        output += purchased ? " ✔" : " ✘"
        return output
    }
}
var breakfastList = [ShoppingListItem(), ShoppingListItem(name: "Bacon"), ShoppingListItem(name: "Eggs", quantity: 6)]
breakfastList[0].name = "Orange juice"
breakfastList[0].purchased = true
for item in breakfastList { print(item.description) }
//% cell
struct Animal {
    let species: String
    init?(species: String) {
        if species.isEmpty { return nil }
        self.species = species
    }
}
if let giraffe = Animal(species: "Giraffe") { print("An animal was initialized with a species of \(giraffe.species)") }
if Animal(species: "") == nil { print("The anonymous creature couldn't be initialized") }
enum TemperatureUnit: Character {
    case kelvin = "K", celsius = "C", fahrenheit = "F"
}
print(TemperatureUnit(rawValue: "F") != nil, TemperatureUnit(rawValue: "X") == nil)
//% cell
struct Chessboard {
    let boardColors: [Bool] = {
        var temporaryBoard: [Bool] = []
        var isBlack = false
        for _ in 1...8 {
            for _ in 1...8 {
                temporaryBoard.append(isBlack)
                isBlack = !isBlack
            }
            isBlack = !isBlack
        }
        return temporaryBoard
    }()
    func squareIsBlackAt(row: Int, column: Int) -> Bool { boardColors[(row * 8) + column] }
}
let board = Chessboard()
print(board.squareIsBlackAt(row: 0, column: 1), board.squareIsBlackAt(row: 7, column: 7))
