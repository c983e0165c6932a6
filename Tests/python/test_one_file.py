"""A notebook runs Swift as one main.swift does (issue 35), and user names never collide with
the generated code (issue 37, item 4), through a real jupyter_client.

Each test runs its cells in a fresh kernel; what each cell prints is what the same lines
print in one main.swift built with swiftc (the corpus, test_swift_corpus.py, checks whole
programs; these are the cases one by one).
"""
import re

import pytest

from benchbook_kit.cells import GENERATED, fails, run, shown
from benchbook_kit.kernel import run_cell, send_comm


# --- top-level #if ---------------------------------------------------------------------

def test_statements_in_top_level_if_blocks_run_as_in_one_file(kernel):
    _, kc = kernel
    assert run(kc, "#if true\nprint(3)\n#endif")[0] == "3\n"
    assert run(kc, "#if false\nprint(1)\nlet x = (\n#else\nprint(2)\n#endif")[0] == "2\n", "an inactive branch is not compiled"
    # swiftc defines no DEBUG condition unless asked (-D DEBUG), so neither does a cell.
    assert run(kc, '#if DEBUG\nprint("debug")\n#else\nprint("no DEBUG")\n#endif')[0] == "no DEBUG\n"
    assert run(kc, "#if canImport(Foundation)\nimport Foundation\nlet root = sqrt(16.0)\n#endif\nprint(root)")[0] == "4.0\n"
    assert run(kc, "root + 1")[1] == ["5.0"], "a binding in an active branch is a notebook variable"
    assert run(kc, '#if canImport(NoSuchModuleAnywhere)\nprint("yes")\n#else\nprint("no")\n#endif')[0] == "no\n"


def test_nested_if_blocks_with_declarations_mixed_in(kernel):
    _, kc = kernel
    code = ("#if os(Linux)\n"
            "struct Probe { var value = 7 }\n"
            "let probe = Probe()\n"
            "#if swift(>=5.0) && !os(Windows)\n"
            "func twice(_ x: Int) -> Int { 2 * x }\n"
            "print(twice(probe.value))\n"
            "#elseif compiler(>=99)\n"
            "this is not even Swift\n"
            "#else\n"
            "print(0)\n"
            "#endif\n"
            "#else\n"
            "struct Probe { var value = -1 }\n"
            "#endif\n"
            "probe.value")
    stdout, shown_results = run(kc, code)
    assert (stdout, shown_results) == ("14\n", ["7"])
    assert run(kc, "twice(Probe().value) + probe.value")[1] == ["21"], "declarations reach later cells"


def test_an_error_inside_an_if_block_names_its_cell_and_line(kernel):
    _, kc = kernel
    reply = fails(kc, '#if true\nprint(1)\nlet wrong: Int = "text"\n#endif')
    assert reply["ename"] == "CompileError"
    assert reply["evalue"] == "cannot convert value of type 'String' to specified type 'Int' (In[1], line 3, column 18)", reply


# --- file-scope private and fileprivate ----------------------------------------------

def test_file_private_names_are_visible_to_later_cells(kernel):
    _, kc = kernel
    run(kc, "private let hidden = 5\nfileprivate func helper() -> Int { hidden * 2 }")
    assert run(kc, "print(hidden, helper())")[0] == "5 10\n"
    run(kc, "struct Counter {\n    private var count = 0\n    fileprivate var step = 2\n"
            "    mutating func increment() { count += step }\n    private(set) var label = \"c\"\n}")
    run(kc, "extension Counter {\n    var current: Int { count }\n}")
    assert run(kc, "var counter = Counter()\ncounter.increment()\nprint(counter.current, counter.step, counter.label)")[0] == "2 2 c\n"


# --- type names as one file prints them ------------------------------------------------

