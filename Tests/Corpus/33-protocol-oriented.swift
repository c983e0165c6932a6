// Protocol-oriented code: synthesized Equatable, Hashable and Comparable in the type's
// cell, default implementations, conditional conformance, sorting custom values.
//% cell
struct Version: Comparable, Hashable, CustomStringConvertible {
    var major: Int, minor: Int, patch: Int
    static func < (a: Version, b: Version) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
    var description: String { "\(major).\(minor).\(patch)" }
}
//% cell
let versions = [Version(major: 1, minor: 10, patch: 0), Version(major: 1, minor: 2, patch: 3), Version(major: 0, minor: 9, patch: 9)]
print(versions.sorted(), versions.max()!, Set(versions + versions).count)
print(Version(major: 1, minor: 2, patch: 3) == versions[1])
//% cell
protocol Describable {
    var summary: String { get }
}
extension Describable {
    var summary: String { "a \(type(of: self))" }
}
extension Version: Describable {}
extension Array: Describable where Element: Describable {
    var summary: String { "[" + map(\.summary).joined(separator: ", ") + "]" }
}
print(versions[0].summary, versions.summary)
//% cell
struct Tagged: Describable {
    var tag: String
    var summary: String { "#\(tag)" }
}
let tags = [Tagged(tag: "swift"), Tagged(tag: "notebook")]
print(tags.summary)
