"""What fine-tuning buys: the recipe's float file pruned to 60 % in one shot, without training.

Zeros the 60 % smallest-magnitude weights of every convolution and dense layer of
recipe_float.tflite (weights as the converter stored them, batch norm folded in) and measures
the test accuracy with Python's LiteRT, as make_recipe_models.py does for its files:

    PYTHONPATH=scripts/models .venv/bin/python scripts/models/recipe_oneshot_prune.py

(Measured: 10.00 %, chance for ten classes; the fine-tuned pruned file: 87.91 %.)
"""
import os
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
from tensorflow.lite.python import schema_py_generated as schema
from tensorflow.lite.tools import flatbuffer_utils

import fashion_data
from make_fashion_tflite import tflite_accuracy

WEIGHTED = {schema.BuiltinOperator.CONV_2D, schema.BuiltinOperator.DEPTHWISE_CONV_2D,
            schema.BuiltinOperator.FULLY_CONNECTED}


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "notebooks/models/recipe/recipe_float.tflite"
    model = flatbuffer_utils.read_model(source)
    graph = model.subgraphs[0]
    for op in graph.operators:
        code = model.operatorCodes[op.opcodeIndex]
        if max(code.builtinCode, code.deprecatedBuiltinCode) in WEIGHTED:
            buffer = model.buffers[graph.tensors[op.inputs[1]].buffer]
            weights = np.frombuffer(bytes(buffer.data), dtype=np.float32).copy()
            weights[np.abs(weights) < np.quantile(np.abs(weights), 0.6)] = 0
            buffer.data = np.frombuffer(weights.tobytes(), dtype=np.uint8)
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "oneshot.tflite")
        flatbuffer_utils.write_model(model, path)
        images, labels = fashion_data.load("t10k")
        accuracy = tflite_accuracy(path, (images.astype(np.float32) / 255.0)[..., None], labels)
    print(f"{os.path.basename(source)} pruned to 60 % in one shot, no fine-tuning: test accuracy {accuracy:.4f}")


if __name__ == "__main__":
    main()
