"""Reads the Fashion-MNIST IDX files installed by Debian's dataset-fashion-mnist.

Used by the model scripts (Debian python3 with torch, and the project venv with
TensorFlow); needs only numpy.
"""
import gzip
import os

import numpy as np

DATASET_DIR = os.environ.get("BENCHBOOK_FASHION_MNIST", "/usr/share/datasets/fashion-mnist")

LABELS = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
          "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]


def _read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], "big")
    dims = magic & 0xFF
    shape = [int.from_bytes(data[4 + 4 * i: 8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def load(split):
    """Returns (images uint8 [N,28,28], labels int64 [N]) for split 'train' or 't10k'."""
    images = _read_idx(os.path.join(DATASET_DIR, f"{split}-images-idx3-ubyte.gz"))
    labels = _read_idx(os.path.join(DATASET_DIR, f"{split}-labels-idx1-ubyte.gz"))
    return images, labels.astype(np.int64)


def as_float(images):
    """uint8 [N,28,28] -> float32 [N,1,28,28] in [0,1] (the course models' input)."""
    return (images.astype(np.float32) / 255.0)[:, None, :, :]
