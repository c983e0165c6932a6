"""The kernel against a real jupyter_client: signing, bad input, control during a long
cell, heartbeat, execution counting, stdin. Every test starts its own kernel."""
import datetime
import json
import time

import pytest
import zmq
from jupyter_client.session import Session

from benchbook_kit.kernel import RUNNING_MARKER, collect, results, run_cell, send_comm, text_of


def connection(km):
    return km.get_connection_info(session=False)


def raw_socket(km, kind, port_name):
    info = connection(km)
    sock = zmq.Context.instance().socket(kind)
    sock.linger = 0
    sock.connect(f"{info['transport']}://{info['ip']}:{info[port_name]}")
    return sock


def still_answers(kc):
    reply, outputs = run_cell(kc, "40 + 2")
    assert reply["status"] == "ok"
    assert results(outputs) == ["42"]


def test_wrong_key_is_dropped_and_kernel_keeps_serving(kernel):
    km, kc = kernel
    wrong = Session(key=b"not-the-key")
    sock = raw_socket(km, zmq.DEALER, "shell_port")
    marker = "/tmp/benchbook-should-not-exist"
    msg = wrong.msg("execute_request", {"code": f'import Foundation\nFileManager.default.createFile(atPath: "{marker}", contents: nil)',
                                        "silent": False, "store_history": True, "user_expressions": {},
                                        "allow_stdin": False, "stop_on_error": True})
    wrong.send(sock, msg)
    assert sock.poll(2000) == 0, "a message with a wrong signature got a reply"
    import os
    assert not os.path.exists(marker)
    still_answers(kc)


def test_missing_signature_is_dropped(kernel):
    km, kc = kernel
    sock = raw_socket(km, zmq.DEALER, "shell_port")
    header = json.dumps({"msg_id": "x1", "msg_type": "kernel_info_request", "session": "s", "username": "u",
                         "date": "2026-01-01T00:00:00Z", "version": "5.3"}).encode()
    sock.send_multipart([b"<IDS|MSG>", b"", header, b"{}", b"{}", b"{}"])
    assert sock.poll(2000) == 0
    still_answers(kc)


def test_malformed_frames_and_json_do_not_kill_the_kernel(kernel):
    km, kc = kernel
    session = kc.session
    sock = raw_socket(km, zmq.DEALER, "shell_port")
    sock.send_multipart([b"no delimiter at all"])
    sock.send_multipart([b"<IDS|MSG>", b"sig"])  # truncated
    bad = [b"{not json", b"{}", b"{}", b"{}"]
    sock.send_multipart([b"<IDS|MSG>", session.sign(bad)] + bad)
    wrong_types = [json.dumps({"msg_id": 5, "msg_type": ["x"]}).encode(), b"{}", b"{}", b"[]"]
    sock.send_multipart([b"<IDS|MSG>", session.sign(wrong_types)] + wrong_types)
    # A valid header whose content fields have the wrong types.
    msg = session.msg("execute_request", {"code": 12, "silent": "yes", "store_history": None})
    session.send(sock, msg)
    assert sock.poll(5000)
    reply = session.recv(sock, mode=0)[1]
    assert reply["header"]["msg_type"] == "execute_reply"
    still_answers(kc)


def test_unknown_request_gets_an_error_reply(kernel):
    km, kc = kernel
    msg = kc.session.msg("frobnicate_request", {})
    kc.shell_channel.send(msg)
    reply = kc.get_shell_msg(timeout=10)
    assert reply["header"]["msg_type"] == "frobnicate_reply"
    assert reply["content"]["status"] == "error"
    still_answers(kc)


def test_fifty_megabyte_message(kernel):
    km, kc = kernel
    big = "x" * (50 * 1024 * 1024)
    reply, outputs = run_cell(kc, "// " + big + "\n1 + 1", timeout=300)
    assert reply["status"] == "ok"
    assert results(outputs) == ["2"]


def test_heartbeat_answers_during_a_ten_second_cell(kernel):
    km, kc = kernel
    msg_id = kc.execute("import Foundation\nThread.sleep(forTimeInterval: 10)\n\"slept\"")
    hb = raw_socket(km, zmq.REQ, "hb_port")
    answered = 0
    start = time.time()
    while time.time() - start < 9:
        hb.send(b"ping")
        assert hb.poll(1000), "heartbeat did not answer within 1 s while a cell ran"
        assert hb.recv() == b"ping"
        answered += 1
        time.sleep(0.5)
    assert answered >= 10
    reply, outputs = collect(kc, msg_id)
    assert results(outputs) == ['"slept"']


def control_request(kc, msg_type, content=None):
    msg = kc.session.msg(msg_type, content or {})
    kc.control_channel.send(msg)
    return kc.control_channel.get_msg(timeout=10)


