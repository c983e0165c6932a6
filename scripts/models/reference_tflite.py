"""Runs the TensorFlow Lite models with the ai_edge_litert interpreter and writes references.

    .venv/bin/python scripts/models/reference_tflite.py --models notebooks/models --out Tests/Fixtures/models
    .venv/bin/python scripts/models/reference_tflite.py --mobilenet --models models/generated --out models/generated/reference

int8 models get the input quantised here (round half to even, clamp) and the reference
stores that int8 input, so Swift feeds the identical bytes and must match the int8 output
exactly.
"""
import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
from ai_edge_litert.interpreter import Interpreter

import reference_common as common


def run(interpreter, x):
    detail = interpreter.get_input_details()[0]
    if list(detail["shape"]) != list(x.shape):
        interpreter.resize_tensor_input(detail["index"], list(x.shape))
        interpreter.allocate_tensors()
        detail = interpreter.get_input_details()[0]
    interpreter.set_tensor(detail["index"], x)
    interpreter.invoke()
    return interpreter.get_tensor(interpreter.get_output_details()[0]["index"]).copy()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="notebooks/models")
    parser.add_argument("--out", default="Tests/Fixtures/models")
    parser.add_argument("--mobilenet", action="store_true")
    args = parser.parse_args()
    if args.mobilenet:
        stems, inputs = ["mobilenet_v2", "mobilenet_v2_int8"], common.mobilenet_inputs(layout="NHWC")
    else:
        stems = ["fashion_cnn", "fashion_cnn_int8"]
        inputs = [x.reshape(1, 28, 28, 1) for x in common.fashion_inputs()]  # same memory, NHWC
        inputs.append(np.concatenate(inputs[:3]))
    for stem in stems:
        path = os.path.join(args.models, f"{stem}.tflite")
        interpreter = Interpreter(model_path=path, num_threads=1)
        interpreter.allocate_tensors()
        detail = interpreter.get_input_details()[0]
        cases = []
        for x in inputs:
            if detail["dtype"] == np.int8:
                scale, zero = detail["quantization"]
                x = np.clip(np.round(x / scale) + zero, -128, 127).astype(np.int8)
            cases.append({"input": common.tensor_json(x), "output": common.tensor_json(run(interpreter, x))})
        common.write(os.path.join(args.out, f"{stem}.tflite.json"), path, "ai_edge_litert.interpreter", cases)


if __name__ == "__main__":
    main()
