"""A 58-cell notebook through a real Jupyter client, each cell's outputs asserted.

It covers bindings, mutation, redefinition of every kind of declaration, extensions and
conformances across cells, generics, closures, async/await, top-level try, guard,
do/catch, defer, interpolation, each error kind, a trap followed by more cells, and an
interrupt, and the timing magics. The executed notebook is written to results/executed/cell-engine-tour.ipynb.
"""
import time

import nbformat

from benchbook_kit import ROOT
from benchbook_kit.cells import GENERATED
from benchbook_kit.kernel import execute_and_interrupt_once_running, results, run_cell, text_of


# (code, expectation). Expectation keys: result, stdout (substring), error (ename),
# evalue (substring), traceback (substring), quiet (no output at all).
CELLS = [
    ("let a = 1", {"quiet": True}),
    ("var counter = 10", {"quiet": True}),
    ("counter += 5", {"quiet": True}),
    ("counter", {"result": "15"}),
    ('let greeting = "Hi \\(a), counter is \\(counter)"\ngreeting', {"result": '"Hi 1, counter is 15"'}),
    ("struct Point { var x: Int; var y: Int }", {"quiet": True}),
    ("let p1 = Point(x: 1, y: 2)\np1", {"result": "Point(x: 1, y: 2)"}),
    ("extension Point { var sum: Int { x + y } }", {"quiet": True}),
    ("p1.sum", {"result": "3"}),
    ("protocol Shape { func area() -> Double }", {"quiet": True}),
    ("struct Square: Shape { var side: Double; func area() -> Double { side * side } }", {"quiet": True}),
    ("let shapes: [Shape] = [Square(side: 2), Square(side: 3)]\nshapes.map { $0.area() }", {"result": "[4.0, 9.0]"}),
    ('extension Square: CustomStringConvertible { var description: String { "Square of side \\(side)" } }', {"quiet": True}),
    ("Square(side: 1.5)", {"result": "Square of side 1.5"}),
    ("print(p1)", {"stdout": "Point(x: 1, y: 2)"}),
    ("struct Point { var x: Int; var y: Int; var z: Int }", {"quiet": True}),
    ("let p2 = Point(x: 1, y: 2, z: 3)\np2.z", {"result": "3"}),
    ("p1.sum", {"result": "3"}),
    ("func double(_ v: Int) -> Int { v * 2 }\ndouble(21)", {"result": "42"}),
    ("func double(_ v: Int) -> Int { v * 3 }\ndouble(2)", {"result": "6"}),
    ("func firstOf<T>(_ items: [T]) -> T? { items.first }\nfirstOf([\"x\", \"y\"])!", {"result": '"x"'}),
    ("var total = 0\nlet add: (Int) -> Void = { total += $0 }", {"quiet": True}),
    ("add(5)\nadd(7)\ntotal", {"result": "12"}),
    ("class Box { var value: Int; init(_ v: Int) { value = v } }\nlet box = Box(1)", {"quiet": True}),
    ("box.value = 99\nbox.value", {"result": "99"}),
    ("enum Color { case red, green }\nColor.green", {"result": "Color.green"}),
    ("enum Color { case red, green, blue }\nColor.blue", {"result": "Color.blue"}),
    ("typealias Score = Double\nlet score: Score = 2.5\nscore", {"result": "2.5"}),
    ("func fetch() async -> Int { 40 }\nlet fetched = await fetch()\nfetched + 2", {"result": "42"}),
    ("enum Failure: Error { case bad }\nfunc risky(_ ok: Bool) throws -> Int {\n    if ok { return 1 }\n    throw Failure.bad\n}\nlet safe = try risky(true)\nsafe", {"result": "1"}),
    ("let unsafe = try risky(false)", {"error": "Failure", "evalue": "bad"}),
    ("let maybe: Int? = 5\nguard let value = maybe else { fatalError(\"no value\") }\nprint(\"value is \\(value)\")", {"stdout": "value is 5"}),
    ('do {\n    _ = try risky(false)\n} catch {\n    print("caught \\(error)")\n}', {"stdout": "caught bad"}),
    ('defer { print("deferred") }\nprint("body")', {"stdout": "body\ndeferred"}),
    ("// only a comment\n\n   ", {"quiet": True}),
    ('let broken: Int = "text"', {"error": "CompileError", "evalue": "line 1", "traceback": 'let broken: Int = "text"'}),
    ("let fine = 1\nlet bad = undefinedName + fine", {"error": "CompileError", "evalue": "line 2, column 11", "traceback": "undefinedName"}),
    ("let broken = (1, ", {"error": "SyntaxError"}),
    ("infix operator <+>: AdditionPrecedence\nfunc <+>(l: Int, r: Int) -> Int { l * 10 + r }", {"quiet": True}),
    ("1 <+> 2", {"result": "12"}),
    ('"\\(greeting) / \\(p2.z)"', {"result": '"Hi 1, counter is 15 / 3"'}),
    ("let m = 5, n = m * 2\nn", {"result": "10"}),
    ('print("only printing")', {"stdout": "only printing", "no_result": True}),
    ("counter = 100", {"quiet": True}),
    ("func bump() { counter += 1 }\nbump()\nbump()\ncounter", {"result": "102"}),
    ("let numbers = [1, 2, 3]\nnumbers[10]", {"error": "Crash", "evalue": "line 2: Fatal error: Index out of range", "traceback": "every variable of earlier cells is there"}),
    ("counter + 1", {"result": "103"}),
    ("Point(x: 1, y: 1, z: 7).z + double(1)", {"result": "10"}),
    ("var counter = 1\ncounter", {"result": "1"}),
    ('fatalError("stop here")', {"error": "Crash", "evalue": "stop here"}),
    ("Square(side: 2).area()", {"result": "4.0"}),
    ("INTERRUPT:var spins = 0\nwhile true { spins += 1; try Interrupt.check(\"the spin loop\") }", {"error": "InterruptedError", "evalue": "interrupted"}),
    ("spins > 0", {"result": "true"}),
    ("INTERRUPT:var stuck = 0\nwhile true { stuck &+= 1 }", {"error": "InterruptedError", "evalue": "interrupted"}),
    ("stuck > 0", {"result": "true"}),
    ("INTERRUPT:import Dispatch\nDispatchSemaphore(value: 0).wait()", {"error": "Interrupted", "evalue": "within 2 s"}),
    ("Color.red", {"result": "Color.red"}),
    ("%time\nlet doubled = (0..<1000).map { $0 * 2 }\ndoubled.count", {"stdout": "Wall time:", "result": "1000"}),
    ("%timeit\nlet sum = (0..<100).reduce(0, +)\n_ = sum", {"result_contains": "±"}),
    ("%timeit\nlet oops = undefinedThing", {"error": "CompileError", "evalue": "line 2"}),
    ("%frobnicate\n1", {"error": "UnknownMagic", "evalue": "%timeit"}),
    ("%time 6 * 7", {"stdout": "Wall time:", "result": "42"}),
]