def test_interrupt_stops_a_library_loop_and_keeps_state(kernel):
    km, kc = kernel
    run_cell(kc, "var kept = 7")
    msg_id = kc.execute(f'print("{RUNNING_MARKER}")\nvar spins = 0\nwhile true {{ spins += 1; try Interrupt.check("the loop") }}')
    wait_for_text(kc, msg_id, RUNNING_MARKER)
    reply = control_request(kc, "interrupt_request")
    assert reply["content"]["status"] == "ok"
    content, outputs = collect(kc, msg_id)
    assert content["status"] == "error"
    assert content["ename"] == "InterruptedError"
    assert "interrupted" in content["evalue"]
    reply, outputs = run_cell(kc, "kept")
    assert results(outputs) == ["7"]


def test_interrupt_replaces_a_blocked_cells_host_with_its_snapshot(kernel):
    km, kc = kernel
    run_cell(kc, "let before = 1")
    msg_id = kc.execute(f'print("{RUNNING_MARKER}")\nimport Dispatch\nDispatchSemaphore(value: 0).wait()')
    wait_for_text(kc, msg_id, RUNNING_MARKER)
    control_request(kc, "interrupt_request")
    started = time.time()
    content, outputs = collect(kc, msg_id)
    # A hang guard: the grace period (2 s), then the snapshot's promotion; a fresh host in
    # its place (after the 5 s restore timeout) fails the traceback's check below instead.
    assert time.time() - started < 30
    assert content["ename"] == "Interrupted"
    assert "every variable of earlier cells is there" in " ".join(content["traceback"])
    reply, outputs = run_cell(kc, "before + 1")
    assert results(outputs) == ["2"], reply
    still_answers(kc)


def wait_for_text(kc, msg_id, text, timeout=120):
    """Reads iopub until cell `msg_id` prints `text` (it runs: its compile is over)."""
    deadline = time.time() + timeout
    while True:
        msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream" and text in msg["content"]["text"]:
            return


def test_shutdown_over_control_during_a_long_cell(kernel):
    km, kc = kernel
    kc.execute("import Foundation\nThread.sleep(forTimeInterval: 60)")
    time.sleep(2)
    started = time.time()
    reply = control_request(kc, "shutdown_request", {"restart": False})
    assert reply["content"]["status"] == "ok"
    for _ in range(50):
        if not km.is_alive():
            break
        time.sleep(0.1)
    assert not km.is_alive()
    assert time.time() - started < 5


def test_execution_count_silent_and_store_history(kernel):
    km, kc = kernel
    first, _ = run_cell(kc, "1")
    silent, outputs = run_cell(kc, 'print("quiet")\n2', silent=True)
    assert outputs == []
    unstored, _ = run_cell(kc, "3", store_history=False)
    second, outputs = run_cell(kc, "4")
    assert second["execution_count"] == first["execution_count"] + 1
    inputs = [m for m in outputs if m["msg_type"] == "execute_input"]
    assert inputs[0]["content"]["execution_count"] == second["execution_count"]


def test_stop_on_error_aborts_queued_cells(kernel):
    km, kc = kernel
    failing = kc.execute("struct Boom: Error {}\nthrow Boom()")
    queued = kc.execute("print(\"should not run\")")
    content, _ = collect(kc, failing)
    assert content["status"] == "error"
    content, outputs = collect(kc, queued)
    assert content["status"] == "aborted"
    assert text_of(outputs) == ""


@pytest.mark.parametrize("skew_hours", [1, -1])
def test_stop_on_error_aborts_what_had_arrived_whatever_the_clients_clock(kernel, skew_hours):
    """The requests queued behind a failure are aborted and the user's next cell runs, with
    header dates an hour ahead of the kernel's clock or an hour behind it. The user's next
    cell arrives while the kernel still serves the queue (a comm message that takes 0.5 s)."""
    km, kc = kernel
    run_cell(kc, 'import Foundation\nCommTargets.register("bench.slow") { comm, _ in\n'
                 '    comm.onMessage { _ in usleep(500_000) }\n}')
    send_comm(kc, "comm_open", {"comm_id": "slow", "target_name": "bench.slow", "data": {}})

    def send(msg_type, content):
        msg = kc.session.msg(msg_type, content)
        msg["header"]["date"] = msg["header"]["date"] + datetime.timedelta(hours=skew_hours)
        kc.shell_channel.send(msg)
        return msg["header"]["msg_id"]

    def execute(code):
        return send("execute_request", {"code": code, "silent": False, "store_history": True,
                                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})

    failing = execute("usleep(300_000)\nstruct Boom: Error {}\nthrow Boom()")
    send("comm_msg", {"comm_id": "slow", "data": {}})
    queued = execute('print("queued")')
    content, _ = collect(kc, failing)
    assert content["status"] == "error", content
    after = execute('print("sent after the error")')
    content, outputs = collect(kc, queued)
    assert content["status"] == "aborted", content
    assert text_of(outputs) == ""
    content, outputs = collect(kc, after)
    assert content["status"] == "ok", content
    assert text_of(outputs) == "sent after the error\n"


