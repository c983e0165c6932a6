"""The cell model through a real Jupyter client: a notebook behaves like one Swift file
typed in order (issue 23's table, one test per row, and the rules around it).

Each test runs its cells in a fresh kernel and checks what each printed or showed; the
same lines concatenated into one `main.swift` print the same (the corpus test,
test_swift_corpus.py, checks that against swiftc for whole programs).
"""
import re

import pytest

from benchbook_kit.cells import fails, run


def test_actors_are_visible_to_later_cells(kernel):
    _, kc = kernel
    run(kc, "actor Counter { var n = 0; func bump() -> Int { n += 1; return n } }")
    assert run(kc, "let c = Counter()\nprint(await c.bump())")[0] == "1\n"
    assert run(kc, "await c.bump()")[1] == ["2"]


def test_a_new_signature_adds_an_overload_and_the_same_signature_replaces(kernel):
    _, kc = kernel
    run(kc, 'func greet(person: String) -> String { "Hello, " + person }')
    run(kc, 'func greet(person: String, twice: Bool) -> String { twice ? greet(person: person) + "!" : greet(person: person) }')
    assert run(kc, 'greet(person: "B", twice: true)')[1] == ['"Hello, B!"']
    assert run(kc, 'greet(person: "A")')[1] == ['"Hello, A"']
    # Same labels, parameter and result types: replaces. Another result type adds an
    # overload, as in one file: calls choose by the type they expect.
    run(kc, 'func greet(person: String) -> String { "Hi, " + person }')
    assert run(kc, 'greet(person: "Ada")')[1] == ['"Hi, Ada"']
    run(kc, "func greet(person: String) -> Int { person.count }")
    assert run(kc, 'let n: Int = greet(person: "Ada")\nlet s: String = greet(person: "Ada")\nprint(n, s)')[0] == "3 Hi, Ada\n"
    # greet(person:twice:) keeps calling the greet(person:) it was compiled against.
    assert run(kc, 'greet(person: "C", twice: false)')[1] == ['"Hello, C"']
    # One cell with two overloads, a later cell replacing one of them: the other stays.
    run(kc, 'func f(_ x: Int) -> String { "Int 1" }\nfunc f(_ x: String) -> String { "String 1" }')
    run(kc, 'func f(_ x: Int) -> String { "Int 2" }')
    assert run(kc, 'f(1) + ", " + f("s")')[1] == ['"Int 2, String 1"']


def test_operators_members_and_conformances_from_extensions_reach_later_cells(kernel):
    _, kc = kernel
    run(kc, "struct V { var x = 0.0 }")
    run(kc, "extension V { static func + (l: V, r: V) -> V { V(x: l.x + r.x) } }")
    assert run(kc, "V(x: 1) + V(x: 2)")[1] == ["V(x: 3.0)"]
    run(kc, "extension V { var doubled: V { self + self } }")
    run(kc, 'extension V: CustomStringConvertible { var description: String { "V(\\(x))" } }')
    assert run(kc, "print(V(x: 2).doubled)\nV(x: 1) + V(x: 1)")[0] == "V(4.0)\n"
    # An operator and a member declared again: the newest one is used.
    run(kc, "extension V { static func + (l: V, r: V) -> V { V(x: l.x * r.x) } }")
    run(kc, "extension V { var doubled: V { V(x: x * 20) } }")
    assert run(kc, "print(V(x: 3) + V(x: 4), V(x: 1).doubled)")[0] == "V(12.0) V(20.0)\n"
    # Operators of older cells stay usable.
    run(kc, "prefix operator √\nprefix func √ (v: Double) -> Double { v.squareRoot() }")
    run(kc, "extension V { static prefix func - (v: V) -> V { V(x: -v.x) } }")
    assert run(kc, "print(√16.0, -V(x: 2))")[0] == "4.0 V(-2.0)\n"


