"""Adds a `benchbook.json` metadata buffer to a TensorFlow Lite FlatBuffer: the same JSON the
torch files carry as an extra file (inputs, outputs, class names, preprocessing, a note).
Benchbook reads it with LiteRtGetModelMetadata, so `Model.labels` works for .tflite files too.

    .venv/bin/python scripts/models/tflite_metadata.py FILE.tflite METADATA.json   # in place
"""
import json
import sys

import numpy as np
from tensorflow.lite.python import schema_py_generated as schema
from tensorflow.lite.tools import flatbuffer_utils

NAME = "benchbook.json"


def with_metadata(model_bytes, text):
    """The model with its `benchbook.json` buffer set to `text` (replacing an older one)."""
    model = flatbuffer_utils.convert_bytearray_to_object(bytearray(model_bytes))
    buffer = schema.BufferT()
    buffer.data = np.frombuffer(text.encode(), dtype=np.uint8)
    entries = [m for m in (model.metadata or []) if m.name not in (NAME, NAME.encode())]
    model.buffers.append(buffer)
    entry = schema.MetadataT()
    entry.name = NAME
    entry.buffer = len(model.buffers) - 1
    model.metadata = entries + [entry]
    return bytes(flatbuffer_utils.convert_object_to_bytearray(model))


def main():
    path, metadata_path = sys.argv[1], sys.argv[2]
    with open(metadata_path) as f:
        text = json.dumps(json.load(f))
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(with_metadata(data, text))
    print(f"{path}: {NAME} set ({len(text)} bytes)")


if __name__ == "__main__":
    main()