def interrupt_after(kc, code):
    """Runs `code` (after a line printing a marker) and interrupts it once it runs."""
    return execute_and_interrupt_once_running(kc, code)


def check(index, code, expect, reply, outputs):
    where = f"cell {index + 1}: {code!r}"
    shown = [m for m in outputs if m["msg_type"] != "execute_input"]
    for message in shown:
        assert not GENERATED.search(str(message["content"])), f"{where}: generated name shown: {message['content']}"
    if "error" in expect:
        assert reply["status"] == "error", f"{where}: expected {expect['error']}, got {reply}"
        assert reply["ename"] == expect["error"], f"{where}: {reply['ename']}: {reply['evalue']}"
        if "evalue" in expect:
            assert expect["evalue"] in reply["evalue"], f"{where}: {reply['evalue']}"
        if "traceback" in expect:
            assert expect["traceback"] in "\n".join(reply["traceback"]), f"{where}: {reply['traceback']}"
        return
    assert reply["status"] == "ok", f"{where}: {reply.get('ename')}: {reply.get('evalue')}"
    if expect.get("quiet"):
        assert shown == [], f"{where}: expected no output, got {shown}"
    if "result_contains" in expect:
        assert len(results(outputs)) == 1 and expect["result_contains"] in results(outputs)[0], f"{where}: {results(outputs)}"
    if "result" in expect:
        assert results(outputs) == [expect["result"]], f"{where}: {results(outputs)}"
    if "stdout" in expect:
        assert expect["stdout"] in text_of(outputs), f"{where}: {text_of(outputs)!r}"
    if expect.get("no_result"):
        assert results(outputs) == [], f"{where}: {results(outputs)}"


def test_cell_engine_notebook(kernel):
    km, kc = kernel
    assert len(CELLS) >= 40
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "swift", "display_name": "Swift", "language": "swift"}
    for index, (code, expect) in enumerate(CELLS):
        if code.startswith("INTERRUPT:"):
            code = code[len("INTERRUPT:"):]
            reply, outputs = interrupt_after(kc, code)
        else:
            reply, outputs = run_cell(kc, code)
        cell = nbformat.v4.new_code_cell(code)
        cell.execution_count = reply.get("execution_count")
        cell.outputs = [nbformat.v4.output_from_msg(m) for m in outputs if m["msg_type"] in
                        ("stream", "execute_result", "display_data", "error")]
        notebook.cells.append(cell)
        check(index, code, expect, reply, outputs)
    out = ROOT / "results" / "executed" / "cell-engine-tour.ipynb"
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, out)
