"""A cell's standard output and error through a real jupyter_client: large outputs, the
crash report found after them, batching, and the output limit with the rest in a file."""
import os
from pathlib import Path

import pytest
from jupyter_client.manager import start_new_kernel

from benchbook_kit.kernel import FRAME_MARKER, KERNEL_NAME, results, run_cell, text_of

MB = 1_000_000


@pytest.fixture
def kernel_in(tmp_path):
    """Starts kernels whose working directory (the notebook's folder) is tmp_path."""
    started = []

    def start(**env):
        km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=60, cwd=str(tmp_path),
                                  env=dict(os.environ, **env))
        started.append((km, kc))
        return km, kc

    yield start
    for km, kc in started:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def streams(outputs):
    return [m for m in outputs if m["msg_type"] == "stream"]


def test_a_crash_after_twenty_megabytes_of_standard_error_is_recognised_and_located(kernel_in):
    km, kc = kernel_in(BENCHBOOK_OUTPUT_LIMIT="0")
    run_cell(kc, "var kept = 41")
    # 20 MB on one line without a newline, then a trap on line 4 of the cell.
    reply, outputs = run_cell(kc, "import Glibc\n"
                                  "_ = fputs(String(decoding: [UInt8](repeating: 121, count: 20_000_000), as: UTF8.self), stderr)\n"
                                  "let values = [1, 2, 3]\n"
                                  "print(values[kept])", timeout=300)
    assert reply["status"] == "error", reply
    assert reply["evalue"] == "In[2], line 4: Fatal error: Index out of range", reply["evalue"]
    shown = text_of(outputs, "stderr")
    assert shown.count("y") == 20_000_000 and shown.strip("y\n") == "", "the cell's text is shown whole, nothing else"
    assert FRAME_MARKER not in shown
    reply, outputs = run_cell(kc, "kept + 1")
    assert results(outputs) == ["42"], (reply, outputs)


def test_twenty_megabytes_of_short_lines_arrive_whole_in_few_messages(kernel_in):
    km, kc = kernel_in(BENCHBOOK_OUTPUT_LIMIT="0")
    reply, outputs = run_cell(kc, "for i in 0..<200_000 { print(String(repeating: \"z\", count: 94), i % 10, i % 7, separator: \"\") }",
                              timeout=300)
    assert reply["status"] == "ok", reply
    text = text_of(outputs)
    lines = text.split("\n")
    assert len(lines) == 200_001 and lines[-1] == "", len(lines)
    assert all(line == "z" * 94 + f"{i % 10}{i % 7}" for i, line in enumerate(lines[:-1])), "every line, in order"
    # ipykernel sends about five messages a second; one per line would be 200,000.
    assert len(streams(outputs)) < 2_000, len(streams(outputs))


def test_output_past_the_limit_says_how_much_was_cut_and_where_all_of_it_is(kernel_in, tmp_path):
    km, kc = kernel_in(BENCHBOOK_OUTPUT_LIMIT="100k")
    reply, outputs = run_cell(kc, "for i in 0..<30_000 { print(\"line \\(i)\") }\nlet after = 7")
    assert reply["status"] == "ok", reply
    shown = text_of(outputs)
    assert len(shown.encode()) == 100_000, len(shown.encode())
    notices = [m["content"]["text"] for m in streams(outputs) if "[Output limit" in m["content"]["text"]]
    assert len(notices) == 2, notices
    assert "this cell has shown 100.0 kB" in notices[0], notices
    whole = "".join(f"line {i}\n" for i in range(30_000))
    cut = len(whole.encode()) - 100_000
    expected_size = f"{cut / 1e3:.1f} kB"
    assert f"{expected_size} of stdout not shown; all of it is in benchbook-output/In1-stdout.txt" in notices[1], notices
    assert (tmp_path / "benchbook-output" / "In1-stdout.txt").read_text() == whole
    # The cell ran to its end and the kernel goes on.
    reply, outputs = run_cell(kc, "after * 6")
    assert results(outputs) == ["42"], (reply, outputs)


def test_a_limit_that_is_not_a_size_stops_the_kernel_with_a_clear_message(tmp_path):
    import subprocess
    import sys
    from jupyter_client.kernelspec import KernelSpecManager
    spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    connection = tmp_path / "connection.json"
    # Ports that are valid (the kernel refuses 0 and reads the connection file first); the
    # kernel stops at the limit before it binds them.
    connection.write_text('{"transport": "tcp", "ip": "127.0.0.1", "shell_port": 40121, "iopub_port": 40122, '
                          '"stdin_port": 40123, "control_port": 40124, "hb_port": 40125, "key": "k", '
                          '"signature_scheme": "hmac-sha256"}')
    argv = [part.replace("{connection_file}", str(connection)) for part in spec.argv]
    done = subprocess.run(argv, env=dict(os.environ, BENCHBOOK_OUTPUT_LIMIT="lots"), capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "BENCHBOOK_OUTPUT_LIMIT=lots is not a size" in done.stderr, done.stderr
