"""Heavy hostile inputs through a real jupyter_client (`make test-hostile`, issue 37 item 8):
bounded work per message. A signed 50 MB message of 5 M small objects held the shell thread
28 s alone (85 s at load 4-6) and took the kernel to 1.37 GB."""
import time

from benchbook_kit.kernel import results, run_cell


def peak_resident_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def send_and_time(kc, msg_type, content):
    """Sends a request on shell and returns (its reply, seconds from the send to the reply)."""
    msg = kc.session.msg(msg_type, content)
    started = time.monotonic()
    kc.shell_channel.send(msg)
    while True:
        reply = kc.get_shell_msg(timeout=300)
        if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
            return reply, time.monotonic() - started


def test_a_message_of_five_million_small_objects_is_bounded_work(kernel):
    km, kc = kernel
    pid = km.provisioner.process.pid
    reply, outputs = run_cell(kc, "let kept = 41")
    assert reply["status"] == "ok", reply
    before = peak_resident_mb(pid)
    padding = [{"a": 1}] * 5_000_000          # about 45 MB of JSON
    reply, seconds = send_and_time(kc, "execute_request", {
        "code": "kept + 1", "silent": False, "store_history": True, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": True, "padding": padding})
    grown = peak_resident_mb(pid) - before
    print(f"5 M objects: answered in {seconds:.1f} s (the client's own signing included), kernel peak +{grown:.0f} MB")
    content = reply["content"]
    assert content["status"] == "error" and content["ename"] == "InvalidMessage", content
    assert "content" in content["evalue"] and "1,000,000" in content["evalue"], content["evalue"]
    assert seconds < 20, f"the shell thread was held {seconds:.1f} s"    # a hang guard: 28 s alone before, 2-4 s now
    assert grown < 400, f"the kernel grew {grown:.0f} MB"                 # 1.37 GB before
    reply, outputs = run_cell(kc, "kept + 1")
    assert results(outputs) == ["42"], reply


def test_a_message_just_under_the_value_budget_is_served(kernel):
    """The most work a message can cost now: 999,000 small objects (1 M values with the
    header's), read and served."""
    km, kc = kernel
    pid = km.provisioner.process.pid
    run_cell(kc, "let kept = 41")
    before = peak_resident_mb(pid)
    reply, seconds = send_and_time(kc, "execute_request", {
        "code": "kept + 1", "silent": False, "store_history": True, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": True, "padding": [{}] * 999_000})
    grown = peak_resident_mb(pid) - before
    print(f"999,000 objects: answered in {seconds:.1f} s, kernel peak +{grown:.0f} MB")
    assert reply["content"]["status"] == "ok", reply["content"]
    assert seconds < 20, f"the shell thread was held {seconds:.1f} s"    # a hang guard
    assert grown < 400, f"the kernel grew {grown:.0f} MB"


def test_a_fifty_megabyte_string_still_runs(kernel):
    km, kc = kernel
    big = "x" * (50 * 1024 * 1024)
    reply, outputs = run_cell(kc, "// " + big + "\n1 + 1", timeout=300)
    assert reply["status"] == "ok", reply
    assert results(outputs) == ["2"]
