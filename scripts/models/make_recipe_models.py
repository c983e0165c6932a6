"""Makes the module's recipe on Fashion-MNIST: a small mobile CNN, then 60 % magnitude pruning
with fine-tuning, pruning-preserving quantisation-aware training to int8, and post-training
int8 for comparison. Run with the project venv (PyPI tensorflow, tf-keras,
tensorflow-model-optimization, ai-edge-litert):

    PYTHONPATH=scripts/models .venv/bin/python scripts/models/make_recipe_models.py --out notebooks/models/recipe

The network is MobileNet v1's pattern at Fashion-MNIST's size: a 3x3 stride-2 stem, ten
depthwise-separable blocks (3x3 depthwise, 1x1 pointwise, batch norm, ReLU6), global average
pooling and a 10-way dense layer; 1.75 M parameters, most of them in the 1x1 convolutions, so
the int8 file is about 2 MB like the module's. The gray image is repeated into three channels
and every padding is explicit (ZeroPadding2D, then VALID), which is what XNNPACK's sparse
(NCHW) path asks of a float model: a 3x3 stride-2 stem with 3 input channels, padding 1 on
each side (see results/recipe-models.md for whether this machine's XNNPACK takes that path).

Steps, each seeded (--seed) with TensorFlow's deterministic ops:
  1. float: Adam 1e-3, batch 128, --float-epochs epochs (learning rate x0.3 in the last).
  2. pruned: tfmot prune_low_magnitude on every Conv2D, DepthwiseConv2D and Dense, sparsity
     0 -> 60 % (PolynomialDecay) over the first --prune-epochs - 1 epochs, held at 60 % for the
     last; Adam 3e-4; then strip_pruning.
  3. pruned + QAT int8: quantize_apply with tfmot's Default8BitPrunePreserveQuantizeScheme
     (the zeros stay zeros), --qat-epochs at Adam 1e-4; converted with int8 input and output.
  4. PTQ int8: the float model, post-training full-int8 quantisation calibrated on 1,000
     training images (as make_fashion_tflite.py does).
  Also the pruned float model converted with the converter's sparse weight encoding
  (tf.lite.Optimize.EXPERIMENTAL_SPARSITY), the form for which LiteRT's XNNPACK delegate asks
  XNNPACK for sparse inference (XNN_FLAG_HINT_SPARSE_INFERENCE).

Writes the .tflite files (each with the benchbook.json metadata: class names, preprocessing)
and recipe.json: accuracy of each file on the 10,000 test images with Python's LiteRT, the
1x1 convolutions' zero share, parameter counts, training times, versions. `--check FILE`
compares the accuracies with those of an earlier recipe.json (Tests/python/test_recipe_models.py).
"""
import argparse
import json
import os
import platform
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# tfmot 0.8 needs Keras 2 (tf-keras); TensorFlow 2.21's own tf.keras is Keras 3.
os.environ["TF_USE_LEGACY_KERAS"] = "1"

import numpy as np
import tensorflow as tf
import tensorflow_model_optimization as tfmot
import tf_keras

import fashion_data
from make_fashion_tflite import metadata, tflite_accuracy
from tflite_metadata import with_metadata

keras = tf.keras
FILES = {
    "float": "recipe_float.tflite",
    "pruned": "recipe_pruned.tflite",
    "pruned_qat_int8": "recipe_pruned_qat_int8.tflite",
    "ptq_int8": "recipe_ptq_int8.tflite",
    "pruned_sparse": "recipe_pruned_sparse.tflite",
}
TARGET_SPARSITY = 0.6
# (pointwise filters, depthwise stride) of the ten blocks: 28 -> 14 (stem) -> 7 -> 4 -> 2.
BLOCKS = [(32, 1), (64, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1), (512, 1), (1280, 1)]