def test_type_names_print_with_the_module_main(kernel):
    _, kc = kernel
    run(kc, "struct Derived<T> { var x: T }\nenum Failure: Error { case bad(code: Int) }\nfinal class Box { var d = Derived(x: 1) }")
    stdout, _ = run(kc, "print(String(reflecting: Derived<Int>.self))\ndebugPrint(Failure.bad(code: 2))\ndump(Box())")
    assert stdout == ("main.Derived<Swift.Int>\nmain.Failure.bad(code: 2)\n"
                      "▿ main.Box #0\n  ▿ d: main.Derived<Swift.Int>\n    - x: 1\n"), stdout
    # A type of this cell mixed with one of an earlier cell, in one value.
    stdout, _ = run(kc, "struct Pair { var a = Derived(x: \"s\"); var b = Box() }\nprint(String(reflecting: [Pair()]))\n"
                        "print(\"\\(Derived<Pair>.self)\")")
    assert stdout == '[main.Pair(a: main.Derived<Swift.String>(x: "s"), b: main.Box)]\nDerived<Pair>\n', stdout
    # In a result and in an error.
    assert run(kc, "String(reflecting: Failure.self)")[1] == ['"main.Failure"']
    reply, outputs = run_cell(kc, "throw Failure.bad(code: 3)")
    assert reply["status"] == "error"
    text = shown(outputs, reply)
    assert "Failure" in text and not GENERATED.search(text), text
    reply, outputs = run_cell(kc, "func boom() throws -> Int { throw Failure.bad(code: 4) }\nlet v = try! boom()")
    text = shown(outputs, reply)
    assert reply["status"] == "error" and "main.Failure.bad(code: 4)" in text, text
    assert not GENERATED.search(text), text


# --- overloads by result type ----------------------------------------------------------

def test_overloads_that_differ_only_by_result_type_across_cells(kernel):
    _, kc = kernel
    run(kc, "func make() -> Int { 1 }")
    run(kc, 'func make() -> String { "s" }')
    assert run(kc, "let i: Int = make()\nlet s: String = make()\nprint(i, s)")[0] == "1 s\n"
    # The same signature and result type replaces.
    run(kc, "func make() -> Int { 2 }")
    assert run(kc, "let j: Int = make()\nlet t: String = make()\nprint(j, t)")[0] == "2 s\n"


# --- operators and precedence groups across cells (issue 48) ------------------------------

def test_an_operator_declared_in_one_cell_is_implemented_and_used_in_later_ones(kernel):
    _, kc = kernel
    run(kc, "infix operator <+>: AdditionPrecedence")
    run(kc, "func <+>(l: Int, r: Int) -> Int { l * 10 + r }")
    assert run(kc, "print(1 <+> 2 <+> 3, 1 + 1 <+> 2 * 3)")[0] == "123 26\n", "left-associative, as + binds"
    run(kc, "struct V { var x: Int\n    static func <+>(l: V, r: V) -> V { V(x: l.x + r.x) } }")
    run(kc, 'extension String { static func <+>(l: String, r: Int) -> String { l + String(r) } }')
    assert run(kc, 'print((V(x: 1) <+> V(x: 2)).x, "n" <+> 4, 5 <+> 6)')[0] == "3 n4 56\n"
    run(kc, "prefix operator √")
    run(kc, "postfix operator ^^")
    run(kc, "prefix func √ (v: Double) -> Double { v.squareRoot() }\npostfix func ^^ (v: Int) -> Int { v * v }")
    assert run(kc, "print(√16.0, 5^^)")[0] == "4.0 25\n"


def test_a_precedence_group_declared_in_one_cell_orders_an_operator_of_another(kernel):
    _, kc = kernel
    run(kc, "precedencegroup PowerPrecedence {\n    higherThan: MultiplicationPrecedence\n    associativity: right\n}")
    run(kc, "infix operator **: PowerPrecedence")
    run(kc, "func ** (base: Int, exponent: Int) -> Int { (0..<exponent).reduce(1) { r, _ in r * base } }")
    assert run(kc, "print(2 ** 3 ** 2, 1 + 2 * 2 ** 2)")[0] == "512 9\n", "right-associative, above *"
    run(kc, "precedencegroup Pipe {\n    associativity: left\n    lowerThan: AdditionPrecedence\n}")
    run(kc, "infix operator |>: Pipe")
    run(kc, "func |> <A, B>(x: A, f: (A) -> B) -> B { f(x) }")
    assert run(kc, "print(3 + 1 |> { $0 * 2 } |> String.init)")[0] == "8\n"


