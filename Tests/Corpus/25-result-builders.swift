// Result builders: a builder type, a function taking a builder closure, if/else and for
// inside it, across cells.
//% cell
protocol Drawable {
    func draw() -> String
}
struct Line: Drawable {
    var elements: [Drawable]
    func draw() -> String { elements.map { $0.draw() }.joined(separator: "") }
}
struct Text: Drawable {
    var content: String
    init(_ content: String) { self.content = content }
    func draw() -> String { content }
}
struct Space: Drawable {
    func draw() -> String { " " }
}
struct Stars: Drawable {
    var length: Int
    func draw() -> String { String(repeating: "*", count: length) }
}
struct AllCaps: Drawable {
    var content: Drawable
    func draw() -> String { content.draw().uppercased() }
}
//% cell
@resultBuilder
struct DrawingBuilder {
    static func buildBlock(_ components: Drawable...) -> Drawable { Line(elements: components) }
    static func buildEither(first: Drawable) -> Drawable { first }
    static func buildEither(second: Drawable) -> Drawable { second }
    static func buildArray(_ components: [Drawable]) -> Drawable { Line(elements: components) }
}
func draw(@DrawingBuilder content: () -> Drawable) -> Drawable { content() }
func caps(@DrawingBuilder content: () -> Drawable) -> Drawable { AllCaps(content: content()) }
//% cell
func makeGreeting(for name: String? = nil) -> Drawable {
    draw {
        Stars(length: 3)
        Text("Hello")
        Space()
        caps {
            if let name = name {
                Text(name + "!")
            } else {
                Text("World!")
            }
        }
        Stars(length: 2)
    }
}
print(makeGreeting().draw())
print(makeGreeting(for: "Ravi Patel").draw())
//% cell
let manyStars = draw {
    Text("Stars:")
    for length in 1...3 {
        Space()
        Stars(length: length)
    }
}
print(manyStars.draw())
