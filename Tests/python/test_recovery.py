"""Nothing lost (issue 13), through a real jupyter_client: a trap or a forced host restart
brings back every variable of earlier cells from the host's snapshot, with real models
loaded; a trap names the user's cell and line once; a plain loop stops on an interrupt
without a restart; the fallback without a snapshot lists cells to re-run in the order
they ran; one-line timing magics."""
import os
import signal
import time

import pytest

from benchbook_kit import ROOT
from benchbook_kit.kernel import (FRAME_MARKER, children, errors, execute_and_interrupt_once_running, host_pid, results,
                                  run_cell, text_of)

MODELS = ROOT / "notebooks" / "models"
# The host's snapshot channel (BB_SEAM_SNAPSHOT_DESCRIPTOR, CHostSeam.h).
SNAPSHOT_DESCRIPTOR = 5


def everything_shown(outputs, reply):
    """All text a user sees for a cell: streams, results, errors."""
    parts = [m["content"].get("text", "") for m in outputs if m["msg_type"] == "stream"]
    parts += results(outputs)
    for error in errors(outputs):
        parts += [error["evalue"]] + error["traceback"]
    return "\n".join(parts)


def interrupted(kc, code):
    return execute_and_interrupt_once_running(kc, code)


def test_a_trap_keeps_every_variable_and_names_the_users_line_once(kernel):
    km, kc = kernel
    run_cell(kc, "var counter = 0\nstruct Point { var x: Int }\nlet table = (0..<10_000).map { Double($0) }")
    run_cell(kc, "counter += 5\nvar origin = Point(x: 7)\nfinal class Box { var items = [1, 2] }\nlet box = Box()")
    run_cell(kc, "func pick(_ values: [Int], _ i: Int) -> Int {\n    values[i]\n}")
    reply, outputs = run_cell(kc, "box.items.append(3)\n[1, 2].map { pick(box.items, $0 + 5) }")
    assert reply["status"] == "error" and reply["ename"] == "Crash", reply
    shown = everything_shown(outputs, reply)
    assert reply["evalue"] == "In[3], line 2: Fatal error: Index out of range", reply["evalue"]
    assert shown.count("Index out of range") == 2, shown  # the value and its traceback line
    assert FRAME_MARKER not in shown and "ContiguousArrayBuffer" not in shown, shown
    assert "every variable of earlier cells is there" in " ".join(reply["traceback"]), reply["traceback"]
    reply, outputs = run_cell(kc, "(counter, origin.x, table.count, table[9_999], box.items)")
    assert results(outputs) == ["(5, 7, 10000, 9999.0, [1, 2])"], (reply, outputs)


@pytest.mark.parametrize("code, expected, line", [
    ("let none: Int? = nil\nnone!", "Unexpectedly found nil", 2),
    ("let zero = Int(\"0\")!\n1 / zero", "Division by zero", 2),
    ('precondition(counter < 0, "counter must be negative")', "counter must be negative", 1),
    ("import Glibc\nabort()", "SIGABRT", 2),
    ("import Glibc\nraise(SIGSEGV)", "SIGSEGV", 2),
    ("import Glibc\nexit(3)", "exit(3)", None),
    ("func down(_ n: Int) -> Int { n == 0 ? 0 : 1 + down(n - 1) }\ndown(100_000_000)", "stack overflow", 1),
])
def test_twenty_traps_of_every_kind_lose_nothing(kernel, code, expected, line):
    """7 kinds x 3 rounds: each names the cell and line of the trap (all but exit, which is
    no trap), and the counter the earlier cells built survives every one."""
    km, kc = kernel
    run_cell(kc, "var counter = 0")
    for round in range(3):
        reply, _ = run_cell(kc, "counter += 1")
        assert reply["status"] == "ok", (round, reply)
        reply, outputs = run_cell(kc, code)
        assert reply["status"] == "error" and reply["ename"] == "Crash", (round, reply)
        assert expected in reply["evalue"], (round, reply["evalue"])
        if line is not None:
            cell = reply["execution_count"]
            assert reply["evalue"].startswith(f"In[{cell}], line {line}: "), (round, reply["evalue"])
        assert FRAME_MARKER not in everything_shown(outputs, reply)
    reply, outputs = run_cell(kc, "counter")
    assert results(outputs) == ["3"], (reply, outputs)


