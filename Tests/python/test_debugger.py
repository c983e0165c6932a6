"""JupyterLab's debugger protocol through a real jupyter_client (issue 50, phase 1):
`debug_request`/`debug_reply` on control, `debug_event` on IOPub, the session's order
(initialize, attach, debugInfo, configurationDone, disconnect), dumpCell at the path
JupyterLab computes (its own hash function, run with node, and ipykernel's), the Variables
panel (inspectVariables, a struct's fields through variables, richInspectVariables of a
Tensor and an Image), requests while a
long cell runs, breakpoints refused with the reason, malformed requests.
"""
import base64
import json
import re
import shutil
import subprocess
import time

import pytest
from ipykernel.compiler import murmur2_x86

from benchbook_kit import ROOT
from benchbook_kit.kernel import run_cell

pytestmark = pytest.mark.usefixtures("jupyter_directories")

SEED = 0xC70F6907


def send_debug(kc, content):
    """Sends a debug_request with this content; returns its msg_id."""
    msg = kc.session.msg("debug_request", content)
    kc.control_channel.send(msg)
    return msg["header"]["msg_id"]


def debug_reply(kc, msg_id, timeout=60):
    deadline = time.time() + timeout
    while True:
        reply = kc.control_channel.get_msg(timeout=max(0.1, deadline - time.time()))
        if reply["parent_header"].get("msg_id") == msg_id:
            assert reply["msg_type"] == "debug_reply"
            return reply["content"]


def debug(kc, command, arguments=None, seq=1, timeout=60):
    msg_id = send_debug(kc, {"type": "request", "seq": seq, "command": command, "arguments": arguments or {}})
    reply = debug_reply(kc, msg_id, timeout)
    assert reply["type"] == "response" and reply["request_seq"] == seq and reply["command"] == command, reply
    return reply


def ok(kc, code):
    reply, outputs = run_cell(kc, code)
    assert reply["status"] == "ok", (code, reply, outputs)
    return outputs


def start(kc):
    assert debug(kc, "initialize", {"clientID": "jupyterlab", "adapterID": "swift"})["success"]
    assert debug(kc, "attach", seq=2)["success"]


def jupyterlab_murmur2(text, seed):
    """JupyterLab's own murmur2 (the debugger's hash.ts), cut from the installed JupyterLab
    bundle and run with node."""
    bundles = list((ROOT / ".venv/share/jupyter/lab/static").glob("jlab_core.*.js"))
    assert bundles, "JupyterLab's bundle is not installed in .venv (make setup)"
    source = bundles[0].read_text(encoding="utf-8")
    found = re.search(r"let (\w+)=0x5bd1e995,(\w+)=new TextEncoder;function (\w+)\(e,t\)\{.*?>>>0\}", source)
    assert found, "JupyterLab's murmur2 was not found in its bundle"
    script = found.group(0) + f";process.stdout.write(String({found.group(3)}(process.argv[1], {seed})))"
    node = shutil.which("node")
    assert node, "node is needed to run JupyterLab's hash"
    return int(subprocess.run([node, "-e", script, text], capture_output=True, text=True, check=True).stdout)


def test_kernel_info_announces_the_debugger(kernel):
    km, kc = kernel
    content = kc.kernel_info(reply=True, timeout=10)["content"]
    assert content["debugger"] is True and "debugger" in content["supported_features"]
    # JupyterLab 4 enables its bug icon from the kernelspec's metadata, not from kernel_info.
    assert km.kernel_spec.metadata["debugger"] is True


