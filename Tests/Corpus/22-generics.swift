// Generics: generic functions, a generic stack, extensions of generic types, type
// constraints, associated types, generic where clauses, generic subscripts.
//% cell
func swapTwoValues<T>(_ a: inout T, _ b: inout T) {
    let temporaryA = a
    a = b
    b = temporaryA
}
var someString = "hello"
var anotherString = "world"
swapTwoValues(&someString, &anotherString)
print(someString, anotherString)
//% cell
struct Stack<Element> {
    var items: [Element] = []
    mutating func push(_ item: Element) { items.append(item) }
    mutating func pop() -> Element { items.removeLast() }
}
//% cell
extension Stack {
    var topItem: Element? { items.last }
}
var stackOfStrings = Stack<String>()
stackOfStrings.push("uno")
stackOfStrings.push("dos")
stackOfStrings.push("tres")
print(stackOfStrings.pop(), stackOfStrings.topItem ?? "empty")
//% cell
func findIndex<T: Equatable>(of valueToFind: T, in array: [T]) -> Int? {
    for (index, value) in array.enumerated() where value == valueToFind { return index }
    return nil
}
print(findIndex(of: 9.3, in: [3.14159, 0.1, 0.25]) as Any, findIndex(of: "Andrea", in: ["Mike", "Malcolm", "Andrea"]) as Any)
//% cell
protocol Container {
    associatedtype Item
    mutating func append(_ item: Item)
    var count: Int { get }
    subscript(i: Int) -> Item { get }
}
extension Stack: Container {
    mutating func append(_ item: Element) { push(item) }
    var count: Int { items.count }
    subscript(i: Int) -> Element { items[i] }
}
extension Array: Container {}
//% cell
func allItemsMatch<C1: Container, C2: Container>(_ someContainer: C1, _ anotherContainer: C2) -> Bool
    where C1.Item == C2.Item, C1.Item: Equatable {
    if someContainer.count != anotherContainer.count { return false }
    for i in 0..<someContainer.count where someContainer[i] != anotherContainer[i] { return false }
    return true
}
var stack = Stack<String>()
stack.push("uno")
stack.push("dos")
stack.push("tres")
var arrayOfStrings = ["uno", "dos", "tres"]
print(allItemsMatch(stack, arrayOfStrings) ? "All items match." : "Not all items match.")
//% cell
extension Stack where Element: Equatable {
    func isTop(_ item: Element) -> Bool {
        guard let topItem = items.last else { return false }
        return topItem == item
    }
}
extension Container {
    subscript<Indices: Sequence>(indices: Indices) -> [Item] where Indices.Iterator.Element == Int {
        var result: [Item] = []
        for index in indices { result.append(self[index]) }
        return result
    }
}
print(stack.isTop("tres"), stack[[0, 2]])
