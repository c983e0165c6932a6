"""Writes MobileNetV2 (224x224) as TorchScript and PyTorch Lite, float and int8 (QNNPACK).

UNTRAINED WEIGHTS: pretrained ImageNet weights cannot be downloaded here, so the networks
keep torchvision's random initialisation (seeded). They are for latency only: the time of a
forward pass does not depend on the weights. Their predictions mean nothing.

Run with Debian's /usr/bin/python3 (torch 1.13, torchvision 0.14):

    /usr/bin/python3 scripts/models/make_mobilenet_torch.py --out models/generated
"""
import argparse
import json
import os

import torch
import torchvision
from torch.utils.mobile_optimizer import optimize_for_mobile

METADATA = json.dumps({
    "inputs": [{"name": "image", "shape": [-1, 3, 224, 224], "dtype": "float32", "layout": "NCHW"}],
    "outputs": [{"name": "logits", "shape": [-1, 1000], "dtype": "float32"}],
    "note": "MobileNetV2 with UNTRAINED (random) weights, for latency only: its predictions mean nothing",
})


def save_all(module, stem):
    scripted = torch.jit.script(module)
    scripted.save(stem + ".pt", _extra_files={"benchbook.json": METADATA})
    optimize_for_mobile(scripted)._save_for_lite_interpreter(stem + ".ptl", _extra_files={"benchbook.json": METADATA})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="models/generated")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(5)
    torch.set_num_threads(2)

    model = torchvision.models.mobilenet_v2(weights=None).eval()
    save_all(model, os.path.join(args.out, "mobilenet_v2"))

    torch.backends.quantized.engine = "qnnpack"
    q = torchvision.models.quantization.mobilenet_v2(weights=None, quantize=False).eval()
    q.fuse_model()
    q.qconfig = torch.quantization.get_default_qconfig("qnnpack")
    torch.quantization.prepare(q, inplace=True)
    with torch.no_grad():
        for _ in range(4):
            q(torch.rand(2, 3, 224, 224) * 4 - 2)  # roughly ImageNet-normalised range
    torch.quantization.convert(q, inplace=True)
    save_all(q, os.path.join(args.out, "mobilenet_v2_int8"))
    print("wrote MobileNetV2 (untrained weights) .pt/.ptl float and int8 to", args.out)


if __name__ == "__main__":
    main()
