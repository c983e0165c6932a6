"""The ImageNet photo set and the preprocessing both model scripts share (Pillow + NumPy).

Photos with known content, from the wheels fetch_sources.py extracts (never used for
calibration): what each shows, and the ImageNet classes that name it (indices in
torchvision's order; the photo set's "right answers" for the notebooks).

The reference pipeline is the one recorded in the EfficientNet-Lite0 files: RGB, shorter side
to 256 with Pillow's bilinear filter (torchvision's Resize(256): the longer side becomes
int(256 * long / short)), centre crop 224 (offsets rounded half to even, as torchvision
does), then (x - 127) / 128 (see README.md for why these weights want that).
"""
import numpy as np
from PIL import Image

PHOTOS = [
    # file, what it shows, acceptable ImageNet class indices
    ("chelsea.png", "a tabby cat", [281, 282, 285]),          # tabby, tiger cat, Egyptian cat
    ("coffee.png", "a cup of espresso", [967, 968, 504]),     # espresso, cup, coffee mug
    ("rocket.jpg", "a rocket on its launch pad", [657, 744, 812]),  # missile, projectile, space shuttle
    ("grace_hopper.jpg", "Grace Hopper in uniform", [652, 400, 906, 457]),  # military uniform, academic gown, Windsor tie, bow tie
    ("camera.png", "a photographer with a camera on a tripod (gray)", [872, 759]),  # tripod, reflex camera
    ("astronaut.png", "astronaut Eileen Collins (no ImageNet class)", []),
]

CALIBRATION = ["brick.png", "clock_motion.png", "coins.png", "color.png", "grass.png", "gravel.png",
               "hubble_deep_field.jpg", "ihc.png", "logo.png", "moon.png", "page.png", "retina.jpg",
               "text.png", "horse.png", "cell.png"]

SHORTER_SIDE, CROP = 256, 224


def reference_crop(path):
    """The 224x224 RGB uint8 crop the models' recorded pipeline makes from a photo."""
    image = Image.open(path).convert("RGB")
    width, height = image.size
    if width <= height:
        size = (SHORTER_SIDE, SHORTER_SIDE * height // width)
    else:
        size = (SHORTER_SIDE * width // height, SHORTER_SIDE)
    image = image.resize(size, Image.BILINEAR)
    left = int(round((size[0] - CROP) / 2.0))
    top = int(round((size[1] - CROP) / 2.0))
    return np.asarray(image.crop((left, top, left + CROP, top + CROP)), dtype=np.uint8)


def calibration_crops(directory, count=64, seed=5):
    """`count` random square crops (50-100 % of the shorter side, half of them mirrored) of
    the calibration images, resized to 224x224: uint8 [count, 224, 224, 3]."""
    rng = np.random.default_rng(seed)
    crops = []
    for index in range(count):
        image = Image.open(f"{directory}/{CALIBRATION[index % len(CALIBRATION)]}").convert("RGB")
        width, height = image.size
        side = int(min(width, height) * rng.uniform(0.5, 1.0))
        left, top = int(rng.integers(0, width - side + 1)), int(rng.integers(0, height - side + 1))
        image = image.crop((left, top, left + side, top + side)).resize((CROP, CROP), Image.BILINEAR)
        if rng.random() < 0.5:
            image = image.transpose(Image.FLIP_LEFT_RIGHT)
        crops.append(np.asarray(image, dtype=np.uint8))
    return np.stack(crops)