@pytest.mark.parametrize("code, cause, line", [
    ("var big = Int.max\nbig += Int(counter)", "Fatal error: arithmetic overflow", 2),
    ("func pick(_ values: [Int], _ i: Int) -> Int {\n    values[i]\n}\nfor i in 0..<3 { print(pick([1, 2], i)) }",
     "Fatal error: Index out of range", 2),
    ("func first(_ o: Int?) -> Int {\n    let v = o!\n    return v\n}\nfor _ in 0..<1 { print(first(nil)) }",
     "Fatal error: Unexpectedly found nil while unwrapping an Optional value", 2),
    ('func check(_ x: Int) {\n    precondition(x > 0, "x must be positive")\n}\nfor i in [1, -1] { check(i) }',
     "Fatal error: precondition failure", 2),
])
def test_a_trap_in_an_optimised_cell_names_its_cause_cell_and_line(kernel, code, cause, line):
    """Issue 48: a cell with a loop or a function is built with -O and the release assert
    configuration, where a failed check is a bare trap with no runtime message; its cause
    comes from the line tables at the trap. The overflow cell (no loop: -Onone) traps the
    same way in any configuration, and used to say 'SIGILL ... no message' at line 1."""
    km, kc = kernel
    run_cell(kc, "var counter = 1")
    reply, outputs = run_cell(kc, code)
    assert reply["status"] == "error" and reply["ename"] == "Crash", reply
    assert reply["evalue"] == f"In[{reply['execution_count']}], line {line}: {cause}", reply["evalue"]
    assert FRAME_MARKER not in everything_shown(outputs, reply)
    reply, outputs = run_cell(kc, "counter")
    assert results(outputs) == ["1"], (reply, outputs)


def test_models_work_after_a_restore(kernel):
    km, kc = kernel
    reply, _ = run_cell(kc, f'let torch = try Model(contentsOf: "{MODELS}/fashion_cnn.ptl")\n'
                 f'let lite = try Model(contentsOf: "{MODELS}/fashion_cnn.tflite")\n'
                 'let input = try Tensor(shape: [1, 1, 28, 28], float32: (0..<784).map { Float($0 % 28) / 28 })\n'
                 'let nhwc = try Tensor(shape: [1, 28, 28, 1], float32: input.floats)\n'
                 'let before = (try torch.run(input).floats, try lite.run(nhwc).floats)')
    assert reply["status"] == "ok", reply
    reply, _ = run_cell(kc, "[0][1]")
    assert reply["ename"] == "Crash", reply
    reply, outputs = run_cell(kc, "let after = (try torch.run(input).floats, try lite.run(nhwc).floats)\n"
                                  "(after.0 == before.0, after.1 == before.1)")
    assert results(outputs) == ["(true, true)"], (reply, outputs)


def test_after_the_warm_up_restored_hosts_run_models_on_two_threads(kernel):
    """The snapshot taken once the preload's warm-up ran (libtorch used on its thread), and
    one taken after models ran on two threads, each become a host that runs TorchScript
    (OpenMP) and PyTorch Lite (XNNPACK's pthreadpool) on two threads with the outputs of one
    thread: no thread pool of the warm-up or of the old host is waited for in the copy."""
    km, kc = kernel
    reply, _ = run_cell(kc, "let ready = 1")   # its snapshot waits for the preload to end
    assert reply["status"] == "ok", reply
    reply, _ = run_cell(kc, "[0][1]")
    assert reply["ename"] == "Crash", reply
    setup = (f'let script = try Model(contentsOf: "{MODELS}/fashion_cnn.pt")\n'
             f'let lite = try Model(contentsOf: "{MODELS}/fashion_cnn.ptl")\n'
             'let input = try Tensor(shape: [1, 1, 28, 28], float32: (0..<784).map { Float($0 % 28) / 28 })\n'
             'let oneThread = (try script.run(input).floats, try lite.run(input).floats)\n'
             'try script.setThreads(2)\n'
             'try lite.setThreads(2)')
    reply, _ = run_cell(kc, setup, timeout=120)
    assert reply["status"] == "ok", reply
    compare = ("func close(_ a: [Float], _ b: [Float]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-4 } }\n"
               "var same = true\n"
               "for _ in 0..<3 {\n"
               "    let outputs = (try script.run(input).floats, try lite.run(input).floats)\n"
               "    same = same && close(outputs.0, oneThread.0) && close(outputs.1, oneThread.1)\n"
               "}\n"
               "(script.threads, lite.threads, same)")
    for restore in range(2):
        # A hang guard: a copy stuck in a thread pool of its parent never answers.
        reply, outputs = run_cell(kc, compare, timeout=120)
        assert results(outputs) == ["(2, 2, true)"], (restore, reply, outputs)
        reply, _ = run_cell(kc, "[0][1]")
        assert reply["ename"] == "Crash", reply
    reply, outputs = run_cell(kc, compare, timeout=120)
    assert results(outputs) == ["(2, 2, true)"], (reply, outputs)


