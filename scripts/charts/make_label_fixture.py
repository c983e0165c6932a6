"""Writes the ImageNet class names the course's ImageNet models predict to
Tests/Fixtures/charts/imagenet-classes.json, for the chart label test (every name must be
drawn whole, in every chart that shows class names).

    make label-fixture    (PYTHONPATH=python /usr/bin/python3 scripts/charts/make_label_fixture.py [--out FILE])

The names come from Debian's python3-torchvision 0.14 (torchvision.models._meta), the list
`make models` records in the course models. test_generated_files.py checks that the
committed fixture is what this script writes.
"""
import argparse
import json
import os

from torchvision.models._meta import _IMAGENET_CATEGORIES

from benchbook_kit import ROOT

OUT = os.path.join(ROOT, "Tests", "Fixtures", "charts", "imagenet-classes.json")

parser = argparse.ArgumentParser(description="Writes the ImageNet class names of the chart label test.")
parser.add_argument("--out", default=OUT, help="the file to write (default: Tests/Fixtures/charts/imagenet-classes.json)")
out = parser.parse_args().out
with open(out, "w", encoding="utf-8") as handle:
    json.dump(list(_IMAGENET_CATEGORIES), handle, indent=0, ensure_ascii=False)
    handle.write("\n")
print(f"wrote {len(_IMAGENET_CATEGORIES)} names to {out}")
