// Noncopyable (~Copyable) values at the top level: passed inout, borrowed, consumed by a
// method, and a deinit that runs once.
//% cell
struct FileHandleToken: ~Copyable {
    var name: String
    var uses = 0
    mutating func use() { uses += 1 }
    borrowing func describe() -> String { "\(name) used \(uses) times" }
    consuming func close() -> Int { uses }
    deinit { print("deinit", name) }
}
func touch(_ t: inout FileHandleToken) { t.use() }
func show(_ t: borrowing FileHandleToken) -> String { t.describe() }
//% cell
var token = FileHandleToken(name: "log")
touch(&token)
token.use()
print(show(token))
//% cell
touch(&token)
print(token.describe())
//% cell
func run() {
    var local = FileHandleToken(name: "local")
    touch(&local)
    print(local.close())
    _ = FileHandleToken(name: "temporary")
}
run()
print(token.uses)
