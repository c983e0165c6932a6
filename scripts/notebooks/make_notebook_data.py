"""Makes the images the course notebooks read, from the Fashion-MNIST test split.

    PYTHONPATH=python .venv/bin/python scripts/notebooks/make_notebook_data.py            # everything missing
    PYTHONPATH=python .venv/bin/python scripts/notebooks/make_notebook_data.py --force    # everything again

Seeded and deterministic (NumPy's PCG64 with fixed seeds, Pillow's encoders): the same
files on every machine with the same Pillow. Two groups:

Committed, small (notebooks/data/):
  sample_ankle_boot.png  Fashion-MNIST test image 0 (an ankle boot), 28x28 gray: the bundled
                         sample the classifier notebook starts with, so a first run needs nothing else.
  product_photo.jpg      a "product photo" made from test image 9 (a sneaker) by the photo-style
                         transform below, 240x180 colour JPEG stored on its side with Exif
                         orientation 6 (rotate 90 degrees clockwise to view), as phone cameras do.
  bag_cutout.png         test image 18 (a bag) as a dark item on a transparent background (RGBA PNG),
                         as an app's product cut-out would be.

Generated at set-up, not committed (notebooks/data/photo-style/, gitignored):
  The photo-style evaluation set: the first 100 test images of each class (1,000 images), each
  turned into a synthetic product photo by `photo_style` below, saved as JPEG, with labels.csv
  (file, test index, label) and README.md recording the parameters.

The photo-style transform (per image, from a generator seeded with 20261129 + test index):
  1. upscale the 28x28 item (bicubic) to a side of 35-75 % of a 128x128 canvas;
  2. invert it to a dark item on a light background: the item's brightness becomes its
     opacity, its colour a random dark tint (each channel 20-110);
  3. place it at a random position on a light textured background (a random base colour
     with each channel 185-245, plus a smooth random texture of +-12 and fine grain);
  4. add Gaussian sensor noise (sigma 2-7 per pixel and channel);
  5. save as JPEG with a random quality 45-90.
This is synthetic: it imitates a few ways photos differ from Fashion-MNIST (dark on light,
small, off-centre, coloured, noisy, compressed). It is not a set of real photos.

Copied at set-up, not committed (notebooks/data/photos/, gitignored): the ImageNet photo set,
real photos with known content from the matplotlib and scikit-image wheels (extracted by
scripts/models/fetch_sources.py; list and licences in models/generated/sources/SOURCES.json),
and two made from them:
  chelsea_on_its_side.jpg  chelsea.png stored turned a quarter (as a phone sensor writes an
                           upright shot) with Exif orientation 6, JPEG quality 92.
  coffee_cutout.png        coffee.png cut out with an elliptical alpha mask around the cup
                           (RGBA); transparent pixels store black, as many cut-out tools leave them.
"""
import argparse
import csv
import os
import sys

import numpy as np
from PIL import Image

from benchbook_kit import ROOT

sys.path.insert(0, os.path.join(ROOT, "scripts", "models"))
import fashion_data  # noqa: E402  (the project's IDX reader)

DATA = os.path.join(ROOT, "notebooks", "data")
PHOTO_SET = os.path.join(DATA, "photo-style")
PHOTOS = os.path.join(DATA, "photos")
SOURCE_IMAGES = os.path.join(ROOT, "models", "generated", "sources", "images")
sys.path.insert(0, os.path.join(ROOT, "scripts", "models"))
import imagenet_photos  # noqa: E402  (the photo list shared with the model scripts)
CANVAS = 128
PER_CLASS = 100
SEED = 20261129


def photo_style(item, rng, canvas=CANVAS):
    """A 28x28 uint8 light-on-black item -> (RGB uint8 canvas x canvas, JPEG quality)."""
    side = int(round(canvas * rng.uniform(0.35, 0.75)))
    alpha = np.asarray(Image.fromarray(item).resize((side, side), Image.BICUBIC), dtype=np.float32) / 255.0
    tint = rng.uniform(20, 110, size=3)
    base = rng.uniform(185, 245, size=3)
    coarse = rng.uniform(-12, 12, size=(6, 6)).astype(np.float32)
    texture = np.asarray(Image.fromarray(coarse, mode="F").resize((canvas, canvas), Image.BILINEAR))
    grain = rng.normal(0, 3, size=(canvas, canvas)).astype(np.float32)
    background = base[None, None, :] + (texture + grain)[:, :, None]
    x, y = rng.integers(0, canvas - side + 1, size=2)
    photo = background.copy()
    region = photo[y:y + side, x:x + side, :]
    a = alpha[:, :, None]
    photo[y:y + side, x:x + side, :] = region * (1 - a) + tint[None, None, :] * a
    photo += rng.normal(0, rng.uniform(2, 7), size=photo.shape)
    quality = int(rng.integers(45, 91))
    return np.clip(np.rint(photo), 0, 255).astype(np.uint8), quality


