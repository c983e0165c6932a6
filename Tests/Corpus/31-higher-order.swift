// Higher-order functions and key paths: map, filter, reduce, compactMap, flatMap, zip,
// lazy sequences, key paths as functions, sorting by several keys.
//% cell
struct City {
    let name: String
    let country: String
    let population: Int
}
let cities = [
    City(name: "Lyon", country: "FR", population: 522_000),
    City(name: "Porto", country: "PT", population: 232_000),
    City(name: "Paris", country: "FR", population: 2_102_000),
    City(name: "Lisbon", country: "PT", population: 545_000),
    City(name: "Nice", country: "FR", population: 342_000),
]
//% cell
let names = cities.map(\.name)
let large = cities.filter { $0.population > 500_000 }.map(\.name)
let total = cities.reduce(0) { $0 + $1.population }
print(names, large, total)
//% cell
let byCountry = Dictionary(grouping: cities, by: \.country)
for country in byCountry.keys.sorted() {
    let sorted = byCountry[country]!.sorted { $0.population > $1.population }.map(\.name)
    print(country, sorted)
}
//% cell
let raw = ["1", "two", "3", "4.5", "5"]
let numbers = raw.compactMap(Int.init)
let pairs = zip(names, numbers).map { "\($0)#\($1)" }
let nested = [[1, 2], [3], [], [4, 5, 6]]
print(numbers, pairs, nested.flatMap { $0 }, nested.map(\.count))
//% cell
var evaluated: [Int] = []
let firstSquares = (1...1_000_000).lazy.map { n -> Int in evaluated.append(n); return n * n }.filter { $0 % 3 == 0 }.prefix(3)
print(Array(firstSquares), evaluated.count)
let keyPath = \City.population
print(cities.map { $0[keyPath: keyPath] }.max()!)
