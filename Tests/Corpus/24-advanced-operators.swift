// Advanced Operators: bitwise and shift operators, overflow operators, operator methods in
// extensions of a notebook type, prefix, compound assignment, equivalence, custom
// operators with precedence groups, in several cells.
//% cell
let initialBits: UInt8 = 0b00001111
let invertedBits = ~initialBits
let firstSixBits: UInt8 = 0b11111100
let lastSixBits: UInt8  = 0b00111111
print(invertedBits, firstSixBits & lastSixBits, firstSixBits | lastSixBits, firstSixBits ^ lastSixBits)
let pink: UInt32 = 0xCC6699
print((pink & 0xFF0000) >> 16, (pink & 0x00FF00) >> 8, pink & 0x0000FF)
var unsignedOverflow = UInt8.max
unsignedOverflow = unsignedOverflow &+ 1
print(unsignedOverflow, Int8.min &- 1)
//% cell
struct Vector2D {
    var x = 0.0, y = 0.0
}
//% cell
extension Vector2D {
    static func + (left: Vector2D, right: Vector2D) -> Vector2D {
        Vector2D(x: left.x + right.x, y: left.y + right.y)
    }
    static prefix func - (vector: Vector2D) -> Vector2D {
        Vector2D(x: -vector.x, y: -vector.y)
    }
    static func += (left: inout Vector2D, right: Vector2D) {
        left = left + right
    }
}
//% cell
let vector = Vector2D(x: 3.0, y: 1.0)
let anotherVector = Vector2D(x: 2.0, y: 4.0)
let combinedVector = vector + anotherVector
var original = Vector2D(x: 1.0, y: 2.0)
original += Vector2D(x: 3.0, y: 4.0)
print(combinedVector, -vector, original)
//% cell
extension Vector2D: Equatable {
    static func == (left: Vector2D, right: Vector2D) -> Bool {
        (left.x == right.x) && (left.y == right.y)
    }
}
print(vector == Vector2D(x: 3.0, y: 1.0), vector != anotherVector)
//% cell
prefix operator +++
extension Vector2D {
    static prefix func +++ (vector: inout Vector2D) -> Vector2D {
        vector += vector
        return vector
    }
}
var toBeDoubled = Vector2D(x: 1.0, y: 4.0)
let afterDoubling = +++toBeDoubled
print(afterDoubling, toBeDoubled)
//% cell
infix operator +-: AdditionPrecedence
extension Vector2D {
    static func +- (left: Vector2D, right: Vector2D) -> Vector2D {
        Vector2D(x: left.x + right.x, y: left.y - right.y)
    }
}
//% cell
let plusMinusVector = Vector2D(x: 1.0, y: 2.0) +- Vector2D(x: 3.0, y: 4.0)
print(plusMinusVector, -vector + anotherVector)
