"""Drives the Swift model tool (benchbook-models) from pytest.

Damaged model files must all become thrown errors, never crashes; the Swift outputs of the
set-up MobileNetV2 files must match Python's (the committed Fashion-MNIST references are
checked by the Swift unit tests).
"""
import os
import time
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BENCHBOOK_MODELS_BIN", os.path.join(ROOT, ".build/release/benchbook-models"))
MODELS_DIR = os.environ.get("BENCHBOOK_MODELS_DIR", os.path.join(ROOT, "notebooks/models"))
MODELS = [os.path.join(MODELS_DIR, name) for name in
          ["fashion_cnn.pt", "fashion_cnn.ptl", "fashion_cnn_int8.pt", "fashion_cnn_int8.ptl",
           "fashion_cnn.tflite", "fashion_cnn_int8.tflite"]]


def run(*arguments):
    return subprocess.run([BIN, *arguments], capture_output=True, text=True, errors="replace", cwd=ROOT,
                          timeout=1800)


def test_two_hundred_damaged_files_all_throw(tmp_path):
    result = run("corrupt", "--count", "200", "--subtle", "24", "--dir", str(tmp_path), *MODELS)
    assert result.returncode == 0, f"the tool crashed or failed (exit {result.returncode}):\n{result.stderr[-2000:]}"
    summary = re.search(r"corrupt files: (\d+), thrown errors: (\d+), loaded and ran: (\d+)", result.stdout)
    assert summary, result.stdout[-2000:]
    assert summary.groups() == ("200", "200", "0")
    threw = [line for line in result.stdout.splitlines() if ": threw ModelError:" in line]
    assert len([line for line in threw if "subtle" not in line]) == 200
    # Subtle damage (flipped bytes) may load and run, but must not crash either.
    assert re.search(r"subtle damage: 24, loaded and ran: \d+, thrown: \d+", result.stdout)
    # Every message names its file.
    assert all(line.split(": threw", 1)[0].rsplit("/", 1)[-1] in line.split(": threw", 1)[1] for line in threw)


def test_describe_lists_names_shapes_and_quantisation():
    result = run("describe", MODELS[5], MODELS[0])
    assert result.returncode == 0, result.stderr
    assert "input  image [?, 28, 28, 1] int8 NHWC scale" in result.stdout
    assert "output logits [?, 10] int8" in result.stdout
    assert "input  image [?, 1, 28, 28] float32 NCHW" in result.stdout


def test_missing_runtime_library_is_a_clear_error():
    env = dict(os.environ, BENCHBOOK_LITERT_LIBRARY="/nowhere/libLiteRt.so")
    result = subprocess.run([BIN, "describe", MODELS[4]], capture_output=True, text=True, env=env, cwd=ROOT)
    assert result.returncode == 1
    assert "LiteRT runtime library is not available" in result.stderr
    assert "/nowhere/libLiteRt.so" in result.stderr


def test_missing_model_file_is_a_clear_error():
    result = run("describe", "notebooks/models/no_such_model.ptl")
    assert result.returncode == 1
    assert "No model file at notebooks/models/no_such_model.ptl" in result.stderr


def test_a_damaged_size_field_is_refused_quickly_under_the_memory_cap(tmp_path):
    """Four bytes of fashion_cnn_int8.ptl's data.pkl set to 0x7fffffff make libtorch allocate
    without end (16 GB and 40 s before the check had a memory cap). The check child may map
    at most 2 GiB more than its parent had; its refusal is final."""
    data = bytearray(open(os.path.join(MODELS_DIR, "fashion_cnn_int8.ptl"), "rb").read())
    data[575:579] = b"\xff\xff\xff\x7f"
    damaged = tmp_path / "damaged.ptl"
    damaged.write_bytes(data)
    started = time.monotonic()
    process = subprocess.Popen([BIN, "describe", str(damaged)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.monotonic() - started
    stderr = process.stderr.read().decode()
    assert os.waitstatus_to_exitcode(status) == 1, stderr
    assert "damaged.ptl" in stderr and "more memory than the check allows" in stderr, stderr
    assert elapsed < 20, f"refused after {elapsed:.1f} s"
    assert usage.ru_maxrss < 2.5 * 1024 * 1024, f"peak {usage.ru_maxrss / 1024:.0f} MB"