def test_a_plain_loop_stops_on_an_interrupt_without_a_restart(kernel):
    km, kc = kernel
    run_cell(kc, "var kept = 42")
    pid = host_pid(km)
    reply, _ = interrupted(kc, "var m = 0\nwhile true { m &+= 1 }")
    assert reply["ename"] == "InterruptedError", reply
    reply, _ = interrupted(kc, "for _ in 0... { repeat { kept &+= 0 } while true }")
    assert reply["ename"] == "InterruptedError", reply
    assert host_pid(km) == pid, "the host was restarted"
    reply, outputs = run_cell(kc, "(kept, m > 0)")
    assert results(outputs) == ["(42, true)"], (reply, outputs)


def test_a_loop_that_cannot_throw_and_a_blocked_cell_are_stopped_and_restored(kernel):
    km, kc = kernel
    run_cell(kc, "var kept = 42\nfunc spin() { var k = 0; while true { k &+= 1 } }")
    reply, _ = interrupted(kc, "kept = 0\nspin()")
    assert reply["ename"] == "Crash" and "Interrupted" in reply["evalue"], reply
    reply, _ = interrupted(kc, "import Dispatch\nkept = 0\nDispatchSemaphore(value: 0).wait()")
    assert reply["ename"] == "Interrupted" and "within 2 s" in reply["evalue"], reply
    assert "every variable of earlier cells is there" in " ".join(reply["traceback"])
    reply, outputs = run_cell(kc, "kept")
    assert results(outputs) == ["42"], (reply, outputs)


def test_without_a_snapshot_the_cells_to_rerun_come_in_the_order_they_ran(kernel):
    km, kc = kernel
    run_cell(kc, "var b = 1")   # In[1]
    run_cell(kc, "var a = 2")   # In[2]
    run_cell(kc, "b = a + 1")   # In[3]
    after_third = {pid for pid, _ in children(host_pid(km))}
    run_cell(kc, "var c = b")   # In[4]
    # The host forks its snapshot after it has answered: wait for the one after In[4] (the
    # kernel then releases the one after In[3]), so none appears after the kill below.
    deadline = time.monotonic() + 30   # a hang guard: it takes milliseconds
    while time.monotonic() < deadline:
        now = {pid for pid, _ in children(host_pid(km))}
        if now and not now & after_third:
            break
        time.sleep(0.05)
    for pid, name in children(host_pid(km)):
        os.kill(pid, signal.SIGKILL)  # the snapshots
    time.sleep(0.5)
    reply, _ = run_cell(kc, "[0][1]")
    assert reply["ename"] == "Crash", reply
    lines = "\n".join(reply["traceback"])
    assert "Re-run In[1], In[2], In[4], in that order" in lines, lines
    reply, outputs = run_cell(kc, "c")
    assert reply["ename"] == "LostVariable", reply


@pytest.mark.parametrize("code, expected_stdout, expected_result", [
    ("%time 6 * 7", "Wall time:", "42"),
    ("%timeit 1 + 1", "per loop (mean ± std. dev. of", "runs of"),
    ("%%time\nlet q = 3\nq * 2", "Wall time:", "6"),
])
def test_one_line_timing_magics(kernel, code, expected_stdout, expected_result):
    km, kc = kernel
    reply, outputs = run_cell(kc, code)
    assert reply["status"] == "ok", reply
    assert expected_stdout in text_of(outputs), outputs
    assert expected_result in "".join(results(outputs)), outputs


