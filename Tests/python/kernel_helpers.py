"""Helpers to run cells through a real jupyter_client and collect what they produced."""
import time


def run_cell(kc, code, timeout=120, **options):
    """Executes code and returns (reply content, [iopub messages for it, minus status])."""
    msg_id = kc.execute(code, **options)
    return collect(kc, msg_id, timeout)


def collect(kc, msg_id, timeout=120):
    """Waits for the idle status of msg_id and its execute_reply."""
    outputs = []
    deadline = time.time() + timeout
    while True:
        msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status":
            if msg["content"]["execution_state"] == "idle":
                break
            continue
        outputs.append(msg)
    while True:
        reply = kc.get_shell_msg(timeout=max(0.1, deadline - time.time()))
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply["content"], outputs


def text_of(outputs, kind="stdout"):
    """All stream text of one kind."""
    return "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream" and m["content"]["name"] == kind)


def results(outputs):
    """The text/plain of every execute_result."""
    return [m["content"]["data"]["text/plain"] for m in outputs if m["msg_type"] == "execute_result"]


def errors(outputs):
    return [m["content"] for m in outputs if m["msg_type"] == "error"]


RUNNING_MARKER = "benchbook-test: running"


def execute_and_interrupt_once_running(kc, code, after=0.3, timeout=120):
    """Executes `print(<marker>)` and then `code` (so the cell's lines are one lower), waits
    until the marker is printed (the cell runs: compiling is over, however loaded the
    machine is), sends interrupt_request on control `after` seconds later, and returns
    (reply content, outputs after the interrupt)."""
    msg_id = kc.execute(f'print("{RUNNING_MARKER}")\n' + code)
    deadline = time.time() + timeout
    while True:
        msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "stream" and RUNNING_MARKER in msg["content"]["text"]:
            break
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            raise AssertionError(f"the cell ended before it printed its marker: {code!r}")
    time.sleep(after)
    kc.control_channel.send(kc.session.msg("interrupt_request", {}))
    return collect(kc, msg_id, timeout)