def test_deferred_initialisation_within_a_cell(kernel):
    _, kc = kernel
    stdout, _ = run(kc, "let flag = 2 > 1\nlet h: Int\nif flag { h = 1 } else { h = 2 }\nprint(h)")
    assert stdout == "1\n"
    assert run(kc, "h + 1")[1] == ["2"]
    # A function of the cell may read it once it has its value, as in main.swift.
    stdout, _ = run(kc, "var total: Int\nfunc show() -> Int { total }\ntotal = 5\nprint(show())\ntotal += 1")
    assert stdout == "5\n"
    assert run(kc, "total")[1] == ["6"]
    # A later cell may give it its value; a constant gets one once.
    run(kc, "var names: [String]\nlet limit: Int")
    run(kc, 'names = ["a"]\nnames.append("b")\nlimit = 3')
    assert run(kc, "names.count + limit")[1] == ["5"]
    reply = fails(kc, "limit = 4")
    assert "constant" in reply["evalue"] and "In[" in reply["evalue"], reply


def test_overrides_at_any_depth_across_cells(kernel):
    _, kc = kernel
    run(kc, 'class A { var d: String { "A" }; func name() -> String { "a" } }')
    run(kc, "class B: A {}")
    run(kc, 'class C: B { override var d: String { "C" }; override func name() -> String { "c" + super.name() } }')
    assert run(kc, "let items: [A] = [A(), B(), C()]\nitems.map { $0.d + $0.name() }")[1] == ['["Aa", "Aa", "Cca"]']
    # A subclass of a class whose override of an earlier cell's member it inherits (the
    # method table used to take the first cell's implementation), and an inherited
    # convenience initialiser that calls an overridden one.
    run(kc, 'class Food { var name: String; init(name: String) { self.name = name }; convenience init() { self.init(name: "?") } }')
    run(kc, 'class Ingredient: Food { var quantity: Int\n init(name: String, quantity: Int) { self.quantity = quantity; super.init(name: name) }\n'
            ' override convenience init(name: String) { self.init(name: name, quantity: 1) } }')
    run(kc, "class Item: Ingredient { var bought = false }")
    assert run(kc, 'let item = Item()\nprint(item.name, item.quantity)')[0] == "? 1\n"
    run(kc, "class D: C {}")
    assert run(kc, "(D() as A).d + D().name()")[1] == ['"Cca"']


def test_guard_let_and_guard_case_bind_for_later_cells(kernel):
    _, kc = kernel
    run(kc, "let maybe: Int? = 5\nenum Shape { case circle(Double), square(Double) }\nlet shape = Shape.circle(2)")
    assert run(kc, "guard let v = maybe else { fatalError() }\nprint(v)")[0] == "5\n"
    assert run(kc, "print(v * 2)")[0] == "10\n"
    run(kc, "guard case .circle(let radius) = shape, var w = maybe else { fatalError() }\nw += 1")
    assert run(kc, "radius * 2 + Double(w)")[1] == ["10.0"]
    # A guard whose else throws stops the cell; its names are not defined.
    reply = fails(kc, "struct Missing: Error {}\nlet none: Int? = nil\nguard let u = none else { throw Missing() }")
    assert reply["ename"] == "Missing"
    assert "no cell has declared 'u'" in "\n".join(fails(kc, "u")["traceback"])


def test_async_let_runs_alongside_and_its_value_reaches_later_cells(kernel):
    _, kc = kernel
    # Each call waits until both calls have started (no clock decides it): run one after the
    # other, the first would see only itself. The 10 s deadline is a hang guard for that case.
    run(kc, "actor Meeting {\n  var arrived = 0, allMet = true\n  func arrive() { arrived += 1 }\n"
            "  func saw(both: Bool) { allMet = allMet && both }\n}\nlet meeting = Meeting()\n"
            "func slow(_ n: Int) async -> Int {\n  await meeting.arrive()\n"
            "  let deadline = ContinuousClock.now + .seconds(10)\n"
            "  while await meeting.arrived < 2, ContinuousClock.now < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }\n"
            "  await meeting.saw(both: await meeting.arrived == 2)\n  return n\n}")
    stdout, _ = run(kc, "async let a = slow(20)\nasync let b = slow(22)\nprint(await a + b)\nprint(await meeting.allMet)")
    assert stdout == "42\ntrue\n", "both started before either was awaited"
    assert run(kc, "a * 2")[1] == ["40"]


