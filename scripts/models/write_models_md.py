"""Writes MODELS.md and models.json next to model files: each file's size and SHA-256.

    python3 scripts/models/write_models_md.py notebooks/models
"""
import hashlib
import json
import os
import sys

DESCRIPTIONS = {
    "fashion_cnn.pt": "Fashion-MNIST CNN, TorchScript, float32",
    "fashion_cnn.ptl": "Fashion-MNIST CNN, PyTorch Lite (optimize_for_mobile), float32",
    "fashion_cnn_int8.pt": "Fashion-MNIST CNN, TorchScript, int8 (QNNPACK static quantisation)",
    "fashion_cnn_int8.ptl": "Fashion-MNIST CNN, PyTorch Lite, int8 (QNNPACK)",
    "fashion_cnn.tflite": "Fashion-MNIST CNN, TensorFlow Lite, float32 (Keras copy of the torch weights)",
    "fashion_cnn_int8.tflite": "Fashion-MNIST CNN, TensorFlow Lite, full int8 (int8 in and out)",
    "fashion_cnn_weights.npz": "trained float weights (torch state_dict as NumPy), input of the exporters",
    "mobilenet_v2.pt": "MobileNetV2 224x224, TorchScript, float32, UNTRAINED weights (latency only)",
    "mobilenet_v2.ptl": "MobileNetV2 224x224, PyTorch Lite, float32, UNTRAINED weights (latency only)",
    "mobilenet_v2_int8.pt": "MobileNetV2, TorchScript, int8 QNNPACK, UNTRAINED weights (latency only)",
    "mobilenet_v2_int8.ptl": "MobileNetV2, PyTorch Lite, int8 QNNPACK, UNTRAINED weights (latency only)",
    "mobilenet_v2.tflite": "Keras MobileNetV2 224x224x3, TensorFlow Lite, float32, UNTRAINED weights (latency only)",
    "mobilenet_v2_int8.tflite": "Keras MobileNetV2, TensorFlow Lite, full int8, UNTRAINED weights (latency only)",
}


def main():
    directory = sys.argv[1]
    entries = []
    for name in sorted(os.listdir(directory)):
        if name not in DESCRIPTIONS:
            continue
        with open(os.path.join(directory, name), "rb") as f:
            data = f.read()
        entries.append({"file": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                        "description": DESCRIPTIONS[name]})
    with open(os.path.join(directory, "models.json"), "w") as f:
        json.dump(entries, f, indent=1)
    lines = ["# Model files", "",
             "Made by the scripts in `scripts/models/` (see `mk/models.mk`: `make models`).", "",
             "The Fashion-MNIST classifier takes `image`, 1x1x28x28 float32 in [0, 1] (the .tflite files:",
             "1x28x28x1 NHWC, the same memory; the int8 .tflite takes int8 with the scale and zero point",
             "in the file) and returns `logits`, 10 scores in Fashion-MNIST label order: T-shirt/top,",
             "Trouser, Pullover, Dress, Coat, Sandal, Shirt, Sneaker, Bag, Ankle boot. Trained with",
             "Debian's python3-torch 1.13 (`make_fashion_torch.py`); the .tflite files are a Keras copy of",
             "the same weights (`make_fashion_tflite.py`). Test accuracy measured from Swift:",
             "`results/model-accuracy.md`. MobileNetV2 files (untrained weights, latency only) are made",
             "at set-up in `models/generated/` and not committed.", "",
             "| file | bytes | SHA-256 | what |", "|---|---|---|---|"]
    lines += [f"| `{e['file']}` | {e['bytes']} | `{e['sha256']}` | {e['description']} |" for e in entries]
    with open(os.path.join(directory, "MODELS.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {directory}/MODELS.md and models.json ({len(entries)} files)")


if __name__ == "__main__":
    main()
