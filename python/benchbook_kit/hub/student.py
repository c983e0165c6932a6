"""A simulated student of a Hub: its server, a notebook session with the Swift kernel and the
kernel websocket, used the way JupyterLab uses them."""
import json
import queue
import struct
import threading
import time
import uuid

import psutil
import websocket

from .hub import HubError


class Student:
    """One simulated student: a server on the Hub, a notebook session with the Swift
    kernel, and a kernel websocket, as JupyterLab uses them."""

    def __init__(self, hub, name):
        self.hub = hub
        self.name = name
        self.server_pid = None
        self.kernel_id = None
        self.ws = None
        self.incoming = queue.Queue()   # (arrival time, kernel message), or the error that ended the websocket
        self.reader = None
        self.pings = 0   # the server's pings answered
        self.ready = False   # the server answers and the kernel has answered kernel_info
        self.timings = []   # (label, seconds, status)
        self.lock = threading.Lock()

    @property
    def base(self):
        return f"{self.hub.url}/user/{self.name}"

    def start(self):
        started = time.time()
        self.server_pid = self.hub.start_server(self.name)
        self.server_seconds = time.time() - started
        started = time.time()
        response = self.hub.session.post(f"{self.base}/api/sessions", timeout=120, json={
            "path": f"class-{self.name}.ipynb", "name": f"class-{self.name}.ipynb", "type": "notebook",
            "kernel": {"name": self.hub.kernel_name}})
        if response.status_code != 201:
            raise HubError(f"{self.name}: POST /api/sessions: {response.status_code} {response.text[:300]}")
        self.kernel_id = response.json()["kernel"]["id"]
        ws_url = self.base.replace("http://", "ws://") + f"/api/kernels/{self.kernel_id}/channels?session_id={uuid.uuid4()}"
        self.ws = websocket.create_connection(ws_url, header=[f"Authorization: token {self.hub.token}"])
        self.reader = threading.Thread(target=self.read, name=f"{self.name}'s websocket", daemon=True)
        self.reader.start()
        self.session_id = str(uuid.uuid4())
        reply = self.request("kernel_info_request", {}, timeout=120)
        if reply["content"].get("status") != "ok":
            raise HubError(f"{self.name}: kernel_info_reply {reply['content']}")
        self.kernel_seconds = time.time() - started
        self.ready = True

    def read(self):
        """Reads the kernel websocket on a thread of its own for as long as it is open, as a
        browser does. Every frame is read when it arrives, so the server's pings are answered
        while the student is idle too: jupyter_server closes a websocket whose pings go
        unanswered for 90 s (`ws_ping_timeout`), and a client that reads only while it waits
        for a reply loses its kernel connection while it waits for the rest of the class."""
        try:
            while True:
                opcode, data = self.ws.recv_data(control_frame=True)   # a ping is answered in here
                if opcode == websocket.ABNF.OPCODE_PING:
                    self.pings += 1
                    continue
                if opcode == websocket.ABNF.OPCODE_PONG:
                    continue
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    code = struct.unpack("!H", data[:2])[0] if len(data) >= 2 else None
                    reason = data[2:].decode(errors="replace")
                    raise HubError(f"{self.name}: the server closed the kernel websocket "
                                   f"(close code {code}{', ' + reason if reason else ''}); "
                                   "its log says why (jupyterhub.log, or the container's log)")
                self.incoming.put((time.time(), json.loads(data)))
        except (HubError, websocket.WebSocketException, OSError, ValueError) as error:
            self.incoming.put(error)

    def receive(self, deadline, what):
        """The kernel's next message and when it arrived; raises what ended the websocket, or
        HubError when nothing came before `deadline` (time.time() values)."""
        try:
            item = self.incoming.get(timeout=max(0.0, deadline - time.time()))
        except queue.Empty:
            raise HubError(f"{self.name}: {what}") from None
        if isinstance(item, Exception):
            self.incoming.put(item)   # every later call fails the same way
            raise item
        return item

    def message(self, msg_type, content, channel="shell"):
        msg_id = uuid.uuid4().hex
        return msg_id, {
            "header": {"msg_id": msg_id, "msg_type": msg_type, "username": self.name, "session": self.session_id,
                       "date": time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime()), "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": content, "channel": channel, "buffers": []}

    def request(self, msg_type, content, timeout=300):
        """Sends a shell request; returns its reply once the kernel is idle again."""
        msg_id, msg = self.message(msg_type, content)
        self.ws.send(json.dumps(msg))
        reply = None
        idle = False
        self.outputs = []
        deadline = time.time() + timeout
        while reply is None or not idle:
            arrived, incoming = self.receive(deadline, f"no reply to {msg_type} within {timeout} s")
            if incoming.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if incoming["channel"] == "shell":
                reply = incoming
                self.reply_seconds = arrived
            elif incoming["msg_type"] == "status" and incoming["content"]["execution_state"] == "idle":
                idle = True
            elif incoming["channel"] == "iopub" and incoming["msg_type"] != "status":
                self.outputs.append(incoming)
        return reply

    def comm(self, msg_type, content, timeout=60):
        """Sends a comm message (no reply on shell); returns the kernel's iopub messages
        for it, once the kernel is idle again."""
        msg_id, msg = self.message(msg_type, content)
        self.ws.send(json.dumps(msg))
        outputs = []
        deadline = time.time() + timeout
        while True:
            _, incoming = self.receive(deadline, f"the kernel did not go idle after {msg_type} within {timeout} s")
            if incoming.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if incoming["msg_type"] == "status":
                if incoming["content"]["execution_state"] == "idle":
                    return outputs
            else:
                outputs.append(incoming)

    def run(self, label, code, timeout=300):
        """Runs one cell; records and returns (seconds to execute_reply, reply content)."""
        started = time.time()
        try:
            reply = self.request("execute_request", {"code": code, "silent": False, "store_history": True,
                                                     "user_expressions": {}, "allow_stdin": False,
                                                     "stop_on_error": True}, timeout=timeout)
            seconds = self.reply_seconds - started
            content = reply["content"]
        except (HubError, websocket.WebSocketException, OSError, ValueError) as error:
            seconds, content = time.time() - started, {"status": "error", "ename": type(error).__name__,
                                                       "evalue": str(error)}
        with self.lock:
            self.timings.append((label, seconds, content.get("status"), content.get("evalue", "")))
        return seconds, content

    def complete(self, code):
        started = time.time()
        reply = self.request("complete_request", {"code": code, "cursor_pos": len(code)}, timeout=120)
        return time.time() - started, reply["content"]

    def complete_from_server(self, code, seconds=120):
        """The first completion SourceKit-LSP answered, pressing Tab again every 0.5 s (the
        first answers come at once from the notebook's names while the server starts; see
        benchbook_kit.kernel.complete_from_server). AssertionError after `seconds`."""
        deadline = time.time() + seconds
        while True:
            seconds_taken, content = self.complete(code)
            if content["metadata"].get("benchbook_source") == "languageServer" or time.time() > deadline:
                break
            time.sleep(0.5)
        assert content["metadata"].get("benchbook_source") == "languageServer", content
        return content

    def process_tree(self):
        """The student's server and everything under it (kernel, host, compiler, language server)."""
        try:
            server = psutil.Process(self.server_pid)
            return [server] + server.children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def close(self):
        if self.ws is not None:
            try:
                self.ws.send_close()   # the reader reads the server's closing frame and ends
            except (websocket.WebSocketException, OSError):
                pass
            self.reader.join(timeout=5)
            self.ws.abort()   # a server that did not answer: the reader's wait ends here
            self.reader.join(timeout=5)
            self.ws.shutdown()
            self.ws = None
