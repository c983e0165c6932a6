// A generic matrix with subscripts, operators and a protocol for its elements, as a
// numerics notebook builds it.
//% cell
protocol Numeric2: Equatable {
    static var zero: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
}
extension Int: Numeric2 {}
extension Double: Numeric2 {}
//% cell
struct Matrix<T: Numeric2>: CustomStringConvertible {
    let rows: Int, columns: Int
    private(set) var elements: [T]
    init(rows: Int, columns: Int, elements: [T]) {
        precondition(elements.count == rows * columns)
        self.rows = rows
        self.columns = columns
        self.elements = elements
    }
    subscript(row: Int, column: Int) -> T {
        get { elements[row * columns + column] }
        set { elements[row * columns + column] = newValue }
    }
    var description: String {
        (0..<rows).map { r in (0..<columns).map { c in "\(self[r, c])" }.joined(separator: " ") }.joined(separator: "\n")
    }
}
//% cell
extension Matrix {
    static func * (left: Matrix, right: Matrix) -> Matrix {
        precondition(left.columns == right.rows)
        var result = Matrix(rows: left.rows, columns: right.columns, elements: Array(repeating: T.zero, count: left.rows * right.columns))
        for i in 0..<left.rows {
            for j in 0..<right.columns {
                var sum = T.zero
                for k in 0..<left.columns { sum = sum + left[i, k] * right[k, j] }
                result[i, j] = sum
            }
        }
        return result
    }
    var transposed: Matrix {
        var result = Matrix(rows: columns, columns: rows, elements: elements)
        for i in 0..<rows { for j in 0..<columns { result[j, i] = self[i, j] } }
        return result
    }
}
//% cell
let a = Matrix(rows: 2, columns: 3, elements: [1, 2, 3, 4, 5, 6])
let identity = Matrix(rows: 3, columns: 3, elements: [1, 0, 0, 0, 1, 0, 0, 0, 1])
print(a * identity)
print(a * a.transposed)
let half = Matrix(rows: 1, columns: 2, elements: [0.5, 0.25])
print(half * Matrix(rows: 2, columns: 1, elements: [2.0, 4.0]))
