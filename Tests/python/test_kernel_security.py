"""Transport security and untrusted messages, through real clients: CurveZMQ started by
jupyter_client (transport_encryption="required") over TCP and IPC, a client without the
keys, replayed signed messages sent with a raw ZeroMQ socket, signed requests whose
content cannot be decoded, protocol 5.5 kernel info, and keys never reaching the log."""
import json
import os
import subprocess
import time

import pytest
import zmq
from jupyter_client.manager import KernelManager
from jupyter_client.session import Session

from benchbook_kit.kernel import KERNEL_NAME, results, run_cell
from benchbook_kit.ports import free_ports

SILENCE_MS = 2500   # how long "gets nothing" waits; a served request answers in ms


def start(tmp_path, **manager_options):
    """A kernel whose stdout/stderr go to a log file, and a blocking client."""
    km = KernelManager(kernel_name=KERNEL_NAME, **manager_options)
    log = open(tmp_path / "kernel.log", "w")
    km.start_kernel(stdout=log, stderr=log)
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc, log


@pytest.fixture
def curve_kernel(tmp_path):
    km, kc, log = start(tmp_path, transport_encryption="required")
    yield km, kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    log.close()


def url(km, port_name):
    info = km.get_connection_info(session=False)
    if info["transport"] == "ipc":
        return f"ipc://{info['ip']}-{info[port_name]}"
    return f"tcp://{info['ip']}:{info[port_name]}"


def raw(km, kind, port_name, curve_server_key=None):
    """A raw ZeroMQ socket to one of the kernel's ports; a CURVE client when given a key."""
    sock = zmq.Context.instance().socket(kind)
    sock.linger = 0
    # A send with no peer connected waits for one; a socket whose CURVE handshake failed
    # (the point of some tests) may have none at that moment, so never wait long.
    sock.sndtimeo = 1000
    if curve_server_key is not None:
        public, secret = zmq.curve_keypair()
        sock.curve_publickey, sock.curve_secretkey, sock.curve_serverkey = public, secret, curve_server_key
    if kind == zmq.SUB:
        sock.setsockopt(zmq.SUBSCRIBE, b"")
    sock.connect(url(km, port_name))
    return sock


def send_unless_refused(send):
    """Sends; a socket that has no peer because the kernel refused its handshake cannot
    send at all, which is the same outcome for these tests: nothing reaches the kernel."""
    try:
        send()
    except zmq.Again:
        pass


def signed_session(km):
    return Session(key=km.session.key)


# --- CurveZMQ ------------------------------------------------------------------------


def test_curve_session_runs_cells(curve_kernel):
    km, kc = curve_kernel
    info = km.get_connection_info(session=False)
    assert len(info["curve_publickey"]) == 40 and len(info["curve_secretkey"]) == 40
    run_cell(kc, "var total = 40")
    reply, outputs = run_cell(kc, "total += 2\ntotal")
    assert reply["status"] == "ok"
    assert results(outputs) == ["42"]
    # Heartbeat and control are encrypted too, and still answer the real client.
    assert kc.is_alive()
    kc.control_channel.send(kc.session.msg("kernel_info_request", {}))
    assert kc.control_channel.get_msg(timeout=10)["content"]["status"] == "ok"


def test_a_client_without_the_keys_gets_nothing(curve_kernel):
    km, kc = curve_kernel
    session = signed_session(km)   # it even has the HMAC key; only CURVE is missing
    shell = raw(km, zmq.DEALER, "shell_port")
    control = raw(km, zmq.DEALER, "control_port")
    iopub = raw(km, zmq.SUB, "iopub_port")
    heartbeat = raw(km, zmq.REQ, "hb_port")
    wrong_server = raw(km, zmq.DEALER, "shell_port", curve_server_key=zmq.curve_keypair()[0])
    time.sleep(0.5)
    for sock in (shell, control, wrong_server):
        send_unless_refused(lambda: session.send(sock, session.msg("kernel_info_request", {})))
    send_unless_refused(lambda: heartbeat.send(b"ping"))
    # The keyed client runs a cell meanwhile: its iopub messages must not reach the spy.
    reply, outputs = run_cell(kc, 'print("secret output")')
    assert reply["status"] == "ok"
    deadline = time.time() + SILENCE_MS / 1000
    for sock in (shell, control, wrong_server, iopub, heartbeat):
        assert sock.poll(max(1, int((deadline - time.time()) * 1000))) == 0, f"{sock} got an answer"
    # The encrypted session is unaffected.
    reply, outputs = run_cell(kc, "1 + 1")
    assert results(outputs) == ["2"]


