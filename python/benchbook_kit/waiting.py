"""Waiting for something to happen, the kit's one polling loop: `poll_until` for tests that
assert on what it returns, `wait_for` for code that must stop with a message when it does not
come; `alive`, which processes of a snapshot still run (what tests wait to see end)."""
import time

import psutil


def poll_until(condition, timeout, interval=0.1):
    """Calls `condition` every `interval` seconds until it returns a true value, and returns
    that value; after `timeout` seconds, the value of one last call (false when it never
    came), so that a test can `assert poll_until(...)` with its own message."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    return condition()


def wait_for(condition, timeout, what, interval=0.2, error=TimeoutError):
    """`poll_until`, raising `error` ("timed out after <timeout> s waiting for <what>") when
    the condition never came true."""
    value = poll_until(condition, timeout, interval)
    if not value:
        raise error(f"timed out after {timeout:.0f} s waiting for {what}")
    return value


def alive(processes):
    """Descriptions (pid and command line) of the psutil processes of a snapshot that still
    run; zombies count as gone."""
    left = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                left.append(f"{process.pid} {' '.join(process.cmdline())[:120] or process.name()}")
        except psutil.Error:
            pass
    return left