def test_an_operator_declared_again_with_another_precedence_takes_the_newest(kernel):
    _, kc = kernel
    run(kc, "infix operator <+>: AdditionPrecedence")
    run(kc, "func <+>(l: Int, r: Int) -> Int { l * 10 + r }")
    assert run(kc, "1 + 1 <+> 2")[1] == ["22"]
    run(kc, "infix operator <+>: MultiplicationPrecedence")
    assert run(kc, "1 + 1 <+> 2")[1] == ["13"], "<+> binds as * does now"
    assert run(kc, "func <+>(l: Double, r: Double) -> Double { l * 100 + r }\n1 + 1 <+> 2.0")[1] == ["103.0"]
    assert run(kc, "print(2 * 3 <+> 4, 1 <+> 2.0)")[0] == "64 102.0\n", "both implementations, the newest precedence"
    run(kc, "infix operator <+>: MultiplicationPrecedence")   # the same declaration run again
    assert run(kc, "1 + 1 <+> 2")[1] == ["13"]


def test_a_precedence_group_declared_again_orders_the_operators_of_earlier_cells(kernel):
    _, kc = kernel
    run(kc, "precedencegroup Power {\n    higherThan: MultiplicationPrecedence\n    associativity: right\n}")
    run(kc, "infix operator **: Power\nfunc ** (l: Int, r: Int) -> Int { (0..<r).reduce(1) { a, _ in a * l } }")
    assert run(kc, "2 * 3 ** 2")[1] == ["18"]
    run(kc, "precedencegroup Power {\n    lowerThan: AdditionPrecedence\n    associativity: left\n}")
    assert run(kc, "2 * 3 ** 2")[1] == ["36"], "** binds after * now"
    assert run(kc, "1 + 1 ** 2")[1] == ["4"]


# --- several names declared without values ---------------------------------------------

def test_several_names_declared_without_values_in_one_declaration(kernel):
    _, kc = kernel
    run(kc, "var red, green, blue: Double")
    run(kc, "red = 1\ngreen = 0.5\nblue = 0.25")
    assert run(kc, "print(red + green + blue)")[0] == "1.75\n"
    assert run(kc, "let a, b: Int\na = 1\nb = 2\nprint(a + b)")[0] == "3\n"
    assert run(kc, "var w: Double, label: String\nw = 2\nlabel = \"w\"\nprint(label, w)")[0] == "w 2.0\n"


# --- noncopyable top-level values -------------------------------------------------------

def test_a_noncopyable_top_level_variable_passed_inout(kernel):
    _, kc = kernel
    run(kc, "struct Token: ~Copyable { var uses = 0 }\nfunc use(_ t: inout Token) { t.uses += 1 }")
    assert run(kc, "var g = Token()\nuse(&g)\nprint(g.uses)")[0] == "1\n"
    assert run(kc, "use(&g)\nprint(g.uses)")[0] == "2\n"
    reply = fails(kc, "let h = Token()\nlet taken = h\nlet again = h")
    assert reply["ename"] == "CompileError"
    assert re.search(r"In\[\d+\], line \d+", reply["evalue"] + "\n".join(reply["traceback"])), reply


def test_compile_errors_always_name_a_cell_and_line(kernel):
    """Cells that failed with no cell or line (in code the kernel generated) now run; the
    others fail at the user's line."""
    _, kc = kernel
    run(kc, "struct Token: ~Copyable { var uses = 0 }\nfunc use(_ t: inout Token) { t.uses += 1 }")
    for code in ["var red, green, blue: Double", "var g = Token()\nuse(&g)", "let h: Int\nprint(h)",
                 "let big: UInt8 = 300", "let f = { $0 }", "let t = Token()\nlet moved = t\nlet again = t"]:
        reply, outputs = run_cell(kc, code)
        if reply["status"] == "ok":
            continue
        assert re.search(r"In\[\d+\], line \d+", reply["evalue"] + "\n".join(reply["traceback"])), (code, reply)
        assert not GENERATED.search(shown(outputs, reply)), (code, reply)


# --- the restored-snapshot note ------------------------------------------------------

