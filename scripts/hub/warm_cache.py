"""Fills a class's cell cache: the teacher's step before a lesson (make warm-cache).

    PYTHONPATH=python .venv/bin/python scripts/hub/warm_cache.py --out /srv/benchbook/class-cache            # in the image
    PYTHONPATH=python .venv/bin/python scripts/hub/warm_cache.py --out DIR --bare                            # this checkout's kernel

Executes the course notebooks (default: 01-04), each in a fresh kernel as "Run All" does,
with BENCHBOOK_CELL_CACHE=<out>: every cell a kernel compiles is stored there. A cache key
names the toolchain, the notebook library and their paths, so the cache must be filled where
students run: in the single-user image for containers (the default; a container of the image,
no network, the cache directory mounted), or with this checkout's build for bare processes
(--bare). Then the directory is made read-only to everyone but its owner; the class
configuration mounts it read-only (deploy/jupyterhub/benchbook_class.py). A student whose
kernel runs a notebook's cells in the same order, from a fresh kernel, loads each cell
instead of compiling it; see deploy/README.md for what misses.
"""
import argparse
import os

from benchbook_kit.hub.class_cache import COURSE, IMAGE, warm


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("BENCHBOOK_CLASS_CACHE", "/srv/benchbook/class-cache"))
    parser.add_argument("--bare", action="store_true", help="this checkout's build, not the image")
    parser.add_argument("--image", default=IMAGE)
    parser.add_argument("--notebooks", default=",".join(COURSE), help="comma-separated, in notebooks/")
    args = parser.parse_args()
    warm(args.out, [n for n in args.notebooks.split(",") if n], bare=args.bare, image=args.image)


if __name__ == "__main__":
    main()
