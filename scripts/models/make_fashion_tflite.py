"""Writes the course Fashion-MNIST classifier as TensorFlow Lite, float32 and full int8.

Rebuilds the torch architecture (fashion_cnn.py) in Keras, copies the trained torch weights
(fashion_cnn_weights.npz from make_fashion_torch.py) across, and converts with the
TensorFlow Lite converter; int8 uses post-training quantisation calibrated on training
images. Run with the project venv (PyPI tensorflow, ai-edge-litert):

    .venv/bin/python scripts/models/make_fashion_tflite.py --out notebooks/models

Both files have one signature: input `image` [N, 28, 28, 1] (NHWC; the same memory as the
torch model's 1x1x28x28), output `logits` [N, 10]. The int8 model takes int8 input and
returns int8 logits; their quantisation parameters are in the file. Each file carries a
`benchbook.json` metadata buffer with the class names (tflite_metadata.py);
`--metadata-only` sets it on existing files without converting again.
"""
import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import tensorflow as tf

import fashion_data
from tflite_metadata import with_metadata


def metadata(dtype):
    import json
    return json.dumps({
        "inputs": [{"name": "image", "shape": [-1, 28, 28, 1], "dtype": dtype, "layout": "NHWC"}],
        "outputs": [{"name": "logits", "shape": [-1, 10], "dtype": dtype}],
        "labels": fashion_data.LABELS,
        "preprocessing": {"size": 28, "filter": "box", "scale": 1 / 255, "mean": [0.0], "std": [1.0],
                          "layout": "NHWC", "channels": "gray"},
    })


def keras_model(weights):
    layers = tf.keras.layers
    image = tf.keras.Input(shape=(28, 28, 1), name="image")
    x = layers.Conv2D(32, 3, padding="same", activation="relu", name="conv1")(image)
    x = layers.MaxPool2D(2, name="pool1")(x)
    x = layers.Conv2D(64, 3, padding="same", activation="relu", name="conv2")(x)
    x = layers.MaxPool2D(2, name="pool2")(x)
    x = layers.Flatten(name="flatten")(x)
    x = layers.Dense(128, activation="relu", name="fc1")(x)
    logits = layers.Dense(10, name="fc2")(x)
    # A dict output names the signature output `logits`.
    model = tf.keras.Model(image, {"logits": logits})
    # torch conv weights are [out, in, kh, kw]; Keras wants [kh, kw, in, out].
    model.get_layer("conv1").set_weights([weights["conv1.weight"].transpose(2, 3, 1, 0), weights["conv1.bias"]])
    model.get_layer("conv2").set_weights([weights["conv2.weight"].transpose(2, 3, 1, 0), weights["conv2.bias"]])
    # torch flattens C,H,W; Keras flattens H,W,C: reorder fc1's input rows to match.
    fc1 = weights["fc1.weight"].reshape(128, 64, 7, 7).transpose(2, 3, 1, 0).reshape(7 * 7 * 64, 128)
    model.get_layer("fc1").set_weights([fc1, weights["fc1.bias"]])
    model.get_layer("fc2").set_weights([weights["fc2.weight"].T, weights["fc2.bias"]])
    return model


def convert(model, calibration=None):
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    if calibration is not None:
        def representative():
            for i in range(len(calibration)):
                yield [calibration[i:i + 1]]
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = representative
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    return converter.convert()


def tflite_accuracy(path, images, labels):
    from ai_edge_litert.interpreter import Interpreter
    interpreter = Interpreter(model_path=path, num_threads=2)
    interpreter.allocate_tensors()
    input_detail = interpreter.get_input_details()[0]
    output_detail = interpreter.get_output_details()[0]
    scale, zero = input_detail["quantization"]
    correct = 0
    for i in range(len(images)):
        x = images[i:i + 1]
        if input_detail["dtype"] == np.int8:
            x = np.clip(np.round(x / scale + zero), -128, 127).astype(np.int8)
        interpreter.set_tensor(input_detail["index"], x)
        interpreter.invoke()
        correct += int(np.argmax(interpreter.get_tensor(output_detail["index"])[0]) == labels[i])
    return correct / len(images)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="notebooks/models")
    parser.add_argument("--weights", default=None)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--metadata-only", action="store_true")
    args = parser.parse_args()
    if args.metadata_only:
        for name, dtype in [("fashion_cnn.tflite", "float32"), ("fashion_cnn_int8.tflite", "int8")]:
            path = os.path.join(args.out, name)
            with open(path, "rb") as f:
                data = f.read()
            with open(path, "wb") as f:
                f.write(with_metadata(data, metadata(dtype)))
        return
    weights = dict(np.load(args.weights or os.path.join(args.out, "fashion_cnn_weights.npz")))
    model = keras_model(weights)

    train_x, _ = fashion_data.load("train")
    test_x, test_y = fashion_data.load("t10k")
    nhwc = lambda images: (images.astype(np.float32) / 255.0)[..., None]
    rng = np.random.default_rng(args.seed)
    calibration = nhwc(train_x[rng.choice(len(train_x), 1000, replace=False)])

    float_path = os.path.join(args.out, "fashion_cnn.tflite")
    int8_path = os.path.join(args.out, "fashion_cnn_int8.tflite")
    with open(float_path, "wb") as f:
        f.write(with_metadata(convert(model), metadata("float32")))
    with open(int8_path, "wb") as f:
        f.write(with_metadata(convert(model, calibration), metadata("int8")))
    test = nhwc(test_x)
    keras_accuracy = float(np.mean(np.argmax(model.predict(test, batch_size=500, verbose=0)["logits"], 1) == test_y))
    print(f"keras (copied torch weights) test accuracy: {keras_accuracy:.4f}")
    print(f"{float_path}: test accuracy {tflite_accuracy(float_path, test, test_y):.4f}")
    print(f"{int8_path}: test accuracy {tflite_accuracy(int8_path, test, test_y):.4f}")


if __name__ == "__main__":
    main()
