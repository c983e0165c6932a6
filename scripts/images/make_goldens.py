#!/usr/bin/env python3
"""Generates the images Benchbook's image tests use and Pillow/NumPy reference outputs.

The test images are made here (gradients, checkerboards, text-like edges, odd sizes,
alpha), saved as PNG and JPEG, and every operation the Swift library mirrors is run on
them with Pillow and NumPy. Outputs are raw little-endian arrays plus manifest.json,
which the Swift golden tests (Tests/BenchbookImageTests) read.

    .venv/bin/python scripts/images/make_goldens.py [--out .build/goldens/images]
"""
import argparse
import io
import json
import struct
import zlib
from pathlib import Path

import numpy as np
import PIL
from PIL import Image, ImageDraw, ImageOps

FILTERS = {
    "nearest": Image.Resampling.NEAREST,
    "box": Image.Resampling.BOX,
    "bilinear": Image.Resampling.BILINEAR,
    "hamming": Image.Resampling.HAMMING,
    "bicubic": Image.Resampling.BICUBIC,
    "lanczos": Image.Resampling.LANCZOS,
}
FORMAT_OF_MODE = {"L": "gray", "LA": "grayAlpha", "RGB": "rgb", "RGBA": "rgba"}


def make_sources():
    """The synthetic test images, by name."""
    rng = np.random.default_rng(4)
    images = {}
    y, x = np.mgrid[0:48, 0:64]
    images["gradient"] = Image.fromarray(np.stack([x * 4, y * 5, (x + y) * 2], -1).astype(np.uint8), "RGB")
    y, x = np.mgrid[0:29, 0:37]
    board = ((x // 4 + y // 4) % 2).astype(bool)
    checker = np.zeros((29, 37, 3), np.uint8)
    checker[board] = (250, 20, 120)
    checker[~board] = (10, 200, 40)
    images["checker"] = Image.fromarray(checker, "RGB")
    text = Image.new("L", (53, 31), 235)
    draw = ImageDraw.Draw(text)
    draw.text((3, 2), "Ab3 kx", fill=10)
    draw.line((0, 30, 52, 14), fill=0, width=1)
    draw.rectangle((30, 18, 44, 27), outline=40)
    images["text"] = text
    y, x = np.mgrid[0:33, 0:41]
    rgba = np.zeros((33, 41, 4), np.uint8)
    rgba[..., 0] = x * 6
    rgba[..., 1] = 255 - y * 7
    rgba[..., 2] = 128
    radius = np.hypot(x - 20, y - 16)
    rgba[..., 3] = np.clip(255 - radius * 14, 0, 255).astype(np.uint8)
    images["alpha"] = Image.fromarray(rgba, "RGBA")
    images["noise"] = Image.fromarray(rng.integers(0, 256, (17, 23, 3), dtype=np.uint8), "RGB")
    la = np.stack([rng.integers(0, 256, (19, 13)), np.tile(np.linspace(0, 255, 13), (19, 1))], -1)
    images["grayalpha"] = Image.fromarray(la.astype(np.uint8), "LA")
    # An item on a white background, for auto-crop and contrast.
    item = np.full((40, 50, 3), 250, np.uint8)
    item[12:31, 17:38] = (90, 60, 30)
    item[20:24, 5:9] = (245, 245, 245)  # below the threshold: background
    images["item"] = Image.fromarray(item, "RGB")
    lowcontrast = (np.asarray(images["gradient"]) // 3 + 60).astype(np.uint8)
    images["lowcontrast"] = Image.fromarray(lowcontrast, "RGB")
    return images


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png16(array, color_type):
    """A 16-bit PNG written by hand (Pillow cannot write 16-bit colour)."""
    height, width = array.shape[:2]
    rows = b"".join(b"\x00" + array[row].astype(">u2").tobytes() for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 16, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(rows)) + png_chunk(b"IEND", b"")


class Writer:
    def __init__(self, out):
        self.out = out
        self.cases = []

    def raw(self, name, array):
        path = self.out / f"{name}.raw"
        np.ascontiguousarray(array).tofile(path)
        return path.name

    def image(self, name, image):
        array = np.asarray(image)
        return {"file": self.raw(name, array), "width": image.width, "height": image.height,
                "format": FORMAT_OF_MODE[image.mode]}

    def case(self, **fields):
        self.cases.append(fields)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=".build/goldens/images")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    w = Writer(out)
    sources = make_sources()

    # Inputs as PNG files (what Swift decodes) plus their pixels.
    for name, image in sources.items():
        image.save(out / f"{name}.png")
        w.case(kind="decode", name=f"png-{name}", input=f"{name}.png", expected=w.image(f"decoded-{name}", image))

    # PNG variants: palette (with and without transparency), 1-bit, interlaced, 16-bit.
    palette = sources["gradient"].quantize(colors=50)
    palette.save(out / "palette.png")
    w.case(kind="decode", name="png-palette", input="palette.png", expected=w.image("decoded-palette", palette.convert("RGB")))
    palette_alpha = sources["checker"].quantize(colors=4)
    palette_alpha.save(out / "palette-trns.png", transparency=0)
    reference = Image.open(out / "palette-trns.png").convert("RGBA")
    w.case(kind="decode", name="png-palette-trns", input="palette-trns.png", expected=w.image("decoded-palette-trns", reference))
    bilevel = sources["text"].point(lambda v: 255 if v > 128 else 0).convert("1")
    bilevel.save(out / "bilevel.png")
    w.case(kind="decode", name="png-1bit", input="bilevel.png", expected=w.image("decoded-bilevel", bilevel.convert("L")))
    sources["noise"].save(out / "interlaced.png", interlace=1)
    w.case(kind="decode", name="png-interlaced", input="interlaced.png", expected=w.image("decoded-interlaced", sources["noise"]))
    rng = np.random.default_rng(16)
    deep_rgb = rng.integers(0, 65536, (9, 11, 3), dtype=np.uint16)
    (out / "rgb16.png").write_bytes(png16(deep_rgb, 2))
    assert np.array_equal(np.asarray(Image.open(out / "rgb16.png")), (deep_rgb >> 8).astype(np.uint8))
    w.case(kind="decode", name="png-rgb16", input="rgb16.png",
           expected={"file": w.raw("decoded-rgb16", (deep_rgb >> 8).astype(np.uint8)), "width": 11, "height": 9, "format": "rgb"})
    deep_rgba = rng.integers(0, 65536, (7, 5, 4), dtype=np.uint16)
    (out / "rgba16.png").write_bytes(png16(deep_rgba, 6))
    w.case(kind="decode", name="png-rgba16", input="rgba16.png",
           expected={"file": w.raw("decoded-rgba16", (deep_rgba >> 8).astype(np.uint8)), "width": 5, "height": 7, "format": "rgba"})
    deep_gray = rng.integers(0, 65536, (6, 8), dtype=np.uint16)
    (out / "gray16.png").write_bytes(png16(deep_gray, 0))
    w.case(kind="decode", name="png-gray16", input="gray16.png",
           expected={"file": w.raw("decoded-gray16", (deep_gray >> 8).astype(np.uint8)), "width": 8, "height": 6, "format": "gray"})

    # JPEG: full decode, Pillow draft decode, and Exif orientation.
    photo_y, photo_x = np.mgrid[0:203, 0:301]
    photo = np.stack([(photo_x * 0.8) % 256, (photo_y * 1.2) % 256, ((photo_x + photo_y) * 0.5) % 256], -1)
    photo = (photo + np.random.default_rng(8).normal(0, 12, photo.shape)).clip(0, 255).astype(np.uint8)
    Image.fromarray(photo, "RGB").save(out / "photo.jpg", quality=90)
    w.case(kind="decode", name="jpeg-full", input="photo.jpg", expected=w.image("decoded-photo", Image.open(out / "photo.jpg").convert("RGB")))
    for target in [(150, 100), (75, 50), (37, 25), (300, 10)]:
        image = Image.open(out / "photo.jpg")
        image.draft("RGB", target)
        image = image.convert("RGB")
        w.case(kind="decode", name=f"jpeg-draft-{target[0]}x{target[1]}", input="photo.jpg", draft=list(target),
               expected=w.image(f"decoded-photo-draft-{target[0]}x{target[1]}", image))
    Image.fromarray(photo[:60, :90], "RGB").save(out / "progressive.jpg", quality=80, progressive=True)
    w.case(kind="decode", name="jpeg-progressive", input="progressive.jpg",
           expected=w.image("decoded-progressive", Image.open(out / "progressive.jpg").convert("RGB")))
    Image.fromarray(photo[:30, :45], "RGB").convert("CMYK").save(out / "cmyk.jpg", quality=95)
    w.case(kind="decode", name="jpeg-cmyk", input="cmyk.jpg", tolerance=1,
           expected=w.image("decoded-cmyk", Image.open(out / "cmyk.jpg").convert("RGB")))
    sources["text"].save(out / "gray.jpg", quality=85)
    w.case(kind="decode", name="jpeg-gray", input="gray.jpg", expected=w.image("decoded-gray-jpeg", Image.open(out / "gray.jpg")))
    for orientation in range(1, 9):
        exif = Image.Exif()
        exif[0x0112] = orientation
        Image.fromarray(photo[:40, :60], "RGB").save(out / f"orientation-{orientation}.jpg", quality=90, exif=exif)
        upright = ImageOps.exif_transpose(Image.open(out / f"orientation-{orientation}.jpg")).convert("RGB")
        w.case(kind="decode", name=f"jpeg-orientation-{orientation}", input=f"orientation-{orientation}.jpg",
               expected=w.image(f"decoded-orientation-{orientation}", upright))

    # Resize: every filter, shrinking, enlarging, odd sizes, one axis, to 1x1.
    for name in ["gradient", "checker", "text", "alpha", "noise", "grayalpha"]:
        image = sources[name]
        wd, ht = image.size
        sizes = [(wd // 3, ht // 2), (wd * 2 + 1, ht + 7), (17, 40), (1, 1), (wd, ht // 5 + 1), (wd // 4 + 1, ht)]
        for filter_name, resample in FILTERS.items():
            for size in sizes:
                result = image.resize(size, resample)
                label = f"resize-{name}-{filter_name}-{size[0]}x{size[1]}"
                w.case(kind="resize", name=label, input=f"{name}.png", filter=filter_name,
                       width=size[0], height=size[1], expected=w.image(label, result))

    # Large reductions: wide kernels (support grows with the reduction factor).
    large_y, large_x = np.mgrid[0:300, 0:401]
    large = np.stack([(large_x * 0.6) % 256, (large_y * 0.9) % 256, ((large_x ^ large_y) & 255)], -1)
    large = (large + np.random.default_rng(40).normal(0, 20, large.shape)).clip(0, 255).astype(np.uint8)
    Image.fromarray(large, "RGB").save(out / "large.png")
    for filter_name, resample in FILTERS.items():
        for size in [(23, 17), (224, 168), (7, 300)]:
            label = f"resize-large-{filter_name}-{size[0]}x{size[1]}"
            w.case(kind="resize", name=label, input="large.png", filter=filter_name, width=size[0], height=size[1],
                   expected=w.image(label, Image.fromarray(large, "RGB").resize(size, resample)))

    # Pillow's reducing rules: Image.reduce, and resize with reducing_gap.
    for name in ["gradient", "noise", "alpha", "text"]:
        image = sources[name]
        for factor in [(2, 2), (3, 2), (5, 7)]:
            label = f"reduce-{name}-{factor[0]}x{factor[1]}"
            w.case(kind="reduce", name=label, input=f"{name}.png", factorX=factor[0], factorY=factor[1],
                   expected=w.image(label, image.reduce(factor)))
        for gap in [1.5, 2.0, 3.0]:
            for filter_name in ["bilinear", "bicubic", "lanczos", "box"]:
                size = (max(1, image.width // 7), max(1, image.height // 5))
                label = f"resize-gap-{name}-{filter_name}-{gap}"
                w.case(kind="resize", name=label, input=f"{name}.png", filter=filter_name, reducingGap=gap,
                       width=size[0], height=size[1], expected=w.image(label, image.resize(size, FILTERS[filter_name], reducing_gap=gap)))

    # Pillow's thumbnail: aspect-preserving size, bicubic, reducing_gap 2.
    for name in ["gradient", "checker", "alpha", "text", "noise"]:
        for bounds in [(20, 20), (7, 30), (30, 7), (1, 1), (500, 10)]:
            image = sources[name].copy()
            image.thumbnail(bounds)
            label = f"thumbnail-{name}-{bounds[0]}x{bounds[1]}"
            w.case(kind="thumbnail", name=label, input=f"{name}.png", bounds=list(bounds), expected=w.image(label, image))

    # Colour operations.
    for name in ["gradient", "checker", "noise", "alpha"]:
        gray = sources[name].convert("LA" if name == "alpha" else "L")
        w.case(kind="grayscale", name=f"gray-{name}", input=f"{name}.png", weights="bt601", tolerance=0,
               expected=w.image(f"gray-{name}", gray))
        rgb = np.asarray(sources[name].convert("RGB")).astype(np.float64)
        bt709 = np.clip(np.rint(rgb @ np.array([0.2126, 0.7152, 0.0722])), 0, 255).astype(np.uint8)
        w.case(kind="grayscale", name=f"gray709-{name}", input=f"{name}.png", weights="bt709", tolerance=1, alpha=name == "alpha",
               expected={"file": w.raw(f"gray709-{name}", bt709), "width": sources[name].width,
                         "height": sources[name].height, "format": "gray"})
    for name in ["gradient", "text", "noise", "lowcontrast", "item"]:
        image = sources[name]
        w.case(kind="invert", name=f"invert-{name}", input=f"{name}.png", expected=w.image(f"invert-{name}", ImageOps.invert(image)))
        w.case(kind="equalize", name=f"equalize-{name}", input=f"{name}.png", expected=w.image(f"equalize-{name}", ImageOps.equalize(image)))
        for cutoff in [0, 2, 10.5]:
            result = ImageOps.autocontrast(image, cutoff=cutoff)
            w.case(kind="autocontrast", name=f"autocontrast-{name}-{cutoff}", input=f"{name}.png", cutoff=cutoff,
                   expected=w.image(f"autocontrast-{name}-{cutoff}", result))
    for background in [(255, 255, 255), (200, 30, 90)]:
        flat = Image.new("RGB", sources["alpha"].size, background)
        flat.paste(sources["alpha"], mask=sources["alpha"].getchannel("A"))
        label = "flatten-alpha-" + "-".join(map(str, background))
        w.case(kind="flatten", name=label, input="alpha.png", background=list(background), expected=w.image(label, flat))

    # Geometry: centre crop as torchvision, auto-crop from NumPy.
    for name, size in [("gradient", (31, 20)), ("checker", (36, 29)), ("noise", (22, 16)), ("text", (10, 31))]:
        image = sources[name]
        left = int(round((image.width - size[0]) / 2.0))
        top = int(round((image.height - size[1]) / 2.0))
        crop = image.crop((left, top, left + size[0], top + size[1]))
        w.case(kind="centercrop", name=f"centercrop-{name}-{size[0]}x{size[1]}", input=f"{name}.png",
               width=size[0], height=size[1], expected=w.image(f"centercrop-{name}-{size[0]}x{size[1]}", crop))
    item = np.asarray(sources["item"]).astype(int)
    mask = np.abs(item - item[0, 0]).max(axis=2) > 16
    ys, xs = np.nonzero(mask)
    for margin in [0, 3, 30]:
        box = [max(0, xs.min() - margin), max(0, ys.min() - margin),
               min(item.shape[1], xs.max() + 1 + margin), min(item.shape[0], ys.max() + 1 + margin)]
        crop = sources["item"].crop(tuple(int(v) for v in box))
        w.case(kind="autocrop", name=f"autocrop-item-{margin}", input="item.png", threshold=16, margin=margin,
               box=[int(v) for v in box], expected=w.image(f"autocrop-item-{margin}", crop))

    # Normalised tensors (float32 NumPy arithmetic).
    presets = {
        "imageNet": (1 / 255, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
        "unit": (1 / 255, [0.0], [1.0]),
        "symmetric": (1 / 127.5, [1.0], [1.0]),
    }
    for name in ["gradient", "noise", "text"]:
        array = np.asarray(sources[name]).astype(np.float32)
        if array.ndim == 2:
            array = array[..., None]
        for preset, (scale, mean, std) in presets.items():
            if len(mean) == 3 and array.shape[2] != 3:
                continue
            for layout in ["nchw", "nhwc"]:
                for order in ["rgb", "bgr"]:
                    channels = array[..., ::-1] if order == "bgr" and array.shape[2] == 3 else array
                    if scale == 1 / 255:
                        scaled = channels / np.float32(255)
                    else:
                        scaled = channels / np.float32(127.5)
                    values = ((scaled - np.array(mean, np.float32)) / np.array(std, np.float32)).astype(np.float32)
                    if layout == "nchw":
                        values = values.transpose(2, 0, 1)
                    label = f"tensor-{name}-{preset}-{layout}-{order}"
                    w.case(kind="tensor", name=label, input=f"{name}.png", preset=preset, layout=layout, order=order,
                           shape=[1, *values.shape], expected={"file": w.raw(label, values[None].astype("<f4"))})

    # Softmax, log-softmax, top-k (NumPy, stable formulation, ties: lower index first).
    logit_sets = {
        "small": np.array([1.0, 2.0, 3.0, 0.5, -1.0], np.float32),
        "huge": np.array([1e4, -1e4, 0.0, 1e4 - 1, 5.0, -1e4], np.float32),
        "ties": np.array([2.0, 7.0, 7.0, -3.0, 7.0, 1.0, 2.0], np.float32),
        "imagenet": np.random.default_rng(1000).normal(0, 4, 1000).astype(np.float32),
        "batch": np.random.default_rng(7).normal(0, 30, (3, 10)).astype(np.float32),
    }
    for name, logits in logit_sets.items():
        shifted = logits - logits.max(axis=-1, keepdims=True)
        exps = np.exp(shifted)
        softmax = (exps / exps.sum(axis=-1, keepdims=True)).astype(np.float32)
        log_softmax = (shifted - np.log(exps.sum(axis=-1, keepdims=True))).astype(np.float32)
        k = min(5, logits.shape[-1])
        top = np.argsort(-softmax, axis=-1, kind="stable")[..., :k]
        w.case(kind="softmax", name=f"softmax-{name}", shape=list(logits.shape), k=k,
               logits=w.raw(f"logits-{name}", logits.astype("<f4")),
               softmax=w.raw(f"softmax-{name}", softmax.astype("<f4")),
               logSoftmax=w.raw(f"logsoftmax-{name}", log_softmax.astype("<f4")),
               topIndices=top.astype(int).tolist())

    (out / "manifest.json").write_text(json.dumps({"pillow": PIL.__version__,
                                                   "numpy": np.__version__, "cases": w.cases}, indent=1))
    print(f"wrote {len(w.cases)} golden cases to {out}")


if __name__ == "__main__":
    main()
