"""Python-side checks for the image goldens (scripts/images/make_goldens.py).

These check the facts the Swift library relies on, against Pillow itself, so a Pillow
upgrade that changes them is caught here rather than as a puzzling Swift failure.
"""
import json

import numpy as np
from PIL import Image

from benchbook_kit import ROOT

GOLDENS = ROOT / ".build" / "goldens" / "images"


def manifest():
    return json.loads((GOLDENS / "manifest.json").read_text())


def test_goldens_cover_every_filter_and_kind():
    cases = manifest()["cases"]
    filters = {c["filter"] for c in cases if c["kind"] == "resize"}
    assert filters == {"nearest", "box", "bilinear", "hamming", "bicubic", "lanczos"}
    kinds = {c["kind"] for c in cases}
    assert {"decode", "resize", "grayscale", "invert", "equalize", "autocontrast", "flatten",
            "centercrop", "autocrop", "tensor", "softmax"} <= kinds
    for case in cases:
        for key in ("expected", "logits"):
            entry = case.get(key)
            name = entry["file"] if isinstance(entry, dict) and "file" in entry else entry
            if isinstance(name, str):
                assert (GOLDENS / name).is_file(), name


def test_pillow_grayscale_is_the_fixed_point_bt601_formula():
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, (256, 256, 3), dtype=np.uint8)
    pillow = np.asarray(Image.fromarray(rgb, "RGB").convert("L")).astype(np.uint32)
    r, g, b = (rgb[..., i].astype(np.uint32) for i in range(3))
    formula = (r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16
    assert np.array_equal(pillow, formula)


def test_jpeg_draft_picks_power_of_two_scale():
    image = Image.open(GOLDENS / "photo.jpg")
    image.draft("RGB", (75, 50))
    assert image.size == (76, 51)  # 301x203 / 4, rounded up
