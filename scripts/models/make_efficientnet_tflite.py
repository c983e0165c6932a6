"""Writes pretrained EfficientNet-Lite0 as TensorFlow Lite, float32 and full-integer uint8, the
way the course's TensorFlow Lite module deploys a model: the app sends RGB bytes and the
normalisation lives inside the model.

    .venv/bin/python scripts/models/make_efficientnet_tflite.py --out models/generated

A Keras port of the same network (scripts/models/efficientnet_lite0.py) with the weights
make_efficientnet_torch.py exported (efficientnet_lite0_weights.npz; batch norm folded into
each convolution here), behind a Rescaling layer that computes (x - 127) / 128. Writes:

  efficientnet_lite0.tflite        input `image` [1, 224, 224, 3] float32, RGB 0...255
  efficientnet_lite0_int8.tflite   the same with uint8 input (scale 1, zero point 0: the
                                   RGB bytes themselves) and uint8 logits; weights and
                                   activations int8, calibrated on the same 64 crops as the
                                   torch int8 model (efficientnet_lite0_calibration.npz)
  reference/imagenet_photos_tflite.json   per photo: the LiteRT Python interpreter's logits

Each file carries a `benchbook.json` metadata buffer (class names, shapes, preprocessing),
which Benchbook reads through LiteRtGetModelMetadata. The Keras port is checked against the
torch logits of the photo set before anything is written.
"""
import argparse
import json
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import tensorflow as tf
from PIL import Image
import efficientnet_spec as arch
from tflite_metadata import with_metadata

def folded(weights, prefix):
    """Convolution weights with the batch norm folded in: (kernel as in torch, bias)."""
    kernel = weights[f"{prefix}.conv.weight"]
    gamma, beta = weights[f"{prefix}.bn.weight"], weights[f"{prefix}.bn.bias"]
    mean, var = weights[f"{prefix}.bn.running_mean"], weights[f"{prefix}.bn.running_var"]
    factor = gamma / np.sqrt(var + arch.BN_EPSILON)
    return kernel * factor[:, None, None, None], beta - mean * factor


def keras_model(weights):
    layers = tf.keras.layers
    image = tf.keras.Input(shape=(224, 224, 3), name="image")
    x = layers.Rescaling(1 / arch.STD, offset=-arch.MEAN / arch.STD, name="normalise")(image)

    def conv_bn(x, prefix, filters, kernel, stride, depthwise=False, relu=True):
        kernel_torch, bias = folded(weights, prefix)
        if depthwise:
            layer = layers.DepthwiseConv2D(kernel, stride, padding="same", name=prefix)
            x = layer(x)
            layer.set_weights([kernel_torch.transpose(2, 3, 0, 1), bias])   # [C,1,k,k] -> [k,k,C,1]
        else:
            layer = layers.Conv2D(filters, kernel, stride, padding="same", name=prefix)
            x = layer(x)
            layer.set_weights([kernel_torch.transpose(2, 3, 1, 0), bias])   # [O,I,k,k] -> [k,k,I,O]
        return layers.ReLU(max_value=6.0, name=prefix + ".relu6")(x) if relu else x

    x = conv_bn(x, "stem", 32, 3, 2)
    index = 0
    for kernel, stride, expand, cin, cout, repeats in arch.STAGES:
        for repeat in range(repeats):
            block_in, block_stride = (cin, stride) if repeat == 0 else (cout, 1)
            prefix = f"blocks.{index}"
            y = x
            if expand != 1:
                y = conv_bn(y, prefix + ".expand", block_in * expand, 1, 1)
            y = conv_bn(y, prefix + ".depthwise", None, kernel, block_stride, depthwise=True)
            y = conv_bn(y, prefix + ".project", cout, 1, 1, relu=False)
            x = layers.Add(name=prefix + ".add")([x, y]) if block_stride == 1 and block_in == cout else y
            index += 1
    x = conv_bn(x, "head", 1280, 1, 1)
    x = layers.GlobalAveragePooling2D(name="pool")(x)
    fc = layers.Dense(1000, name="fc")
    logits = fc(x)
    fc.set_weights([weights["fc.weight"].T, weights["fc.bias"]])
    return tf.keras.Model(image, {"logits": logits})