def test_initialize_attach_debug_info_configuration_done_disconnect(kernel):
    km, kc = kernel
    info = debug(kc, "debugInfo")
    assert info["success"] and info["body"]["isStarted"] is False
    reply = debug(kc, "initialize", {"clientID": "jupyterlab", "adapterID": "swift"}, seq=5)
    assert reply["success"] and reply["body"]["supportsConfigurationDoneRequest"] is True
    deadline = time.time() + 30
    while True:   # the DAP `initialized` event, on IOPub
        msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        if msg["msg_type"] == "debug_event":
            assert msg["content"]["event"] == "initialized" and msg["content"]["type"] == "event"
            break
    assert debug(kc, "attach", seq=6)["success"]
    info = debug(kc, "debugInfo", seq=7)["body"]
    assert info["isStarted"] is True
    assert info["hashMethod"] == "Murmur2" and info["hashSeed"] == SEED
    assert info["tmpFilePrefix"].endswith("/") and info["tmpFileSuffix"] == ".swift"
    assert info["breakpoints"] == [] and info["stoppedThreads"] == [] and info["richRendering"] is True
    assert debug(kc, "configurationDone", seq=8)["success"]
    assert debug(kc, "disconnect", {"restart": False, "terminateDebuggee": True}, seq=9)["success"]
    assert debug(kc, "debugInfo", seq=10)["body"]["isStarted"] is False
    refused = debug(kc, "dumpCell", {"code": "let x = 1"}, seq=11)
    assert not refused["success"] and "initialize" in refused["message"]


def test_dump_cell_writes_the_cell_at_the_path_jupyterlab_computes(kernel):
    km, kc = kernel
    start(kc)
    info = debug(kc, "debugInfo", seq=3)["body"]
    code = 'let greeting = "héllo 🐱"\nprint(greeting)\n'
    expected = f"{info['tmpFilePrefix']}{jupyterlab_murmur2(code, info['hashSeed'])}{info['tmpFileSuffix']}"
    assert jupyterlab_murmur2(code, SEED) == murmur2_x86(code, SEED)   # JupyterLab and ipykernel agree
    reply = debug(kc, "dumpCell", {"code": code}, seq=4)
    assert reply["success"] and reply["body"]["sourcePath"] == expected
    with open(expected, encoding="utf-8") as cell:
        assert cell.read() == code
    source = debug(kc, "source", {"source": {"path": expected}}, seq=5)
    assert source["success"] and source["body"]["content"] == code
    missing = debug(kc, "source", {"source": {"path": "/etc/hostname"}}, seq=6)
    assert not missing["success"] and "not a cell this kernel dumped" in missing["message"]


def test_inspect_variables_lists_the_notebooks_variables_with_types_and_values(kernel):
    km, kc = kernel
    start(kc)
    assert debug(kc, "inspectVariables", seq=3)["body"]["variables"] == []
    ok(kc, "struct Point { var x = 1, y = 2 }\nlet origin = Point(x: 3, y: 4)\nvar count = 41")
    ok(kc, "count += 1\nlet t = try Tensor(shape: [2, 2], float32: [1, 2, 3, 6])")
    ok(kc, "let image = try Image(width: 2, height: 1, format: .gray, pixels: [0, 255])")
    variables = {v["name"]: v for v in debug(kc, "inspectVariables", seq=4)["body"]["variables"]}
    assert set(variables) == {"origin", "count", "t", "image"}, variables   # no struct Point: not a variable
    assert (variables["count"]["type"], variables["count"]["value"]) == ("Int", "42")   # the value now, from the host
    assert (variables["origin"]["type"], variables["origin"]["value"]) == ("Point", "Point(x: 3, y: 4)")
    assert variables["t"]["type"] == "Tensor" and "shape=[2, 2]" in variables["t"]["value"]
    assert variables["image"]["type"] == "Image"
    assert all(v["evaluateName"] == v["name"] for v in variables.values())
    # A struct opens to its fields; an Int, a Tensor and an Image (each has its own description) do not.
    assert [variables[name]["variablesReference"] for name in ("count", "t", "image")] == [0, 0, 0]
    fields = debug(kc, "variables", {"variablesReference": variables["origin"]["variablesReference"]}, seq=5)
    assert [(f["name"], f["type"], f["value"], f["variablesReference"]) for f in fields["body"]["variables"]] == [
        ("x", "Int", "3", 0), ("y", "Int", "4", 0)]
    # Nothing the debugger ran shows in the notebook, and the execution count is the user's.
    reply, outputs = run_cell(kc, "count")
    assert reply["execution_count"] == 4 and outputs[-1]["content"]["data"]["text/plain"] == "42"