def test_curve_over_ipc(tmp_path):
    km, kc, log = start(tmp_path, transport="ipc", transport_encryption="required")
    try:
        info = km.get_connection_info(session=False)
        assert info["transport"] == "ipc" and "curve_secretkey" in info
        reply, outputs = run_cell(kc, '"over ipc".count')
        assert results(outputs) == ["8"]
        spy = raw(km, zmq.DEALER, "shell_port")
        session = signed_session(km)
        send_unless_refused(lambda: session.send(spy, session.msg("kernel_info_request", {})))
        assert spy.poll(SILENCE_MS) == 0
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        log.close()
    assert "CurveZMQ: all 5 sockets are encrypted" in (tmp_path / "kernel.log").read_text()


def test_plain_ipc_session(tmp_path):
    km, kc, log = start(tmp_path, transport="ipc")
    try:
        assert "curve_secretkey" not in km.get_connection_info(session=False)
        reply, outputs = run_cell(kc, "[1, 2, 3].reduce(0, +)")
        assert results(outputs) == ["6"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        log.close()


def test_plain_tcp_session_is_unchanged_and_says_it_is_unencrypted(tmp_path):
    km, kc, log = start(tmp_path)
    try:
        assert "curve_publickey" not in km.get_connection_info(session=False)
        spy = raw(km, zmq.DEALER, "shell_port")   # plain TCP: any client with the key is served
        session = signed_session(km)
        session.send(spy, session.msg("kernel_info_request", {}))
        assert spy.poll(10000)
        assert session.recv(spy, mode=0)[1]["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        log.close()
    assert "without encryption" in (tmp_path / "kernel.log").read_text()


# --- protocol 5.5 --------------------------------------------------------------------


def test_kernel_info_on_shell_and_control_with_supported_features(kernel):
    km, kc = kernel
    shell = kc.kernel_info(reply=True, timeout=10)["content"]
    kc.control_channel.send(kc.session.msg("kernel_info_request", {}))
    control = kc.control_channel.get_msg(timeout=10)
    assert control["header"]["msg_type"] == "kernel_info_reply"
    for content in (shell, control["content"]):
        assert content["protocol_version"] == "5.5"
        assert content["supported_features"] == ["debugger"]   # no subshells (docs/debugger.md)
        assert content["debugger"] is True
    spec = km.kernel_spec
    assert spec.metadata["supported_encryption"] == ["curve"]
    assert json.load(open(os.path.join(spec.resource_dir, "kernel.json")))["kernel_protocol_version"] == "5.5"


# --- replays -------------------------------------------------------------------------


def test_a_replayed_execute_request_is_not_executed(kernel):
    km, kc = kernel
    run_cell(kc, "var runs = 0")
    session = signed_session(km)
    shell = raw(km, zmq.DEALER, "shell_port")
    control = raw(km, zmq.DEALER, "control_port")
    msg = session.msg("execute_request", {"code": "runs += 1\nruns", "silent": False, "store_history": True,
                                          "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
    frames = session.serialize(msg)
    shell.send_multipart(frames)
    assert shell.poll(60000), "the first (original) request got no reply"
    reply = session.deserialize(session.feed_identities(shell.recv_multipart())[1])
    assert reply["content"]["status"] == "ok"
    # The same signed frames again, on shell and on control: refused, no reply.
    shell.send_multipart(frames)
    control.send_multipart(frames)
    assert shell.poll(SILENCE_MS) == 0
    assert control.poll(100) == 0
    reply, outputs = run_cell(kc, "runs")
    assert results(outputs) == ["1"], "the replayed request ran again"


def test_a_replayed_kernel_info_request_is_refused_but_a_new_one_answered(kernel):
    km, kc = kernel
    session = signed_session(km)
    sock = raw(km, zmq.DEALER, "shell_port")
    frames = session.serialize(session.msg("kernel_info_request", {}))
    sock.send_multipart(frames)
    assert sock.poll(10000)
    sock.recv_multipart()
    sock.send_multipart(frames)
    assert sock.poll(SILENCE_MS) == 0
    session.send(sock, session.msg("kernel_info_request", {}))
    assert sock.poll(10000)


# --- signed requests whose content cannot be decoded ----------------------------------


def send_signed(session, sock, msg_type, content_frame):
    header = session.pack(session.msg_header(msg_type))
    frames = [header, b"{}", b"{}", content_frame]
    sock.send_multipart([b"<IDS|MSG>", session.sign(frames)] + frames)
    return json.loads(header.decode())["msg_id"]


def reply_to(session, sock, msg_id, timeout_ms=10000):
    assert sock.poll(timeout_ms), "no reply"
    reply = session.deserialize(session.feed_identities(sock.recv_multipart())[1])
    assert reply["parent_header"]["msg_id"] == msg_id
    return reply


@pytest.mark.parametrize("content, problem", [
    (b'{"code": "\xff\xfe"}', "not valid UTF-8"),
    (b'["print(1)"]', "an array, not a JSON object"),
])
def test_undecodable_signed_execute_request_gets_an_error_reply(kernel, content, problem):
    km, kc = kernel
    session = signed_session(km)
    sock = raw(km, zmq.DEALER, "shell_port")
    msg_id = send_signed(session, sock, "execute_request", content)
    reply = reply_to(session, sock, msg_id)
    assert reply["header"]["msg_type"] == "execute_reply"
    assert reply["content"]["status"] == "error"
    assert reply["content"]["ename"] == "InvalidMessage"
    assert problem in reply["content"]["evalue"]
    assert isinstance(reply["content"]["execution_count"], int)
    # busy and idle for it on iopub, so a client waiting for idle is released.
    states = []
    deadline = time.time() + 10
    while len(states) < 2 and time.time() < deadline:
        m = kc.get_iopub_msg(timeout=10)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status":
            states.append(m["content"]["execution_state"])
    assert states == ["busy", "idle"]
    reply, outputs = run_cell(kc, "7 * 6")
    assert results(outputs) == ["42"]


def test_undecodable_control_request_is_answered_and_a_comm_message_only_dropped(kernel):
    km, kc = kernel
    session = signed_session(km)
    control = raw(km, zmq.DEALER, "control_port")
    msg_id = send_signed(session, control, "kernel_info_request", b"[]")
    reply = reply_to(session, control, msg_id)
    assert reply["header"]["msg_type"] == "kernel_info_reply"
    assert reply["content"]["status"] == "error"
    shell = raw(km, zmq.DEALER, "shell_port")
    send_signed(session, shell, "comm_msg", b"\xff")
    assert shell.poll(1500) == 0   # not a request: nothing to answer
    assert kc.kernel_info(reply=True, timeout=10)["content"]["status"] == "ok"


# --- keys and the log ----------------------------------------------------------------


def test_keys_never_reach_the_log(tmp_path):
    km, kc, log = start(tmp_path, transport_encryption="required")
    info = km.get_connection_info(session=False)
    try:
        session = signed_session(km)
        wrong = Session(key=b"wrong")
        sock = raw(km, zmq.DEALER, "shell_port", curve_server_key=info["curve_publickey"].encode())
        wrong.send(sock, wrong.msg("execute_request", {"code": "1"}))
        msg_id = send_signed(session, sock, "execute_request", b"[1]")
        assert reply_to(session, sock, msg_id)["content"]["status"] == "error"
        run_cell(kc, "1")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
        log.close()
    text = (tmp_path / "kernel.log").read_text()
    assert "signature is missing or wrong" in text   # the log did record the bad message
    for secret in (info["key"], info["curve_secretkey"]):
        secret = secret.decode() if isinstance(secret, bytes) else secret
        assert secret not in text


def kernel_binary():
    spec = KernelManager(kernel_name=KERNEL_NAME).kernel_spec
    return spec.argv[0]


def test_a_broken_connection_file_is_named_without_its_contents(tmp_path):
    secret = "s3cret-value-never-printed"
    path = tmp_path / "kernel-broken.json"
    path.write_text('{"key": "%s", "shell_port": "%s"' % (secret, secret))
    done = subprocess.run([kernel_binary(), "-f", str(path)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert str(path) in done.stderr and "not valid JSON" in done.stderr
    assert secret not in done.stderr + done.stdout


@pytest.mark.parametrize("field,value,said", [
    ("shell_port", -1, "'shell_port' is -1, not a port number from 1 to 65535"),      # bound 65535 before
    ("hb_port", 100000, "'hb_port' is 100000, not a port number from 1 to 65535"),    # bound 34464 before
    ("iopub_port", 0, "'iopub_port' is 0, not a port number from 1 to 65535"),        # the client could not learn it
    ("key", None, "'key' is null"),                                               # started unsigned before
])
def test_a_port_out_of_range_or_a_null_key_stops_the_kernel(tmp_path, field, value, said):
    info = {"transport": "tcp", "ip": "127.0.0.1", "key": "k", "signature_scheme": "hmac-sha256",
            "shell_port": 40101, "iopub_port": 40102, "stdin_port": 40103, "control_port": 40104, "hb_port": 40105}
    info[field] = value
    path = tmp_path / "kernel-bad.json"
    path.write_text(json.dumps(info))
    done = subprocess.run([kernel_binary(), "-f", str(path)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2, done
    assert str(path) in done.stderr and said in done.stderr, done.stderr


def test_an_empty_key_is_a_warning_at_start(tmp_path):
    shell, iopub, stdin, control, hb = free_ports(5)
    path = tmp_path / "kernel-nokey.json"
    path.write_text(json.dumps({"transport": "tcp", "ip": "127.0.0.1", "key": "", "signature_scheme": "hmac-sha256",
                                "shell_port": shell, "iopub_port": iopub, "stdin_port": stdin,
                                "control_port": control, "hb_port": hb}))
    env = dict(os.environ, TMPDIR=str(tmp_path))
    process = subprocess.Popen([kernel_binary(), "-f", str(path)], stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stderr.readline()
        assert "[benchbook warning]" in line and "'key' is empty" in line and "any local process" in line
    finally:
        process.terminate()   # SIGTERM: the kernel stops itself and removes its cell directory
        assert process.wait(timeout=10) == 0
    assert not list(tmp_path.glob("benchbook-*"))


def test_a_sigterm_at_any_moment_of_start_stops_the_kernel(tmp_path):
    """SIGTERM sent as soon as the kernel writes its first line, 60 times: it always stops
    with status 0 and leaves no cell directory. (A signal in the window before its handler
    was registered used to be dropped, and the kernel never stopped: 1 start in 25.)"""
    for attempt in range(60):
        directory = tmp_path / f"start{attempt}"
        directory.mkdir()
        shell, iopub, stdin, control, hb = free_ports(5)
        path = directory / "kernel.json"
        # An empty key: its warning is the earliest line the kernel writes.
        path.write_text(json.dumps({"transport": "tcp", "ip": "127.0.0.1", "key": "",
                                    "signature_scheme": "hmac-sha256", "shell_port": shell, "iopub_port": iopub,
                                    "stdin_port": stdin, "control_port": control, "hb_port": hb}))
        env = dict(os.environ, TMPDIR=str(directory))
        process = subprocess.Popen([kernel_binary(), "-f", str(path)], stderr=subprocess.PIPE, text=True, env=env)
        try:
            assert process.stderr.readline(), "the kernel wrote nothing"
        finally:
            process.terminate()
            status = process.wait(timeout=10)
        assert status == 0, (attempt, status)
        assert not list(directory.glob("benchbook-*")), attempt
