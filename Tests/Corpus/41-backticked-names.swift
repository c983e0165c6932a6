// Names written in backticks, as keywords used as names need them (papermill's Swift
// translator writes parameters so: let `let` = 1), in every place a name is declared.
//% cell
let `foo` = 4
let `let` = 1
var `class` = "c"
print(foo + `let`, `class`)
//% cell
func `func`(_ `in`: Int) -> Int { `in` * 2 }
struct `Type` { var `var` = 3; func `default`() -> Int { `var` + 1 } }
enum `Enum` { case `case`, `self` }
print(`func`(`foo`), `Type`().`var`, `Type`().`default`())
//% cell
`class` += "!"
let (`if`, `else`) = (10, 20)
let `default`: Int
`default` = `if` + `else`
print(`class`, `default`, `Enum`.`case`)
//% cell
let values = [`if`, `else`, `default`].map { `value` in `value` + 1 }
guard let `guard` = values.first else { fatalError() }
print(values, `guard`)
