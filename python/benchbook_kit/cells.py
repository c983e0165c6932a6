"""Cells checked as a user reads them (issue 37, item 4): a cell that must run, one that must
fail, everything a cell showed, and never a name of the code the kernel generates around it.

    from benchbook_kit.cells import GENERATED, fails, run, shown
"""
import re

from .kernel import results, run_cell, text_of

# The names the kernel's generated code uses (the cell's scope and entry point, its module,
# unset deferred values): none may reach what a user is shown.
GENERATED = re.compile(r"__bb|__benchbook|_BenchbookCell|_BenchbookScope|_BenchbookUnset|\bCell[0-9]+\b|benchbook_cell")


def run(kc, code):
    """Runs a cell that must succeed and show no generated name; returns (stdout, [results])."""
    reply, outputs = run_cell(kc, code)
    assert reply["status"] == "ok", f"{code!r}: {reply.get('ename')}: {reply.get('evalue')}\n" + "\n".join(reply.get("traceback", []))
    for message in outputs:
        assert not GENERATED.search(str(message["content"])), f"{code!r}: generated name shown: {message['content']}"
    return text_of(outputs), results(outputs)


def fails(kc, code):
    """Runs a cell that must fail with no generated name in its error; returns the reply."""
    reply, outputs = run_cell(kc, code)
    assert reply["status"] == "error", f"{code!r} should fail: {outputs}"
    assert not GENERATED.search(" ".join(reply["traceback"]) + reply["evalue"]), reply
    return reply


def shown(outputs, reply):
    """Everything a user reads for a cell: its streams, its results, its error."""
    parts = [m["content"].get("text", "") for m in outputs if m["msg_type"] == "stream"]
    parts += results(outputs)
    if reply["status"] == "error":
        parts += [reply["evalue"]] + reply["traceback"]
    return "\n".join(parts)
