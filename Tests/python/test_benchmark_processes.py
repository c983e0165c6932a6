"""Benchmarks across fresh worker processes, from a cell of a real Benchbook kernel (jupyter_client).

`Benchmark.acrossProcesses` starts `benchbook-bench-worker` (beside the kernel's release build,
or `BENCHBOOK_BENCH_WORKER`) once per variant and process round; the cell gets one result per
variant whose interval is across processes, a progress line while it runs, and no output of
the workers mixed into its own. A worker path that does not exist is a clear error, and the
kernel keeps serving.
"""
import re

import pytest

from benchbook_kit import ROOT
from benchbook_kit.kernel import errors, results, run_cell, start_kernel, text_of

pytestmark = pytest.mark.usefixtures("jupyter_directories")

MODELS = ROOT / "notebooks" / "models"
CELL = f"""
let options = BenchmarkOptions(warmupRuns: 2, minimumWarmupSeconds: 0, minimumRuns: 8, minimumSeconds: 0, maximumSeconds: 3)
let variants = [
    ModelVariant("fashion fp32", model: "{MODELS / 'fashion_cnn.ptl'}", input: .constant(shape: [1, 1, 28, 28], value: 0.5)),
    ModelVariant("fashion int8", model: "{MODELS / 'fashion_cnn_int8.ptl'}", input: .constant(shape: [1, 1, 28, 28], value: 0.5)),
]
let table = try Benchmark("fashion across processes", options: options).acrossProcesses(variants, processes: 2)
for result in table.results {{ print(result.label, "|", result.processSamples!.count, "|", result.intervalCoverage) }}
table.results[1].compared(with: table.results[0]).phrase(than: "fp32")
"""


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def test_a_benchmark_across_processes_runs_from_a_cell():
    km, kc = start_kernel()
    try:
        reply, outputs = run_cell(kc, CELL, timeout=300)
        assert reply["status"] == "ok", errors(outputs)
        lines = text_of(outputs).strip().splitlines()
        assert len(lines) == 2, lines
        for line, name in zip(lines, ["fashion fp32 · 1 thread", "fashion int8 · 1 thread"]):
            label, count, coverage = [part.strip() for part in line.split("|")]
            assert (label, count) == (name, "2")
            assert re.fullmatch(r"2 processes × \d+ runs; interval across processes", coverage), coverage
        # The comparison is round by round across the two process rounds, and says so.
        phrase = results(outputs)[0]
        assert "interval across 2 processes" in phrase or "undecided" in phrase or "equivalent" in phrase, phrase
        # A progress line named each worker process; the workers' own output stayed out of the cell.
        shown = [m["content"]["data"]["text/plain"] for m in outputs
                 if m["msg_type"] in ("display_data", "update_display_data")]
        assert any("process 1 of 4 (round 1, fashion fp32 · 1 thread)" in text for text in shown), shown
        assert any("process 4 of 4 (round 2, fashion fp32 · 1 thread)" in text for text in shown), shown
        assert not [m for m in outputs if m["msg_type"] == "stream" and m["content"]["name"] == "stderr"]
    finally:
        stop(km, kc)


def test_a_bad_worker_path_is_a_clear_error_and_the_kernel_keeps_serving():
    km, kc = start_kernel(env={"BENCHBOOK_BENCH_WORKER": "/nonexistent/benchbook-bench-worker"})
    try:
        reply, outputs = run_cell(kc, CELL, timeout=120)
        assert reply["status"] == "error"
        message = reply["evalue"]
        assert "The benchmark worker (benchbook-bench-worker) was not found" in message, message
        assert "/nonexistent/benchbook-bench-worker (BENCHBOOK_BENCH_WORKER)" in message
        assert "make build" in message
        reply, outputs = run_cell(kc, "1 + 1")
        assert results(outputs) == ["2"]
    finally:
        stop(km, kc)
