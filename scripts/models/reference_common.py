"""Shared by reference_torch.py and reference_tflite.py: the inputs both use and the JSON
they write. Each reference file lists cases of one model: an input tensor and the output
the runtime's own Python API computed from it.
"""
import json
import os

import numpy as np

import fashion_data


def fashion_inputs(seed=5):
    """Three test images and one uniform random image, as float32 [1, 1, 28, 28] in [0, 1]."""
    test_x, _ = fashion_data.load("t10k")
    images = [fashion_data.as_float(test_x[i:i + 1]) for i in range(3)]
    images.append(np.random.default_rng(seed).random((1, 1, 28, 28), dtype=np.float32))
    return images


def mobilenet_inputs(seed=5, layout="NCHW"):
    shape = (1, 3, 224, 224) if layout == "NCHW" else (1, 224, 224, 3)
    return [np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)]


def tensor_json(array):
    array = np.asarray(array)
    return {"shape": list(array.shape), "dtype": str(array.dtype), "values": array.reshape(-1).tolist()}


def write(path, model, runtime, cases, threads=1, engine=None, note=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    record = {"model": model, "runtime": runtime, "threads": threads, "cases": cases}
    if engine:
        record["quantized_engine"] = engine
    if note:
        record["note"] = note
    with open(path, "w") as f:
        json.dump(record, f)
    print("wrote", path)
