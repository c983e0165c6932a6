"""Writes Keras MobileNetV2 (224x224x3) as TensorFlow Lite, float32 and full int8.

UNTRAINED WEIGHTS (weights=None, seeded): pretrained weights cannot be downloaded here.
For latency only; predictions mean nothing. Run with the project venv:

    .venv/bin/python scripts/models/make_mobilenet_tflite.py --out models/generated
"""
import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import json

import numpy as np
import tensorflow as tf

from tflite_metadata import with_metadata


def metadata(dtype):
    return json.dumps({
        "inputs": [{"name": "image", "shape": [-1, 224, 224, 3], "dtype": dtype, "layout": "NHWC"}],
        "outputs": [{"name": "logits", "shape": [-1, 1000], "dtype": dtype}],
        "note": "MobileNetV2 with UNTRAINED (random) weights, for latency only: its predictions mean nothing",
    })


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="models/generated")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tf.keras.utils.set_random_seed(5)
    base = tf.keras.applications.MobileNetV2(weights=None, input_shape=(224, 224, 3), classifier_activation=None)
    image = tf.keras.Input(shape=(224, 224, 3), name="image")
    model = tf.keras.Model(image, {"logits": base(image)})

    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    with open(os.path.join(args.out, "mobilenet_v2.tflite"), "wb") as f:
        f.write(with_metadata(converter.convert(), metadata("float32")))

    rng = np.random.default_rng(5)
    calibration = rng.uniform(-1, 1, size=(8, 224, 224, 3)).astype(np.float32)
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = lambda: ([calibration[i:i + 1]] for i in range(len(calibration)))
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    converter.inference_input_type = tf.int8
    converter.inference_output_type = tf.int8
    with open(os.path.join(args.out, "mobilenet_v2_int8.tflite"), "wb") as f:
        f.write(with_metadata(converter.convert(), metadata("int8")))
    print("wrote MobileNetV2 (untrained weights) .tflite float and int8 to", args.out)


if __name__ == "__main__":
    main()