def test_rich_inspect_of_a_tensor_and_an_image(kernel):
    km, kc = kernel
    start(kc)
    ok(kc, "let t = try Tensor(shape: [2, 2], float32: [1, 2, 3, 6])\n"
           "let image = try Image(width: 2, height: 1, format: .gray, pixels: [0, 255])")
    tensor = debug(kc, "richInspectVariables", {"variableName": "t"}, seq=3)
    assert tensor["success"], tensor
    text = tensor["body"]["data"]["text/plain"]
    for line in ["float32 tensor, shape [2, 2]", "elements: 4", "min: 1", "max: 6", "mean: 3", "std: 1.8708"]:
        assert line in text, (line, text)
    assert "<table>" in tensor["body"]["data"]["text/html"]
    image = debug(kc, "richInspectVariables", {"variableName": "image"}, seq=4)
    assert image["success"], image
    png = base64.b64decode(image["body"]["data"]["image/png"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width == 2 * height, (width, height)   # the 2x1 image, as its notebook display shows it (enlarged)
    missing = debug(kc, "richInspectVariables", {"variableName": "nothing"}, seq=5)
    assert not missing["success"] and "'nothing' is not a variable" in missing["message"]


def test_requests_are_answered_while_a_long_cell_runs(kernel):
    km, kc = kernel
    start(kc)
    ok(kc, "var n = 7")
    assert [v["value"] for v in debug(kc, "inspectVariables", seq=3)["body"]["variables"]] == ["7"]
    msg_id = kc.execute("import Foundation\nn = 8\nThread.sleep(forTimeInterval: 8)")
    deadline = time.time() + 60
    while True:   # the cell is running once its busy status is out
        msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "execute_input":
            break
    time.sleep(1)
    during = debug(kc, "inspectVariables", seq=4)
    info = debug(kc, "debugInfo", seq=5)
    rich = debug(kc, "richInspectVariables", {"variableName": "n"}, seq=6)
    # Each answered before the cell ended: no execute_reply yet.
    assert kc.shell_channel.msg_ready() is False
    assert during["success"] and [v["value"] for v in during["body"]["variables"]] == ["7"]   # as read last
    assert info["success"] and info["body"]["isStarted"] is True
    assert not rich["success"] and "A cell is running" in rich["message"]
    reply = kc.get_shell_msg(timeout=60)
    assert reply["parent_header"]["msg_id"] == msg_id and reply["content"]["status"] == "ok"
    after = debug(kc, "inspectVariables", seq=7)
    assert [v["value"] for v in after["body"]["variables"]] == ["8"]


def test_breakpoints_and_stepping_are_refused_with_the_reason(kernel):
    km, kc = kernel
    start(kc)
    path = debug(kc, "dumpCell", {"code": "let x = 1"}, seq=3)["body"]["sourcePath"]
    reply = debug(kc, "setBreakpoints", {"source": {"path": path}, "breakpoints": [{"line": 1}],
                                         "sourceModified": False}, seq=4)
    assert reply["success"] is False and "LLDB" in reply["message"] and "Variables panel works" in reply["message"]
    # JupyterLab reads body.breakpoints whatever the status: each one is there, not verified.
    assert [(b["line"], b["verified"]) for b in reply["body"]["breakpoints"]] == [(1, False)]
    for seq, command in enumerate(["stackTrace", "next", "stepIn", "continue"], start=5):
        reply = debug(kc, command, {"threadId": 1}, seq=seq)
        assert reply["success"] is False and "LLDB" in reply["message"], reply
    unknown = debug(kc, "launchRockets", seq=20)
    assert unknown["success"] is False and "'launchRockets'" in unknown["message"]


def test_a_malformed_debug_request_gets_an_error_and_the_kernel_keeps_serving(kernel):
    km, kc = kernel
    for content in [{}, {"type": "request", "seq": 1}, {"type": "request", "command": "initialize"},
                    {"type": "request", "seq": 2, "command": "dumpCell", "arguments": [1, 2]}, {"seq": "x"}]:
        reply = debug_reply(kc, send_debug(kc, content))
        assert reply["type"] == "response" and reply["success"] is False, (content, reply)
        assert "could not read this debug_request" in reply["message"], reply
    assert kc.kernel_info(reply=True, timeout=10)["content"]["debugger"] is True
    outputs = ok(kc, 'print("still here")')
    assert any(m["msg_type"] == "stream" and m["content"]["text"] == "still here\n" for m in outputs)
    start(kc)
