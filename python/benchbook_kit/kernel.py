"""A real Benchbook kernel through jupyter_client: starting one from the installed
kernelspec, running cells and collecting what they produced, and its processes."""
import os
import time

from jupyter_client.manager import start_new_kernel

# The kernelspec the tests and benchmarks start ("swift", as `make kernelspec` installs it).
KERNEL_NAME = os.environ.get("BENCHBOOK_KERNEL_NAME", "swift")

# The marker of a crash report's frame line on a cell host's standard error (as in
# StandardErrorFilterTests.swift): never part of what a user is shown.
FRAME_MARKER = "@@benchbook-crash-frame@@"


def start_kernel(env=None, cwd=None, name=KERNEL_NAME, startup_timeout=60):
    """A started kernel and a blocking client (jupyter_client's start_new_kernel): `env` on top
    of os.environ, `cwd` its working directory (the notebook's folder). Returns (km, kc)."""
    options = {"env": {**os.environ, **(env or {})}}
    if cwd is not None:
        options["cwd"] = str(cwd)
    return start_new_kernel(kernel_name=name, startup_timeout=startup_timeout, **options)


def complete(kc, code, cursor=None, timeout=30):
    """The content of the complete_reply to one complete_request."""
    msg_id = kc.complete(code, cursor)
    while True:
        reply = kc.get_shell_msg(timeout=timeout)
        if reply["parent_header"].get("msg_id") == msg_id:
            assert reply["header"]["msg_type"] == "complete_reply"
            return reply["content"]


def complete_from_server(kc, code, cursor=None, seconds=60):
    """The first complete_reply SourceKit-LSP answered. A completion never waits for the
    server to start: the request that finds none starts it on a thread of its own and is
    answered at once from the notebook's names and the API index, which know no value's type;
    so ask again, as a student presses Tab again, until the server answers (AssertionError
    after `seconds`, a bound only against a hang)."""
    deadline = time.monotonic() + seconds
    while True:
        content = complete(kc, code, cursor)
        if content["metadata"].get("benchbook_source") == "languageServer" or time.monotonic() > deadline:
            break
        time.sleep(0.25)
    if content["metadata"].get("benchbook_source") != "languageServer":
        raise AssertionError(f"SourceKit-LSP never answered for {code!r}: {content}")
    return content


def kernel_pid(km):
    """The pid of the kernel process a KernelManager started."""
    return km.provisioner.process.pid


def host_pid(km):
    """The pid of the kernel's one cell host; AssertionError, with the kernel's children,
    when it has none or several."""
    hosts = [pid for pid, name in children(kernel_pid(km)) if name == "benchbook-cell-host"]
    assert len(hosts) == 1, children(kernel_pid(km))
    return hosts[0]


def children(pid):
    """(pid, program name) of the processes whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read()
        except OSError:
            continue
        parent = int(fields[fields.rindex(")") + 2:].split()[1])
        if parent == pid:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                program = cmdline.read().split(b"\0")[0].decode()
            found.append((int(entry), os.path.basename(program)))
    return found


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


def send_comm(kc, msg_type, content, buffers=None, timeout=30):
    """Sends a comm message on shell and returns its iopub messages up to its idle."""
    msg = kc.session.msg(msg_type, content)
    kc.session.send(kc.shell_channel.socket, msg, buffers=buffers or [])
    outputs, busy = [], False
    deadline = time.time() + timeout
    while True:
        m = kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        if m["parent_header"].get("msg_id") != msg["header"]["msg_id"]:
            continue
        if m["msg_type"] == "status":
            if m["content"]["execution_state"] == "busy":
                busy = True
            elif busy:
                return outputs
            continue
        outputs.append(m)


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
