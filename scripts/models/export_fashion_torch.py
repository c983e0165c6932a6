"""Writes the trained Fashion-MNIST CNN as TorchScript, PyTorch Lite and int8 (QNNPACK).

Reads the float weights that make_fashion_torch.py saved (fashion_cnn_weights.npz) and
writes fashion_cnn.pt, fashion_cnn.ptl, fashion_cnn_int8.pt, fashion_cnn_int8.ptl. Each
file carries an extra file "benchbook.json" naming its input (`image`) and output
(`logits`) with shapes, which Benchbook's Model shows and checks inputs against.

    /usr/bin/python3 scripts/models/export_fashion_torch.py --out notebooks/models
"""
import argparse
import json
import os

import numpy as np
import torch
from torch.utils.mobile_optimizer import optimize_for_mobile

import fashion_data
from fashion_cnn import FashionCNN

METADATA = json.dumps({
    "inputs": [{"name": "image", "shape": [-1, 1, 28, 28], "dtype": "float32", "layout": "NCHW"}],
    "outputs": [{"name": "logits", "shape": [-1, 10], "dtype": "float32"}],
    "labels": fashion_data.LABELS,
})


def load_float(weights_path):
    model = FashionCNN()
    arrays = np.load(weights_path)
    model.load_state_dict({k: torch.from_numpy(arrays[k]) for k in arrays.files})
    model.eval()
    return model


def quantise(model, calibration):
    torch.backends.quantized.engine = "qnnpack"
    q = FashionCNN()
    q.load_state_dict(model.state_dict())
    q.eval()
    q.fuse()
    q.qconfig = torch.quantization.get_default_qconfig("qnnpack")
    torch.quantization.prepare(q, inplace=True)
    with torch.no_grad():
        for i in range(0, len(calibration), 500):
            q(torch.from_numpy(calibration[i:i + 500]))
    torch.quantization.convert(q, inplace=True)
    return q


def save_all(module, stem, metadata=METADATA):
    scripted = torch.jit.script(module)
    scripted.save(stem + ".pt", _extra_files={"benchbook.json": metadata})
    lite = optimize_for_mobile(scripted)
    lite._save_for_lite_interpreter(stem + ".ptl", _extra_files={"benchbook.json": metadata})


def accuracy(model, images, labels, batch=1000):
    correct = 0
    with torch.no_grad():
        for i in range(0, len(images), batch):
            out = model(torch.from_numpy(images[i:i + batch]))
            correct += int((out.argmax(1).numpy() == labels[i:i + batch]).sum())
    return correct / len(images)


def export(weights_path, out, seed=5):
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    model = load_float(weights_path)
    save_all(model, os.path.join(out, "fashion_cnn"))
    train_x, _ = fashion_data.load("train")
    train_f = fashion_data.as_float(train_x)
    rng = np.random.default_rng(seed)
    calibration = train_f[rng.choice(len(train_f), 2000, replace=False)]
    q = quantise(model, calibration)
    save_all(q, os.path.join(out, "fashion_cnn_int8"))
    test_x, test_y = fashion_data.load("t10k")
    test_f = fashion_data.as_float(test_x)
    print(f"float test accuracy (python): {accuracy(model, test_f, test_y):.4f}")
    print(f"int8 qnnpack test accuracy (python): {accuracy(q, test_f, test_y):.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="notebooks/models")
    parser.add_argument("--weights", default=None)
    args = parser.parse_args()
    export(args.weights or os.path.join(args.out, "fashion_cnn_weights.npz"), args.out)


if __name__ == "__main__":
    main()