def build_model():
    layers = keras.layers
    image = keras.Input(shape=(28, 28, 1), name="image")
    x = layers.Concatenate(name="gray_to_rgb")([image, image, image])
    x = layers.ZeroPadding2D(1, name="stem_pad")(x)
    x = layers.Conv2D(16, 3, strides=2, use_bias=False, name="stem")(x)
    x = layers.BatchNormalization(name="stem_bn")(x)
    x = layers.ReLU(6.0, name="stem_relu")(x)
    for i, (filters, stride) in enumerate(BLOCKS, start=1):
        x = layers.ZeroPadding2D(1, name=f"b{i}_pad")(x)
        x = layers.DepthwiseConv2D(3, strides=stride, use_bias=False, name=f"b{i}_dw")(x)
        x = layers.BatchNormalization(name=f"b{i}_dw_bn")(x)
        x = layers.ReLU(6.0, name=f"b{i}_dw_relu")(x)
        x = layers.Conv2D(filters, 1, use_bias=False, name=f"b{i}_pw")(x)
        x = layers.BatchNormalization(name=f"b{i}_pw_bn")(x)
        x = layers.ReLU(6.0, name=f"b{i}_pw_relu")(x)
    x = layers.GlobalAveragePooling2D(name="pool")(x)
    x = layers.Dropout(0.2, name="dropout")(x)
    logits = layers.Dense(10, name="logits")(x)
    return keras.Model(image, logits, name="recipe_cnn")


def compile_model(model, learning_rate):
    model.compile(optimizer=keras.optimizers.Adam(learning_rate),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])


def fit(model, x, y, epochs, learning_rate, seed, callbacks=()):
    """Trains `epochs` epochs; the last one at 0.3 x the learning rate."""
    compile_model(model, learning_rate)
    schedule = keras.callbacks.LearningRateScheduler(
        lambda epoch, lr: learning_rate * (0.3 if epoch == epochs - 1 and epochs > 1 else 1.0))
    start = time.time()
    model.fit(x, y, batch_size=128, epochs=epochs, shuffle=True, verbose=2,
              callbacks=[schedule, *callbacks])
    return time.time() - start


def keras_accuracy(model, x, y):
    return float(np.mean(np.argmax(model.predict(x, batch_size=500, verbose=0), 1) == y))


def pointwise_zero_share(model):
    """Zeros in the 1x1 convolutions and the dense layer (what XNNPACK counts), over their weights."""
    zeros = total = 0
    for layer in model.layers:
        if isinstance(layer, keras.layers.Conv2D) and layer.kernel_size == (1, 1) or \
                isinstance(layer, keras.layers.Dense):
            weights = layer.get_weights()[0]
            zeros += int(np.sum(weights == 0))
            total += weights.size
    return zeros / total


def convert(model, *, int8_calibration=None, qat=False, sparse=False):
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    if sparse:
        converter.optimizations = [tf.lite.Optimize.EXPERIMENTAL_SPARSITY]
    if qat or int8_calibration is not None:
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    if int8_calibration is not None:
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        def representative():
            for i in range(len(int8_calibration)):
                yield [int8_calibration[i:i + 1]]
        converter.representative_dataset = representative
    return converter.convert()


def write(path, model_bytes, dtype):
    with open(path, "wb") as f:
        f.write(with_metadata(model_bytes, metadata(dtype)))


