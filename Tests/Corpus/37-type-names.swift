// Type names as the runtime prints them: qualified by the module, `main` for a program's
// own types, in String(reflecting:), dump, debugPrint, string interpolation of metatypes and
// error descriptions, for types of this and earlier parts of the program.
//% cell
struct Derived<T> { var value: T }
enum Failure: Error { case bad(code: Int), empty }
final class Node { var name = "root"; var children: [Node] = [] }
protocol Shape {}
struct Square: Shape { var side = 2.0 }
//% cell
print(String(reflecting: Derived<Int>.self))
print(String(describing: Derived<Int>.self))
print(Derived<[String]>.self)
debugPrint(Failure.bad(code: 7))
debugPrint(Derived(value: Failure.empty))
print(String(reflecting: Failure.empty))
//% cell
let tree = Node()
tree.children.append(Node())
dump(tree)
dump(Derived(value: Square()))
//% cell
struct Pair { var left = Derived(value: 1); var right: any Shape = Square() }
print(String(reflecting: [Pair()]))
print(type(of: Pair().right), String(reflecting: type(of: Pair().right)))
let shapes: [any Shape] = [Square()]
print(shapes)
//% cell
func check(_ n: Int) throws -> Int {
    if n < 0 { throw Failure.bad(code: n) }
    return n
}
do {
    _ = try check(-3)
} catch {
    print("caught", error, String(reflecting: error))
    print(type(of: error))
}
let result: Result<Int, Failure> = .failure(.empty)
print(result)
debugPrint(result)
