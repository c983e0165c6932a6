"""Draws the kernelspec logos (kernels/swift/logo-32x32.png and logo-64x64.png).

Run with the project venv: `make logos` (PYTHONPATH=python .venv/bin/python scripts/make_logos.py [--out DIR]);
test_generated_files.py checks that the committed logos are what this script draws.
The logo is an orange rounded square with a white stopwatch: Swift, timed.
"""
import argparse
from pathlib import Path

from PIL import Image, ImageDraw

from benchbook_kit import ROOT

OUT = ROOT / "kernels" / "swift"


def draw(size: int) -> Image.Image:
    scale = 8  # draw large, then shrink for smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    pen.rounded_rectangle([0, 0, big - 1, big - 1], radius=big // 5, fill=(240, 81, 56, 255))
    centre, radius = big / 2, big * 0.30
    width = max(scale, big // 14)
    pen.ellipse([centre - radius, centre - radius + big * 0.05, centre + radius, centre + radius + big * 0.05],
                outline="white", width=width)
    pen.rectangle([centre - width, big * 0.12, centre + width, big * 0.22], fill="white")
    cy = centre + big * 0.05
    pen.line([centre, cy, centre + radius * 0.55, cy - radius * 0.55], fill="white", width=width)
    return image.resize((size, size), Image.LANCZOS)


parser = argparse.ArgumentParser(description="Draws the kernelspec logos.")
parser.add_argument("--out", type=Path, default=OUT, help="the folder to write them to (default: kernels/swift)")
out = parser.parse_args().out
for size in (32, 64):
    draw(size).save(out / f"logo-{size}x{size}.png")
    print(f"wrote {out / f'logo-{size}x{size}.png'}")
