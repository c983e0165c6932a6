"""Screenshots compared as a person would: whether a browser test's picture changed."""
import io

from PIL import Image, ImageChops


def pixels(png):
    """A screenshot's PNG bytes as a gray image."""
    return Image.open(io.BytesIO(png)).convert("L")


def differing_share(a, b):
    """The share of pixels of two gray images that differ by more than 16 levels (1.0 when
    their sizes differ)."""
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a, b).point(lambda v: 255 if v > 16 else 0)
    return diff.histogram()[255] / (a.size[0] * a.size[1])