def make(args):
    """Trains and converts every step; returns the record (recipe.json's content)."""
    keras.utils.set_random_seed(args.seed)
    tf.config.experimental.enable_op_determinism()
    train_x, train_y = fashion_data.load("train")
    test_x, test_y = fashion_data.load("t10k")
    nhwc = lambda images: (images.astype(np.float32) / 255.0)[..., None]
    train_x, test_x = nhwc(train_x), nhwc(test_x)
    if args.train_limit:
        train_x, train_y = train_x[:args.train_limit], train_y[:args.train_limit]
    os.makedirs(args.out, exist_ok=True)
    path = lambda step: os.path.join(args.out, FILES[step])
    record = {"seed": args.seed, "target_sparsity": TARGET_SPARSITY,
              "epochs": {"float": args.float_epochs, "prune": args.prune_epochs, "qat": args.qat_epochs},
              "versions": {"tensorflow": tf.__version__, "tf_keras": tf_keras.__version__,
                           "tensorflow_model_optimization": tfmot.__version__, "python": platform.python_version()},
              "seconds": {}, "keras_accuracy": {}}

    model = build_model()
    record["parameters"] = int(model.count_params())
    record["seconds"]["float"] = fit(model, train_x, train_y, args.float_epochs, 1e-3, args.seed)
    record["keras_accuracy"]["float"] = keras_accuracy(model, test_x, test_y)
    # Converted now: pruning wraps these very layers and changes their weights.
    rng = np.random.default_rng(args.seed)
    calibration = train_x[rng.choice(len(train_x), 1000, replace=False)]
    write(path("float"), convert(model), "float32")
    write(path("ptq_int8"), convert(model, int8_calibration=calibration), "int8")

    steps = int(np.ceil(len(train_x) / 128))
    schedule = tfmot.sparsity.keras.PolynomialDecay(
        initial_sparsity=0.0, final_sparsity=TARGET_SPARSITY, begin_step=0,
        end_step=steps * max(1, args.prune_epochs - 1), frequency=max(1, steps // 10))
    pruning = tfmot.sparsity.keras.prune_low_magnitude(model, pruning_schedule=schedule)
    record["seconds"]["prune"] = fit(pruning, train_x, train_y, args.prune_epochs, 3e-4, args.seed,
                                     [tfmot.sparsity.keras.UpdatePruningStep()])
    pruned = tfmot.sparsity.keras.strip_pruning(pruning)
    record["keras_accuracy"]["pruned"] = keras_accuracy(pruned, test_x, test_y)
    record["pointwise_zero_share"] = pointwise_zero_share(pruned)
    write(path("pruned"), convert(pruned), "float32")
    write(path("pruned_sparse"), convert(pruned, sparse=True), "float32")

    annotated = tfmot.quantization.keras.quantize_annotate_model(pruned)
    qat = tfmot.quantization.keras.quantize_apply(
        annotated, tfmot.experimental.combine.Default8BitPrunePreserveQuantizeScheme())
    record["seconds"]["qat"] = fit(qat, train_x, train_y, args.qat_epochs, 1e-4, args.seed)
    record["keras_accuracy"]["pruned_qat"] = keras_accuracy(qat, test_x, test_y)
    write(path("pruned_qat_int8"), convert(qat, qat=True), "int8")

    record["files"] = {}
    for step, name in FILES.items():
        with open(path(step), "rb") as f:
            data = f.read()
        record["files"][step] = {"file": name, "bytes": len(data),
                                 "litert_accuracy": tflite_accuracy(path(step), test_x, test_y)}
        print(f"{name}: {len(data)} bytes, test accuracy {record['files'][step]['litert_accuracy']:.4f}", flush=True)
    return record


def check(record, reference_path, tolerance):
    """The steps whose LiteRT accuracy is more than `tolerance` from the reference's."""
    with open(reference_path) as f:
        reference = json.load(f)
    return {step: (entry["litert_accuracy"], reference["files"][step]["litert_accuracy"])
            for step, entry in record["files"].items()
            if abs(entry["litert_accuracy"] - reference["files"][step]["litert_accuracy"]) > tolerance}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="notebooks/models/recipe")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--float-epochs", type=int, default=4)
    parser.add_argument("--prune-epochs", type=int, default=3)
    parser.add_argument("--qat-epochs", type=int, default=1)
    parser.add_argument("--train-limit", type=int, default=0, help="train on the first N images only (a quick try)")
    parser.add_argument("--check", default=None, help="an earlier recipe.json to compare accuracies with")
    parser.add_argument("--tolerance", type=float, default=0.01)
    args = parser.parse_args()
    start = time.time()
    record = make(args)
    record["seconds"]["total"] = time.time() - start
    with open(os.path.join(args.out, "recipe.json"), "w") as f:
        json.dump(record, f, indent=1)
    print(f"wrote {args.out}/recipe.json ({record['seconds']['total']:.0f} s in all)")
    if args.check:
        differ = check(record, args.check, args.tolerance)
        for step, (now, then) in differ.items():
            print(f"{FILES[step]}: accuracy {now:.4f}, reference {then:.4f}: differs by more than {args.tolerance}")
        raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
