"""Runs the libtorch models in Python (Debian torch 1.13) and writes reference outputs.

    /usr/bin/python3 scripts/models/reference_torch.py --models notebooks/models --out Tests/Fixtures/models
    /usr/bin/python3 scripts/models/reference_torch.py --mobilenet --models models/generated --out models/generated/reference

TorchScript files run through torch.jit.load, PyTorch Lite files through the lite
interpreter (torch.jit.mobile), with 1 thread and the QNNPACK quantised engine, the settings
Benchbook's tests use.
"""
import argparse
import os

import numpy as np
import torch
from torch.jit.mobile import _load_for_lite_interpreter

import reference_common as common


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="notebooks/models")
    parser.add_argument("--out", default="Tests/Fixtures/models")
    parser.add_argument("--mobilenet", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.backends.quantized.engine = "qnnpack"
    stems = ["mobilenet_v2", "mobilenet_v2_int8"] if args.mobilenet else ["fashion_cnn", "fashion_cnn_int8"]
    inputs = common.mobilenet_inputs() if args.mobilenet else common.fashion_inputs()
    if not args.mobilenet:
        inputs.append(np.concatenate(inputs[:3]))  # one batch of three
    for stem in stems:
        for extension in ["pt", "ptl"]:
            path = os.path.join(args.models, f"{stem}.{extension}")
            module = torch.jit.load(path) if extension == "pt" else _load_for_lite_interpreter(path)
            cases = []
            with torch.no_grad():
                for x in inputs:
                    y = module(torch.from_numpy(x))
                    cases.append({"input": common.tensor_json(x), "output": common.tensor_json(y.numpy())})
            common.write(os.path.join(args.out, f"{stem}.{extension}.json"), path,
                         "torch.jit.load" if extension == "pt" else "torch.jit.mobile lite interpreter",
                         cases, engine="qnnpack")


if __name__ == "__main__":
    main()