def test_the_restored_snapshot_is_named_once_and_correctly(kernel):
    _, kc = kernel
    run(kc, "var kept = 1")
    # What JupyterLab's widget manager sends when a page reloads: a comm_open to a target
    # the notebook never registered, twice.
    for n in range(2):
        send_comm(kc, "comm_open", {"comm_id": f"reload-{n}", "target_name": "jupyter.widget.control", "data": {}})
    reply, outputs = run_cell(kc, "[0][1]")
    assert reply["ename"] == "Crash", reply
    text = shown(outputs, reply)
    note = next(line for line in text.splitlines() if "restored the cell host" in line)
    assert "the snapshot taken after In[1]" in note, note
    assert note.count("after") == 1 and "widget" not in note, note
    assert run(kc, "kept")[1] == ["1"]


# --- names the generator uses (issue 37, item 4) ---------------------------------------

@pytest.mark.parametrize("code, name", [
    ("let __bb = 5", "__bb"),
    ("func __benchbook_entry() {}", "__benchbook_entry"),
    ("struct _BenchbookCell {}", "_BenchbookCell"),
    ("var __bb_scope_x = 1", "__bb_scope_x"),
    ("func f(_BenchbookScope: Int) {}", "_BenchbookScope"),
])
def test_a_reserved_name_is_refused_with_the_prefix_named(kernel, code, name):
    _, kc = kernel
    reply, _ = run_cell(kc, code)
    text = reply.get("evalue", "") + "\n".join(reply.get("traceback", []))
    assert reply["status"] == "error" and reply["ename"] == "ReservedName", reply
    assert name in text and "reserved" in text and "In[1], line 1" in text, text
    assert run(kc, "let fine = 1\nfine + 1")[1] == ["2"], "the kernel keeps serving"


def test_backticked_names_everywhere_a_name_is_declared(kernel):
    _, kc = kernel
    run(kc, "let `foo` = 4")
    assert run(kc, "foo + 1")[1] == ["5"]
    run(kc, "let `let` = 1")          # papermill's translator writes parameters so
    assert run(kc, "`let` + 1")[1] == ["2"]
    run(kc, 'var `class` = "c"\nfunc `func`(_ `in`: Int) -> Int { `in` * 2 }\nstruct `Type` { var `var` = 3 }')
    assert run(kc, "`class` += \"!\"\nprint(`class`, `func`(4), `Type`().`var`)")[0] == "c! 8 3\n"
    run(kc, "let `default`: Int\nvar `where`: [Int]")
    run(kc, "`default` = 7\n`where` = [`default`]")
    assert run(kc, "`where`")[1] == ["[7]"]
    assert run(kc, "let (`if`, `else`) = (try { 1 }(), 2)\nprint(`if` + `else`)")[0] == "3\n"


# --- what an interrupted cell keeps ----------------------------------------------------

def test_what_an_interrupted_cell_keeps(kernel):
    """A loop with a check (while, repeat, an outer for) stops at it and the cell keeps what
    it did; an innermost for over a bounded range has none (so it vectorises): it is
    stopped with its host after the grace period, and the notebook is as the cell before
    left it."""
    from benchbook_kit.kernel import execute_and_interrupt_once_running
    _, kc = kernel
    run(kc, "var kept = 42\nvar data = [0, 0, 0]")
    reply, _ = execute_and_interrupt_once_running(kc, "kept = 1\nwhile true { data[0] &+= 1 }")
    assert reply["ename"] == "InterruptedError", reply
    assert run(kc, "kept")[1] == ["1"], "stopped at its check: what the cell did is kept"
    reply, _ = execute_and_interrupt_once_running(kc, "kept = 2\nfor i in 0..<Int.max { data[i % 3] &+= i }")
    assert reply["ename"] == "Interrupted" and "within 2 s" in reply["evalue"], reply
    assert run(kc, "kept")[1] == ["1"], "restored from the snapshot taken before the cell"
    reply, _ = execute_and_interrupt_once_running(kc, "kept = 3\nfor y in 0..<Int.max { for x in 0..<1000 { data[x % 3] &+= y } }")
    assert reply["ename"] == "InterruptedError", reply
    assert run(kc, "kept")[1] == ["3"], "an outer for is checked once per iteration"
