// Opaque and boxed protocol types: functions returning `some Shape`, values of those
// types kept in notebook variables and used in later cells.
//% cell
protocol Shape {
    func draw() -> String
}
struct Triangle: Shape {
    var size: Int
    func draw() -> String {
        var result: [String] = []
        for length in 1...size { result.append(String(repeating: "*", count: length)) }
        return result.joined(separator: "\n")
    }
}
struct Square: Shape {
    var size: Int
    func draw() -> String {
        let line = String(repeating: "*", count: size)
        return Array(repeating: line, count: size).joined(separator: "\n")
    }
}
struct FlippedShape<T: Shape>: Shape {
    var shape: T
    func draw() -> String { shape.draw().split(separator: "\n").reversed().joined(separator: "\n") }
}
struct JoinedShape<T: Shape, U: Shape>: Shape {
    var top: T
    var bottom: U
    func draw() -> String { top.draw() + "\n" + bottom.draw() }
}
//% cell
func makeTrapezoid() -> some Shape {
    let top = Triangle(size: 2)
    let middle = Square(size: 2)
    let bottom = FlippedShape(shape: top)
    return JoinedShape(top: top, bottom: JoinedShape(top: middle, bottom: bottom))
}
let trapezoid = makeTrapezoid()
//% cell
print(trapezoid.draw())
//% cell
func flip<T: Shape>(_ shape: T) -> some Shape { FlippedShape(shape: shape) }
let flipped = flip(trapezoid)
let shapes: [any Shape] = [Triangle(size: 1), Square(size: 1), flipped]
//% cell
print(flipped.draw())
print(shapes.count, shapes.map { $0.draw().count })