@pytest.mark.parametrize("code, expected", [
    ("%time", "needs something to time"),
    ("%timeit 1 + 1\nlet z = 2", "must be the cell's only code"),
])
def test_timing_magics_that_cannot_run_say_why(kernel, code, expected):
    km, kc = kernel
    reply, _ = run_cell(kc, code)
    assert reply["status"] == "error" and reply["ename"] == "MagicError", reply
    assert expected in reply["evalue"], reply


def test_notebook_03_survives_a_trap_and_a_runaway_loop_with_every_variable():
    """The issue's lesson: all of notebook 03 run, then a trap; every variable it made is
    there without re-running anything. The same after interrupting `while true { }`."""
    from benchbook_kit.notebook_state import (code_cells, describe, recovery_milliseconds, run_notebook,
                                              start_notebook_kernel, top_level_variables)
    km, kc = start_notebook_kernel()
    try:
        seconds = run_notebook(kc, "03-classifying.ipynb")
        names = top_level_variables(code_cells("03-classifying.ipynb"))
        assert len(names) >= 20, names
        before = describe(kc, names)
        reply, outputs = run_cell(kc, "let firstLogit = allLogits[0][0]\nallLogits[10_000][0]")
        assert reply["ename"] == "Crash" and reply["evalue"].startswith("In["), reply
        assert "line 2: Fatal error: Index out of range" in reply["evalue"], reply["evalue"]
        milliseconds = recovery_milliseconds(reply)
        assert describe(kc, names) == before
        reply, _ = interrupted(kc, "while true { }")
        assert reply["ename"] == "InterruptedError", reply
        assert describe(kc, names) == before
        print(f"notebook 03: {len(names)} variables, ran in {seconds:.1f} s, restored in {milliseconds:.0f} ms")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.mark.parametrize("closing", ["close(1); close(2)", "close(0); close(1)", "close(0); close(2)",
                                     "close(0); close(1); close(2)",
                                     'dup2(open("/dev/null", O_WRONLY), 1); dup2(open("/dev/null", O_WRONLY), 2)'])
def test_closed_or_redirected_standard_descriptors_then_a_crash_lose_nothing(kernel, closing):
    """Issue 37, item 2: a cell may close or redirect descriptors 0-2; the host's channels
    and its snapshots do not depend on them, so a later crash loses no variable (a model
    included) and still names the cell and line."""
    km, kc = kernel
    reply, _ = run_cell(kc, f'var before = 11\nlet model = try Model(contentsOf: "{MODELS}/fashion_cnn.tflite")')
    assert reply["status"] == "ok", reply
    reply, _ = run_cell(kc, f"import Glibc\n{closing}")
    assert reply["status"] == "ok", reply
    reply, _ = run_cell(kc, "var after = 22")
    assert reply["status"] == "ok", reply
    reply, outputs = run_cell(kc, "let none: Int? = nil\nnone!")
    assert reply["status"] == "error" and reply["ename"] == "Crash", reply
    cell = reply["execution_count"]
    assert reply["evalue"].startswith(f"In[{cell}], line 2: ") and "Unexpectedly found nil" in reply["evalue"], reply
    assert "every variable of earlier cells is there" in " ".join(reply["traceback"]), reply["traceback"]
    reply, outputs = run_cell(kc, 'print("shown again")\n(before + after, try model.run(Tensor(shape: [1, 28, 28, 1], '
                                  'float32: [Float](repeating: 0, count: 784))).shape)')
    assert results(outputs) == ["(33, [1, 10])"], (reply, outputs)
    assert "shown again" in text_of(outputs), outputs


def test_a_snapshot_that_cannot_be_taken_is_reported_by_the_cell_at_once(kernel):
    """Issue 37, item 2: when the host cannot leave a snapshot after a cell (here its
    snapshot channel is gone), that cell's own output says so, before its reply."""
    km, kc = kernel
    run_cell(kc, "var kept = 1")
    reply, outputs = run_cell(kc, f"import Glibc\nclose({SNAPSHOT_DESCRIPTOR})")
    assert reply["status"] == "ok", reply
    stderr = text_of(outputs, "stderr")
    assert "snapshot" in stderr and "could not" in stderr, outputs