def test_opaque_typed_bindings(kernel):
    _, kc = kernel
    run(kc, "protocol Shape { func area() -> Double }\nstruct Square: Shape { var side = 2.0; func area() -> Double { side * side } }\n"
            "func makeShape() -> some Shape { Square() }")
    run(kc, "let s = makeShape()\nlet all = [makeShape(), makeShape()]\nlet (p, n) = (makeShape(), 3)\nlet t = try { () throws in makeShape() }()")
    assert run(kc, "print(s.area(), all[1].area(), p.area(), t.area(), n)")[0] == "4.0 4.0 4.0 4.0 3\n"


def test_a_cell_using_a_type_a_later_cell_declares_says_so(kernel):
    _, kc = kernel
    reply = fails(kc, "func make() -> Later { Later() }")
    text = "\n".join(reply["traceback"])
    assert "cannot find type 'Later' in scope" in text
    assert "no cell has declared 'Later' so far" in text and "run that cell first" in text
    run(kc, "struct Later {}")
    run(kc, "func make() -> Later { Later() }")
    assert run(kc, "make()")[1] == ["Later()"]


def test_state_redefinition_and_mutation_still_work(kernel):
    _, kc = kernel
    run(kc, "var counter = 1\nstruct Point { var x: Int }\nlet p = Point(x: 1)")
    run(kc, "counter += 1\nfunc bump() { counter += 10 }\nbump()")
    run(kc, "struct Point { var x: Int; var y: Int }")
    assert run(kc, "counter")[1] == ["12"]
    assert run(kc, "Point(x: 1, y: 2).y + p.x")[1] == ["3"], "the old value keeps its old type"
    run(kc, 'let counter = "replaced"')
    assert run(kc, "counter")[1] == ['"replaced"']


@pytest.mark.parametrize("code, message", [
    ("let v: Int = 1\nlet v2 = v +", "SyntaxError"),
    ('let wrong: Int = "text"', "CompileError"),
])
def test_errors_keep_their_cell_line_and_column(kernel, code, message):
    _, kc = kernel
    reply = fails(kc, code)
    assert reply["ename"] == message
    assert re.search(r"In\[1\], line [12]", "\n".join(reply["traceback"]) + reply["evalue"]), reply


def test_optimisation_level_switch_and_benchmark_records(kernel):
    _, kc = kernel
    assert "a loop, a function or a closure" in run(kc, "%optimize")[0], "auto is the default"
    record = ("import Foundation\nlet result = try Benchmark(\"sum\", options: .quick).run { _ = (0..<1000).reduce(0, +) }\n"
              "print(try BenchmarkRecord(result).cellOptimization.map(\\.rawValue) ?? \"none\")")
    assert run(kc, record)[0] == "-O\n", "a cell with a closure is optimised"
    assert "every cell with -O (optimised" in run(kc, "%optimize on")[0]
    assert run(kc, record)[0] == "-O\n"
    assert "-Onone" in run(kc, "%optimize off")[0]
    assert run(kc, record)[0] == "-Onone\n"
    run(kc, "%optimize on")
    assert fails(kc, "%optimize sometimes")["ename"] == "MagicError"


def test_a_trap_in_optimised_code_names_the_cell_and_line(kernel):
    _, kc = kernel
    run(kc, "let data = [3, 1, 2]")
    reply = fails(kc, "var total = 0\nfor i in 0...data.count {\n    total += data[i]\n}")
    assert reply["evalue"] == "In[2], line 3: Fatal error: Index out of range", reply["evalue"]
    run(kc, "func pick(_ values: [Int], _ i: Int) -> Int {\n    values[i]\n}")
    reply = fails(kc, "[1, 2].map { pick(data, $0 + 5) }")
    assert reply["evalue"] == "In[3], line 2: Fatal error: Index out of range", reply["evalue"]
    assert run(kc, "data.count")[1] == ["3"], "the snapshot kept the earlier cells' values"
