// EXPECT-MISMATCH: equatable-synthesis
// A conformance whose implementation Swift synthesizes (Equatable, Hashable, Codable,
// Comparable for enums) added by an extension in a later cell than the type. In one
// main.swift this compiles; in a notebook the extension is in another module than the
// type, and Swift synthesizes conformances only in the type's own file.
//% cell
struct Point {
    var x: Int, y: Int
}
//% cell
extension Point: Equatable {}
//% cell
print(Point(x: 1, y: 2) == Point(x: 1, y: 2))