def metadata(input_type, labels, note):
    return json.dumps({
        "inputs": [{"name": "image", "shape": [1, 224, 224, 3], "dtype": input_type, "layout": "NHWC"}],
        "outputs": [{"name": "logits", "shape": [1, 1000], "dtype": input_type}],
        "labels": labels,
        "preprocessing": {"shorter_side": 256, "center_crop": 224, "filter": "bilinear",
                          "scale": 1.0, "mean": [0.0], "std": [1.0], "layout": "NHWC", "channels": "RGB",
                          "inside_model": "(x - 127) / 128"},
        "note": note,
    })


def convert(model, calibration=None):
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    if calibration is not None:
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = lambda: ([calibration[i:i + 1]] for i in range(len(calibration)))
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.uint8
        converter.inference_output_type = tf.uint8
    return converter.convert()


def run(path, crops):
    from ai_edge_litert.interpreter import Interpreter
    interpreter = Interpreter(model_path=path, num_threads=1)
    interpreter.allocate_tensors()
    source, target = interpreter.get_input_details()[0], interpreter.get_output_details()[0]
    logits = []
    for crop in crops:
        x = crop[None].astype(source["dtype"])
        if source["dtype"] == np.uint8:
            scale, zero = source["quantization"]
            x = np.clip(np.round(crop[None] / scale + zero), 0, 255).astype(np.uint8)
        interpreter.set_tensor(source["index"], x)
        interpreter.invoke()
        y = interpreter.get_tensor(target["index"])[0]
        if target["dtype"] == np.uint8:
            scale, zero = target["quantization"]
            y = (y.astype(np.float32) - zero) * scale
        logits.append(y.astype(np.float32))
    return np.stack(logits), source["quantization"], target["quantization"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="models/generated")
    args = parser.parse_args()
    started = time.monotonic()
    tf.keras.utils.set_random_seed(5)
    weights = dict(np.load(os.path.join(args.out, "efficientnet_lite0_weights.npz")))
    calibration = np.load(os.path.join(args.out, "efficientnet_lite0_calibration.npz"))["crops"].astype(np.float32)
    with open(os.path.join(args.out, "reference", "imagenet_photos.json")) as f:
        reference = json.load(f)
    crops = np.stack([np.asarray(Image.open(os.path.join(args.out, "reference", p["crop"])).convert("RGB"))
                      for p in reference["photos"]])
    with open(os.path.join(args.out, "imagenet_classes.json")) as f:
        labels = json.load(f)
    torch_logits = np.array([p["logits"]["efficientnet_lite0.pt"] for p in reference["photos"]], dtype=np.float32)

    model = keras_model(weights)
    keras_logits = model.predict(crops.astype(np.float32), verbose=0)["logits"]
    difference = float(np.abs(keras_logits - torch_logits).max())
    print(f"Keras port vs TorchScript on the photo set: max |logit difference| {difference:.2e}")
    if difference > 1e-3:
        sys.exit("the Keras port does not match the torch network; refusing to write models")

    float_path = os.path.join(args.out, "efficientnet_lite0.tflite")
    int8_path = os.path.join(args.out, "efficientnet_lite0_int8.tflite")
    with open(float_path, "wb") as f:
        f.write(with_metadata(convert(model), metadata(
            "float32", labels, "EfficientNet-Lite0, ImageNet-pretrained, float32; (x - 127) / 128 inside the model")))
    with open(int8_path, "wb") as f:
        f.write(with_metadata(convert(model, calibration), metadata(
            "uint8", labels, "EfficientNet-Lite0, full-integer (uint8 in and out, int8 inside), post-training quantisation")))

    record = {"runtime": "ai_edge_litert.interpreter, 1 thread", "input": "the reference crops, RGB bytes",
              "photos": [{"file": p["file"], "logits": {}} for p in reference["photos"]]}
    for path in [float_path, int8_path]:
        logits, source, target = run(path, crops)
        record[os.path.basename(path) + " quantization"] = {"input": list(source), "output": list(target)}
        for entry, values in zip(record["photos"], logits):
            entry["logits"][os.path.basename(path)] = values.tolist()
        agree = int(np.sum(logits.argmax(1) == torch_logits.argmax(1)))
        print(f"{os.path.basename(path)}: max |logit difference| to TorchScript {np.abs(logits - torch_logits).max():.2e}, "
              f"top-1 agreement {agree}/{len(crops)}, input quantisation {source}")
    with open(os.path.join(args.out, "reference", "imagenet_photos_tflite.json"), "w") as f:
        json.dump(record, f)
    print(f"wrote {float_path}, {int8_path} in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
