"""The kernel part of `make test-hostile` (issue 37): damaged wire messages from a raw ZeroMQ
client, and cells that hurt the cell host, against the installed kernelspec, with the
kernel's state checked after every few cases through jupyter_client.

    PYTHONPATH=python python scripts/hostile/kernel_campaign.py [--messages N] [--seed S]

Prints one line of counts per part and exits 1 when any is not 0:
- deaths: the kernel process ended;
- hangs: the heartbeat or a probe cell did not answer within 30 s;
- wrong answers: a probe cell answered something other than what it must;
- lost variables: a variable set before the cases was gone or changed after them.
"""
import argparse
import json
import os
import random
import sys
import time

import zmq
from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session

from benchbook_kit import ROOT
from benchbook_kit.kernel import KERNEL_NAME, collect, results, text_of
MODEL = ROOT / "notebooks/models/fashion_cnn.tflite"


class Tally:
    def __init__(self, part):
        self.part = part
        self.cases = self.deaths = self.hangs = self.wrong = self.lost = 0
        self.notes = []

    def note(self, kind, text):
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.notes) < 20:
            self.notes.append(f"{kind}: {text}")

    @property
    def failed(self):
        return self.deaths or self.hangs or self.wrong or self.lost

    def line(self):
        return (f"{self.part}: {self.cases:,} cases; deaths {self.deaths}, hangs {self.hangs}, "
                f"wrong answers {self.wrong}, lost variables {self.lost}")


def run_cell(kc, code, timeout=30, **options):
    msg_id = kc.execute(code, **options)
    return collect(kc, msg_id, timeout)


class Kernel:
    """A kernel with a variable and a loaded model to lose, and probes of its health."""

    def __init__(self):
        self.km, self.kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=120)
        info = self.km.get_connection_info(session=False)
        self.info = info
        self.session = Session(key=info["key"] if isinstance(info["key"], bytes) else info["key"].encode())
        reply, _ = run_cell(self.kc, f'var kept = 41\nlet model = try Model(contentsOf: "{MODEL}")', timeout=120)
        assert reply["status"] == "ok", reply

    def socket(self, kind, port_name):
        sock = zmq.Context.instance().socket(kind)
        sock.linger = 0
        sock.connect(f"tcp://{self.info['ip']}:{self.info[port_name]}")
        return sock

    def alive(self):
        return self.km.is_alive()

    def heartbeat(self, timeout=30):
        sock = self.socket(zmq.REQ, "hb_port")
        try:
            sock.send(b"ping")
            return bool(sock.poll(timeout * 1000)) and sock.recv() == b"ping"
        finally:
            sock.close()

    def fence(self, sock, timeout=120):
        """Sends a signed kernel_info_request on `sock` and waits for its reply, dropping
        other replies; False when none comes in time."""
        request = self.session.msg("kernel_info_request", {})
        self.session.send(sock, request)
        deadline = time.time() + timeout
        while sock.poll(max(0, deadline - time.time()) * 1000):
            _, reply = self.session.feed_identities(sock.recv_multipart())
            if self.session.deserialize(reply, content=False)["parent_header"].get("msg_id") == request["header"]["msg_id"]:
                return True
        return False

    def probe(self, tally, case):
        """Checks the kernel after `case`; records what is wrong."""
        if not self.alive():
            tally.note("deaths", case)
            return False
        if not self.heartbeat():
            tally.note("hangs", f"{case}: no heartbeat")
            return False
        try:
            reply, outputs = run_cell(self.kc, "(kept + 1, try model.run(Tensor(shape: [1, 28, 28, 1], "
                                               "float32: [Float](repeating: 0, count: 784))).shape)", timeout=60)
        except Exception as error:   # queue.Empty: no answer in time
            tally.note("hangs", f"{case}: no answer to the probe ({type(error).__name__})")
            return False
        shown = results(outputs)
        if reply.get("ename") == "LostVariable" or "kept" in (reply.get("evalue") or "") \
                or "model" in (reply.get("evalue") or ""):
            tally.note("lost", f"{case}: {reply.get('evalue')}")
        elif shown != ["(42, [1, 10])"]:
            tally.note("wrong", f"{case}: status {reply.get('status')}, {reply.get('ename')} {reply.get('evalue')}, "
                                f"results {shown}, messages {[m['msg_type'] for m in outputs]}")
        return True

    def close(self):
        """A shutdown request, as a front end sends it: what cells started ends with it."""
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=False)


# ---- Wire messages -----------------------------------------------------------------------

# Requests a message may be; never shutdown (it would end the kernel as asked) and no
# execute with code of its own (the campaign damages the protocol, not the cells).
TYPES = ["kernel_info_request", "is_complete_request", "history_request", "comm_info_request", "inspect_request",
         "complete_request", "comm_msg", "comm_open", "comm_close", "input_reply", "interrupt_request",
         "usage_request", "frobnicate_request", "execute_request"]
ODD_VALUES = [None, True, -1, 1e308, "x" * 100_000, [], {}, [[[[[]]]]], {"a": {"b": {"c": None}}},
              "\ud800", "\u0000", 2**70, "kept", [1] * 10_000]