def test_input_request_and_refusal(kernel):
    km, kc = kernel
    msg_id = kc.execute('let name = try input("name? ")\n"hello " + name', allow_stdin=True)
    request = kc.stdin_channel.get_msg(timeout=60)
    assert request["header"]["msg_type"] == "input_request"
    assert request["content"]["prompt"] == "name? "
    kc.input("Ada")
    content, outputs = collect(kc, msg_id)
    assert results(outputs) == ['"hello Ada"']
    content, outputs = run_cell(kc, 'let other = try input("again? ")', allow_stdin=False)
    assert content["status"] == "error"
    assert "allow_stdin" in content["evalue"]


def test_comm_open_for_unknown_target_is_closed(kernel):
    km, kc = kernel
    msg = kc.session.msg("comm_open", {"comm_id": "c1", "target_name": "nothing", "data": {}})
    kc.shell_channel.send(msg)
    deadline = time.time() + 10
    while time.time() < deadline:
        m = kc.get_iopub_msg(timeout=10)
        if m["msg_type"] == "comm_close":
            assert m["content"]["comm_id"] == "c1"
            break
    else:
        raise AssertionError("no comm_close")
    kc.comm_info()
    reply = kc.get_shell_msg(timeout=10)
    assert reply["content"]["comms"] == {}


def test_user_expressions_are_evaluated_after_the_cell(kernel):
    km, kc = kernel
    msg_id = kc.execute("let side = 7", user_expressions={"area": "side * side", "label": '"side \\(side)"',
                                                         "broken": "side.nothing"})
    reply, outputs = collect(kc, msg_id)
    assert reply["status"] == "ok", reply
    answers = reply["user_expressions"]
    assert answers["area"] == {"status": "ok", "data": {"text/plain": "49"}, "metadata": {}}, answers
    assert answers["label"]["data"]["text/plain"] == '"side 7"', answers
    assert answers["broken"]["status"] == "error" and "nothing" in answers["broken"]["evalue"], answers
    assert [m for m in outputs if m["msg_type"] in ("execute_result", "stream", "error")] == [], "silent"
    again, _ = run_cell(kc, "side")
    assert again["execution_count"] == reply["execution_count"] + 1, "the expressions are not counted"


def test_kernel_info_names_the_toolchain_that_compiles_cells(kernel):
    import subprocess
    km, kc = kernel
    version = kc.kernel_info(reply=True)["content"]["language_info"]["version"]
    said = subprocess.run(["swiftc", "--version"], capture_output=True, text=True).stdout
    assert f"Swift version {version} " in said, (version, said)


def test_a_stale_input_reply_answers_no_question(kernel):
    """Issue 37, item 1: a signed input_reply sent before the cell asks (no parent) is
    dropped, as ipykernel drops what waits on stdin before it sends input_request; a reply
    whose parent is another request is dropped too. Each question gets its own answer."""
    km, kc = kernel
    stale = kc.session.msg("input_reply", {"value": "STALE"})
    kc.stdin_channel.send(stale)
    time.sleep(0.5)   # it has reached the kernel before the cell asks
    msg_id = kc.execute('let a = try input("q1? ")\nlet b = try input("q2? ")\n"\\(a) \\(b)"', allow_stdin=True)
    first = kc.stdin_channel.get_msg(timeout=60)
    assert first["content"]["prompt"] == "q1? "
    # An answer to some other request, then the answer to this one.
    other = kc.session.msg("input_reply", {"value": "OTHER"}, parent={"msg_id": "another-input-request"})
    kc.stdin_channel.send(other)
    kc.stdin_channel.send(kc.session.msg("input_reply", {"value": "REAL"}, parent=first["header"]))
    second = kc.stdin_channel.get_msg(timeout=60)
    assert second["content"]["prompt"] == "q2? "
    kc.input("SECOND")   # jupyter_client's own reply carries no parent: it is taken
    content, outputs = collect(kc, msg_id)
    assert results(outputs) == ['"REAL SECOND"'], (content, outputs)


@pytest.mark.parametrize("step_hours", [-1, 1])
def test_an_interrupt_applies_whatever_the_clients_clock_did(kernel, step_hours):
    """Issue 37, item 6: the client's clock steps an hour after it sent the cell; its
    interrupt still stops the cell (no clock decides which cell an interrupt is for)."""
    km, kc = kernel
    msg_id = kc.execute(f'print("{RUNNING_MARKER}")\nvar n = 0\nwhile true {{ n += 1; try Interrupt.check("spin") }}')
    deadline = time.time() + 120
    while True:
        msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream" \
                and RUNNING_MARKER in msg["content"]["text"]:
            break
    interrupt = kc.session.msg("interrupt_request", {})
    interrupt["header"]["date"] = interrupt["header"]["date"] + datetime.timedelta(hours=step_hours)
    kc.control_channel.send(interrupt)
    content, _ = collect(kc, msg_id, timeout=30)
    assert content["status"] == "error" and content["ename"] == "InterruptedError", content
    still_answers(kc)
