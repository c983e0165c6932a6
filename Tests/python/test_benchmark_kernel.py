"""Benchmarks and charts inside a real Benchbook kernel (jupyter_client).

A chart shows as an inline PNG at its point size; a long benchmark shows a progress line
that is updated in place; an interrupt stops it cleanly and the kernel keeps its state;
a cell writes a record (to a temporary directory passed in the cell).
"""
import base64
import json
import struct
import threading
import time

from benchbook_kit.kernel import collect, errors, results, run_cell


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_chart_is_inline_png_at_point_size(kernel):
    _, kc = kernel
    reply, outputs = run_cell(kc, 'TopKChart(probabilities: [0.1, 0.6, 0.3], labels: ["a", "b", "c"], k: 2)')
    assert reply["status"] == "ok", errors(outputs)
    shown = [m for m in outputs if m["msg_type"] == "execute_result"]
    assert len(shown) == 1
    content = shown[0]["content"]
    width, height = png_size(base64.b64decode(content["data"]["image/png"]))
    meta = content["metadata"]["image/png"]
    assert (width, height) == (meta["width"] * 2, meta["height"] * 2)
    assert "1. b 60.0 %" in content["data"]["text/plain"]


def test_progress_updates_in_place_and_result_is_a_table(kernel):
    _, kc = kernel
    reply, outputs = run_cell(kc, """
let slow = try Benchmark("slow", options: BenchmarkOptions(minimumRuns: 5, minimumSeconds: 1.6)).run {
    _ = (0..<2000).reduce(0, +)
}
slow
""")
    assert reply["status"] == "ok", errors(outputs)
    displays = [m for m in outputs if m["msg_type"] == "display_data"]
    updates = [m for m in outputs if m["msg_type"] == "update_display_data"]
    assert len(displays) == 1 and updates
    display_id = displays[0]["content"]["transient"]["display_id"]
    assert all(m["content"]["transient"]["display_id"] == display_id for m in updates)
    assert updates[-1]["content"]["data"]["text/plain"].startswith("slow: done, p90")
    html = [m for m in outputs if m["msg_type"] == "execute_result"][0]["content"]["data"]["text/html"]
    assert "p90" in html and "<table>" in html


def test_interrupt_stops_a_benchmark_and_keeps_state(kernel):
    km, kc = kernel
    reply, _ = run_cell(kc, "let kept = 41")
    assert reply["status"] == "ok"
    msg_id = kc.execute('let endless = try Benchmark("endless", options: BenchmarkOptions('
                        'minimumRuns: 1_000_000_000, minimumSeconds: 600, maximumSeconds: 900)).run { }')
    time.sleep(3)
    started = time.time()
    km.interrupt_kernel()
    reply, outputs = collect(kc, msg_id, timeout=30)
    assert time.time() - started < 5
    assert reply["status"] == "error"
    assert reply["ename"].endswith("InterruptedError")
    assert 'The benchmark "endless" stopped because the kernel was interrupted' in reply["evalue"]
    reply, outputs = run_cell(kc, "kept + 1")
    assert results(outputs) == ["42"]


def test_record_written_from_a_cell(kernel, tmp_path):
    _, kc = kernel
    reply, outputs = run_cell(kc, f"""
import Foundation
let recorded = try Benchmark("from a cell", options: .quick).runAndRecord(
    to: URL(fileURLWithPath: "{tmp_path}"), inputShape: [1, 28, 28]) {{ _ = (0..<100).reduce(0, +) }}
recorded
""")
    assert reply["status"] == "ok", errors(outputs)
    files = list(tmp_path.glob("from_a_cell-1t-*.json"))
    assert len(files) == 1
    record = json.loads(files[0].read_text())
    assert record["inputShape"] == [1, 28, 28]
    assert len(record["result"]["samples"]) == record["result"]["statistics"]["count"] >= 10
    assert "recorded in" in results(outputs)[0]


def test_a_benchmark_of_a_tiny_body_keeps_a_bounded_record(tmp_path):
    """Issue 37, item 8: `%benchmark x` over `1 + 1` wrote 11.3 M samples into a 228 MB
    record. Past the sample cap, neighbouring runs are summarised two by two (each sample
    the mean of as many runs), so the record stays small and still counts every run."""
    from jupyter_client.manager import start_new_kernel
    from benchbook_kit.kernel import KERNEL_NAME
    import os
    km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=60,
                              env=dict(os.environ, BENCHBOOK_RESULTS_DIR=str(tmp_path)))
    try:
        started = time.monotonic()
        reply, outputs = run_cell(kc, "%benchmark tiny\n1 + 1")
        elapsed = time.monotonic() - started
        assert reply["status"] == "ok", errors(outputs)
        [file] = tmp_path.glob("tiny-1t-*.json")
        assert file.stat().st_size < 5_000_000, file.stat().st_size
        result = json.loads(file.read_text())["result"]
        samples = len(result["samples"])
        assert samples <= 100_000 and result["statistics"]["count"] == samples
        assert result["runs"] == samples * result["runsPerSample"] > samples, (result["runs"], samples)
        shown = results(outputs)[0]
        assert f"{result['runs']:,} runs" in shown and "runs each" in shown, shown
        assert elapsed < 60, f"the cell took {elapsed:.1f} s"   # a hang guard (it took 10 s, the runs 1.5 s)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