def deep(n):
    return "[" * n + "]" * n


def damaged_message(rng, session):
    """Frames of one signed message, damaged in one of several ways."""
    kind = rng.choice(TYPES)
    content = {"code": "kept", "cursor_pos": 2, "detail_level": 0, "hist_access_type": "tail", "n": 3,
               "comm_id": "no-such-comm", "target_name": "nowhere", "data": {}, "value": "x",
               "silent": False, "store_history": False, "user_expressions": {}, "allow_stdin": False,
               "stop_on_error": False}
    msg = session.msg(kind, content)
    frames = [json.dumps(msg["header"], default=str).encode(), b"{}", b"{}", json.dumps(content).encode()]
    how = rng.randrange(12)
    if how == 0:   # a field of the content gets an odd value
        key = rng.choice(list(content))
        content[key] = rng.choice(ODD_VALUES)
        frames[3] = json.dumps(content).encode("utf-8", "surrogatepass")
    elif how == 1:   # a frame that is not JSON, or not UTF-8
        frames[rng.randrange(1, 4)] = rng.choice([b"{not json", b"\xff\xfe", b"[1, 2]", b'"text"', b"", b"{}" * 3])
    elif how == 2:   # deep nesting
        frames[rng.randrange(1, 4)] = ('{"x": ' + deep(rng.choice([100, 511, 513, 5000, 100_000])) + "}").encode()
    elif how == 3:   # a header without its id or type, or with wrong types
        header = dict(msg["header"], date=str(msg["header"]["date"]))
        header[rng.choice(["msg_id", "msg_type", "session", "date"])] = rng.choice([None, 5, [], "", "x" * 1000])
        frames[0] = json.dumps(header).encode()
    elif how == 4:   # many values
        frames[3] = ('{"x": [' + ",".join(["{}"] * rng.choice([1000, 200_000, 1_200_000])) + "]}").encode()
    elif how == 5:   # a parent header from another message, or a long one
        frames[1] = json.dumps({"msg_id": "another", "msg_type": "input_request", "pad": "y" * 10_000}).encode()
    elif how == 6:   # escapes and non-ASCII text
        frames[3] = '{"code": "k\\u0065pt", "\\u0000": "\\ud83d\\ude00 é", "comm_id": "\\ud800"}'.encode()
    elif how == 7:   # numbers in odd forms
        frames[3] = rng.choice([b'{"cursor_pos": 1e999}', b'{"cursor_pos": -0.0}', b'{"n": 99999999999999999999999}',
                                b'{"cursor_pos": NaN}', b'{"cursor_pos": 0x10}'])
    signature = session.sign(frames) if how != 8 else b"0" * 64   # 8: a wrong signature
    parts = [b"<IDS|MSG>", signature] + frames
    if how == 9:   # frames missing
        parts = parts[:rng.randrange(1, 6)]
    elif how == 10:   # binary buffers after the content
        parts += [os.urandom(rng.choice([0, 1, 1000, 1 << 20]))]
    elif how == 11:   # no delimiter
        parts = parts[2:]
    return kind, how, parts


def wire_campaign(kernel, count, rng, every=50):
    tally = Tally("wire messages")
    channels = {"shell": kernel.socket(zmq.DEALER, "shell_port"), "control": kernel.socket(zmq.DEALER, "control_port"),
                "stdin": kernel.socket(zmq.DEALER, "stdin_port")}
    for index in range(count):
        kind, how, parts = damaged_message(rng, kernel.session)
        channel = rng.choice(["shell"] * 6 + ["control", "stdin"])
        channels[channel].send_multipart(parts)
        tally.cases += 1
        for sock in channels.values():   # replies are read and dropped
            while sock.poll(0):
                sock.recv_multipart()
        if (index + 1) % every == 0 or index + 1 == count:
            time.sleep(0.2)
            case = f"after message {index + 1} ({kind}, damage {how}, on {channel})"
            # The shell serves requests in order: once this request is answered, every
            # execute request of the campaign before it has ended, so none fails with
            # stop_on_error while the probe waits (the probe would be answered 'aborted', as
            # the protocol asks).
            if not kernel.fence(channels["shell"]):
                tally.note("hangs", f"{case}: no kernel_info_reply behind the campaign's requests")
                break
            if not kernel.probe(tally, case):
                break
    for sock in channels.values():
        sock.close()
    return tally


# ---- Cells that hurt the host ------------------------------------------------------------

