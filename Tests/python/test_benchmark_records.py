"""Benchmark records from the Swift library, checked from Python.

Runs `benchbook-bench sample-records` (a small Swift executable that benchmarks a workload and
writes a record and a sweep) and checks that:
- the sweep's CSV opens with Python's csv module and agrees with the JSON;
- the record's statistics agree with NumPy recomputed from the raw per-run times;
- the model SHA-256 agrees with hashlib; machine, versions and shapes are recorded.

The executable is $BENCHBOOK_BENCH_BIN, or .build/release/benchbook-bench (built by `make`).
"""
import csv
import hashlib
import json
import os
import subprocess
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from benchbook_kit import ROOT

BINARY = Path(os.environ.get("BENCHBOOK_BENCH_BIN", ROOT / ".build" / "release" / "benchbook-bench"))


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: run `swift build -c release --product benchbook-bench` "
                    "or set BENCHBOOK_BENCH_BIN")
    out = tmp_path_factory.mktemp("records")
    subprocess.run([str(BINARY), "sample-records", str(out)], check=True, timeout=120,
                   capture_output=True, text=True)
    return out


def test_csv_opens_with_csv_module_and_matches_json(written):
    with open(written / "sample-sweep.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    sweep = json.loads((written / "sample-sweep.json").read_text())
    assert [row["name"] for row in rows] == ["spin 10k", "spin 40k"]
    assert [int(row["threads"]) for row in rows] == [1, 2]
    assert list(rows[0].keys())[:3] == ["name", "threads", "runs"]
    for row, record in zip(rows, sweep["records"]):
        samples = np.array(record["result"]["samples"])
        assert int(row["runs"]) == len(samples) >= 30
        assert float(row["median_ms"]) == pytest.approx(np.percentile(samples, 50) * 1e3, abs=1e-4)
        assert float(row["p90_ms"]) == pytest.approx(np.percentile(samples, 90) * 1e3, abs=1e-4)
        assert float(row["min_ms"]) <= float(row["median_ms"]) <= float(row["p99_ms"]) <= float(row["max_ms"])
        assert row["init_ms"] == ""  # variants without a set-up have no init time
    # The heavier workload is slower.
    assert float(rows[1]["median_ms"]) > float(rows[0]["median_ms"])
    assert sweep["title"] == 'spin, "quoted", name'


def test_record_statistics_match_numpy(written):
    record = json.loads((written / "sample-record.json").read_text())
    result = record["result"]
    samples = np.array(result["samples"])
    stats = result["statistics"]
    assert stats["count"] == len(samples) >= 30
    assert stats["minimum"] == samples.min() and stats["maximum"] == samples.max()
    assert stats["mean"] == pytest.approx(samples.mean(), rel=1e-12)
    assert stats["standardDeviation"] == pytest.approx(samples.std(), rel=1e-9)
    for key, p in [("median", 50), ("p90", 90), ("p99", 99)]:
        assert stats[key] == pytest.approx(np.percentile(samples, p), rel=1e-12)
    assert result["options"]["threads"] == 1
    assert result["initSeconds"] >= 0 and result["firstRunSeconds"] > 0
    assert result["peakResidentBytes"] > 1_000_000


def test_record_carries_provenance(written):
    record = json.loads((written / "sample-record.json").read_text())
    model = Path(record["modelPath"])
    assert record["modelSHA256"] == hashlib.sha256(model.read_bytes()).hexdigest()
    assert record["inputShape"] == [1, 3, 224, 224]
    assert record["runtime"] == "none (sample)"
    assert record["libraryVersions"] == {"benchbook": "0.1"}
    machine = record["machine"]
    assert 1 <= machine["coreCount"] <= os.cpu_count()
    cpuinfo = Path("/proc/cpuinfo").read_text()
    assert machine["cpuModel"] in cpuinfo
    assert "kernel" in machine["operatingSystem"]
    if Path("/etc/os-release").exists():
        pretty = [line.split("=", 1)[1].strip('"') for line in Path("/etc/os-release").read_text().splitlines()
                  if line.startswith("PRETTY_NAME=")]
        assert machine["operatingSystem"].startswith(pretty[0])
    # ISO 8601 date, recent.
    date = datetime.fromisoformat(record["date"].replace("Z", "+00:00"))
    assert abs((datetime.now(date.tzinfo) - date).total_seconds()) < 600


def test_csv_intervals_agree_with_a_numpy_bootstrap(written):
    """The median and p90 intervals Swift writes (2,000 resamples) against NumPy's percentile
    bootstrap of the same runs (20,000 resamples): each bound within a quarter of the width,
    one step between neighbouring run times and the CSV's rounding. Bootstrap bounds of a
    median are run times (or, in NumPy, midpoints of two), so with a narrow interval two correct
    bootstraps can differ by one step, which can be the whole width (CI saw 0.300 µs apart on a
    0.310 µs wide interval)."""
    with open(written / "sample-sweep.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    sweep = json.loads((written / "sample-sweep.json").read_text())
    rng = np.random.default_rng(5)
    for row, record in zip(rows, sweep["records"]):
        samples = np.array(record["result"]["samples"]) * 1e3
        draws = samples[rng.integers(0, len(samples), size=(20000, len(samples)))]
        for name, p in [("median", 50), ("p90", 90)]:
            low, high = np.percentile(np.percentile(draws, p, axis=1), [2.5, 97.5])
            assert float(row[f"{name}_low_ms"]) <= float(row[f"{name}_ms"]) <= float(row[f"{name}_high_ms"])
            distinct = np.unique(samples)
            for bound, reference in [("low", low), ("high", high)]:
                text = row[f"{name}_{bound}_ms"]
                # One step between neighbouring run times (two bootstraps may pick adjacent
                # runs) and the CSV's rounding are allowed beside a quarter of the width.
                k = int(np.searchsorted(distinct, reference))
                near = distinct[max(k - 2, 0):k + 2]
                step = float(np.max(np.diff(near))) if len(near) > 1 else 0.0
                rounding = 0.5 * 10 ** -len(text.partition(".")[2])
                allowed = 0.25 * (high - low) + step + rounding
                assert abs(float(text) - reference) <= allowed, (name, bound, text, reference, allowed)
        assert row["contended"] in ("yes", "no")
        assert 0 <= float(row["free_cores"]) <= os.cpu_count()
        contention = record["result"]["contention"]
        assert contention["cores"] == os.cpu_count() and contention["wallSeconds"] > 0