def make_committed(images, force):
    os.makedirs(DATA, exist_ok=True)
    sample = os.path.join(DATA, "sample_ankle_boot.png")
    if force or not os.path.exists(sample):
        Image.fromarray(images[0]).save(sample, optimize=True)
    photo = os.path.join(DATA, "product_photo.jpg")
    if force or not os.path.exists(photo):
        rng = np.random.default_rng(SEED + 9)
        pixels, _ = photo_style(images[9], rng, canvas=180)
        upright = Image.fromarray(pixels).resize((240, 180), Image.BICUBIC)   # a landscape photo
        stored = upright.rotate(90, expand=True)   # on its side, as the sensor wrote it
        exif = Image.Exif()
        exif[0x0112] = 6                           # orientation: rotate 90 degrees clockwise to view
        stored.save(photo, quality=85, exif=exif.tobytes())
    cutout = os.path.join(DATA, "bag_cutout.png")
    if force or not os.path.exists(cutout):
        item = images[18]
        side = 96
        alpha = np.asarray(Image.fromarray(item).resize((side, side), Image.BICUBIC))
        rgba = np.zeros((side, side, 4), dtype=np.uint8)
        rgba[:, :, 0], rgba[:, :, 1], rgba[:, :, 2] = 92, 58, 40   # a brown leather bag
        rgba[:, :, 3] = alpha
        Image.fromarray(rgba, mode="RGBA").save(cutout, optimize=True)


def make_photo_set(images, labels, force):
    done = os.path.join(PHOTO_SET, "labels.csv")
    if not force and os.path.exists(done):
        return
    os.makedirs(PHOTO_SET, exist_ok=True)
    chosen = []
    for label in range(10):
        chosen += [int(i) for i in np.flatnonzero(labels == label)[:PER_CLASS]]
    chosen.sort()
    rows = []
    for index in chosen:
        rng = np.random.default_rng(SEED + index)
        pixels, quality = photo_style(images[index], rng)
        name = f"{index:05d}.jpg"
        Image.fromarray(pixels).save(os.path.join(PHOTO_SET, name), quality=quality)
        rows.append((name, index, int(labels[index])))
    with open(os.path.join(PHOTO_SET, "README.md"), "w") as f:
        f.write("# Photo-style evaluation set (synthetic, generated)\n\n"
                f"Made by scripts/notebooks/make_notebook_data.py from the first {PER_CLASS} Fashion-MNIST\n"
                f"test images of each class ({len(rows)} images), seed {SEED} + test index; see the\n"
                "script's docstring for the transform. Not real photos.\n")
    with open(done + ".tmp", "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["file", "test_index", "label"])
        writer.writerows(rows)
    os.replace(done + ".tmp", done)


def make_photos(force):
    """The ImageNet photo set and its two derived files (see the docstring)."""
    os.makedirs(PHOTOS, exist_ok=True)
    for name, _, _ in imagenet_photos.PHOTOS:
        target = os.path.join(PHOTOS, name)
        if force or not os.path.exists(target):
            with open(os.path.join(SOURCE_IMAGES, name), "rb") as source, open(target, "wb") as out:
                out.write(source.read())
    rotated = os.path.join(PHOTOS, "chelsea_on_its_side.jpg")
    if force or not os.path.exists(rotated):
        stored = Image.open(os.path.join(SOURCE_IMAGES, "chelsea.png")).convert("RGB").rotate(90, expand=True)
        exif = Image.Exif()
        exif[0x0112] = 6                           # orientation: rotate 90 degrees clockwise to view
        stored.save(rotated, quality=92, exif=exif.tobytes())
    cutout = os.path.join(PHOTOS, "coffee_cutout.png")
    if force or not os.path.exists(cutout):
        rgb = np.asarray(Image.open(os.path.join(SOURCE_IMAGES, "coffee.png")).convert("RGB"))
        height, width = rgb.shape[:2]
        y, x = np.mgrid[0:height, 0:width]
        # The cup and saucer sit in the middle of the frame, a little below centre.
        inside = ((x - width * 0.5) / (width * 0.42)) ** 2 + ((y - height * 0.55) / (height * 0.42)) ** 2 <= 1
        rgba = np.zeros((height, width, 4), dtype=np.uint8)
        rgba[inside, :3] = rgb[inside]
        rgba[inside, 3] = 255
        Image.fromarray(rgba, mode="RGBA").save(cutout, optimize=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--force", action="store_true", help="make every file again")
    args = parser.parse_args()
    images, labels = fashion_data.load("t10k")
    make_committed(images, args.force)
    make_photo_set(images, labels, args.force)
    make_photos(args.force)
    print(f"notebook data in {os.path.relpath(DATA, ROOT)}")


if __name__ == "__main__":
    main()