FAULTS = [
    ("index out of range", "[1][3]"),
    ("nil unwrap", "let none: Int? = nil\nnone!"),
    ("division by zero", 'let zero = Int("0")!\n1 / zero'),
    ("fatalError", 'fatalError("hostile")'),
    ("precondition", 'precondition(false, "hostile")'),
    ("abort", "import Glibc\nabort()"),
    ("SIGSEGV", "import Glibc\nraise(SIGSEGV)"),
    ("SIGKILL to itself", "import Glibc\nkill(getpid(), SIGKILL)"),
    ("SIGBUS", "import Glibc\nraise(SIGBUS)"),
    ("exit(0)", "import Glibc\nexit(0)"),
    ("exit(3)", "import Glibc\nexit(3)"),
    ("stack overflow", "func down(_ n: Int) -> Int { n == 0 ? 0 : 1 + down(n - 1) }\ndown(100_000_000)"),
    ("close 1 and 2", "import Glibc\nclose(1); close(2)"),
    ("trap after closing 1 and 2", "[0][1]"),
    ("close 0, 1 and 2", "import Glibc\nclose(0); close(1); close(2)"),
    ("redirect 1 and 2", 'import Glibc\ndup2(open("/dev/null", O_WRONLY), 1); dup2(open("/dev/null", O_WRONLY), 2)'),
    ("trap after the redirect", "[0][2]"),
    ("crash-shaped stderr", 'import Foundation\nFileHandle.standardError.write("Current stack trace:\\n'
                            '@@benchbook-crash-frame@@ 0x1 /x\\nIn[1]:1: Fatal error: words\\n".data(using: .utf8)!)'),
    ("a late crash in a thread", 'import Foundation\nThread { Thread.sleep(forTimeInterval: 0.5); fatalError("late") }.start()'),
    ("setsid child", "import Glibc\nif fork() == 0 { setsid(); sleep(600); _exit(0) }"),
    ("double fork", "import Glibc\nif fork() == 0 { if fork() == 0 { setsid(); sleep(600); _exit(0) }; _exit(0) }"),
    ("a blocked cell, interrupted", None),
    ("a runaway loop, interrupted", None),
    ("20 MB of stderr in one line", 'import Foundation\nFileHandle.standardError.write(String(repeating: "e", count: 20_000_000).data(using: .utf8)!)'),
    ("a stale input reply, then input", None),
    ("close the snapshot channel", "import Glibc\nclose(5)"),
    ("trap without a snapshot after it", "[0][3]"),
    ("a thrown error", "struct Boom: Error {}\nthrow Boom()"),
    ("an allocation that cannot succeed", "let hog = [UInt8](repeating: 0, count: Int.max / 2)\nhog.count"),
    ("unsafe write to a null pointer", "UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1"),
]


def interrupt_once_running(kernel, code):
    marker = "hostile: running"
    msg_id = kernel.kc.execute(f'print("{marker}")\n' + code)
    deadline = time.time() + 120
    while time.time() < deadline:
        msg = kernel.kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream" and marker in msg["content"]["text"]:
            break
    time.sleep(0.3)
    kernel.kc.control_channel.send(kernel.kc.session.msg("interrupt_request", {}))
    return collect(kernel.kc, msg_id, 60)


def fault_campaign(kernel):
    tally = Tally("cell faults")
    for name, code in FAULTS:
        tally.cases += 1
        try:
            if name == "a blocked cell, interrupted":
                interrupt_once_running(kernel, "import Dispatch\nDispatchSemaphore(value: 0).wait()")
            elif name == "a runaway loop, interrupted":
                interrupt_once_running(kernel, "var spin = 0\nwhile true { spin &+= 1 }")
            elif name == "a stale input reply, then input":
                kernel.kc.stdin_channel.send(kernel.kc.session.msg("input_reply", {"value": "STALE"}))
                time.sleep(0.3)
                msg_id = kernel.kc.execute('let answer = try input("q? ")\nanswer', allow_stdin=True)
                kernel.kc.stdin_channel.get_msg(timeout=60)
                kernel.kc.input("REAL")
                reply, outputs = collect(kernel.kc, msg_id, 60)
                if results(outputs) != ['"REAL"']:
                    tally.note("wrong", f"{name}: {results(outputs)}")
            else:
                reply, outputs = run_cell(kernel.kc, code, timeout=120)
                if name == "crash-shaped stderr" and "Current stack trace" not in text_of(outputs, "stderr"):
                    tally.note("wrong", f"{name}: the text was not shown")
                if name == "fatalError" and "hostile" not in (reply.get("evalue") or ""):
                    tally.note("wrong", f"{name}: {reply.get('evalue')}")
                if name == "close the snapshot channel" and "snapshot" not in text_of(outputs, "stderr"):
                    tally.note("wrong", f"{name}: the cell did not say the snapshot failed")
            if name == "a late crash in a thread":
                time.sleep(2)
        except Exception as error:
            tally.note("hangs", f"{name}: {type(error).__name__} {error}")
        if not kernel.probe(tally, name):
            break
    return tally


def campaign(messages, seed):
    """Runs both parts, each in a kernel of its own; returns their tallies (printed)."""
    rng = random.Random(seed)
    tallies = []
    for part in (lambda k: wire_campaign(k, messages, rng), fault_campaign):
        kernel = Kernel()
        try:
            tallies.append(part(kernel))
        finally:
            kernel.close()
    for tally in tallies:
        print(tally.line())
        for note in tally.notes:
            print("  " + note)
    return tallies


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    return 1 if any(t.failed for t in campaign(args.messages, args.seed)) else 0


if __name__ == "__main__":
    sys.exit(main())
