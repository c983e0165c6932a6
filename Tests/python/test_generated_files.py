"""Committed files that a script of the project makes are what that script makes today:
the kernelspec's logos (scripts/make_logos.py, `make logos`) and the chart label test's
ImageNet class names (scripts/charts/make_label_fixture.py, `make label-fixture`), each made
again into a temporary folder and compared with the committed copy."""
import json
import os
import subprocess
import sys

from PIL import Image, ImageChops

from benchbook_kit import ROOT

# The scripts import the kit, as every command the Makefile runs can.
SCRIPT_ENV = dict(os.environ, PYTHONPATH=str(ROOT / "python"))


def test_the_kernelspec_logos_are_what_make_logos_draws(tmp_path):
    subprocess.run([sys.executable, ROOT / "scripts" / "make_logos.py", "--out", tmp_path], check=True,
                   capture_output=True, env=SCRIPT_ENV)
    for size in (32, 64):
        name = f"logo-{size}x{size}.png"
        drawn, committed = Image.open(tmp_path / name), Image.open(ROOT / "kernels" / "swift" / name)
        assert (drawn.mode, drawn.size) == (committed.mode, committed.size) == ("RGBA", (size, size))
        assert ImageChops.difference(drawn, committed).getbbox() is None, f"{name} differs: run `make logos`"


def test_the_chart_label_fixture_is_torchvisions_imagenet_class_list(tmp_path):
    # Debian's python3-torchvision (scripts/apt-packages.txt), as the script's docstring says.
    out = tmp_path / "imagenet-classes.json"
    subprocess.run(["/usr/bin/python3", ROOT / "scripts" / "charts" / "make_label_fixture.py", "--out", out],
                   check=True, capture_output=True, env=SCRIPT_ENV)
    written = json.loads(out.read_text(encoding="utf-8"))
    committed = json.loads((ROOT / "Tests" / "Fixtures" / "charts" / "imagenet-classes.json").read_text(encoding="utf-8"))
    assert len(written) == 1000 and written == committed, "run `make label-fixture`"
