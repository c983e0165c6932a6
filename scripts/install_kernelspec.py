"""Installs the Benchbook kernelspec for the current user.

    .venv/bin/python scripts/install_kernelspec.py --kernel .build/release/benchbook-kernel

Copies kernels/swift/ (kernel.json and logos) and points argv at the built kernel (at
benchbook-kernel-launcher beside it, which binds the ports and becomes the kernel), so
`jupyter kernelspec list` shows "swift" and any Jupyter client can start it.

By default for the current user (JUPYTER_DATA_DIR, else ~/.local/share/jupyter); with
`--prefix /usr/local` for every user of the machine (PREFIX/share/jupyter/kernels), as
JupyterHub's single-user servers need it.
"""
import argparse
import json
import shutil
import tempfile
from pathlib import Path

from jupyter_client.kernelspec import KernelSpecManager

# Not benchbook_kit's ROOT: the class image runs this script on its own (scripts/hub/build_image.py
# copies it without python/), so it finds kernels/swift/ from where it stands.
ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel", required=True, help="path of the built benchbook-kernel")
    parser.add_argument("--name", default="swift", help="kernelspec name (default: swift)")
    parser.add_argument("--prefix", help="install under PREFIX/share/jupyter/kernels for every user, not for this user")
    args = parser.parse_args()
    kernel = Path(args.kernel).resolve()
    if not kernel.exists():
        raise SystemExit(f"{kernel} does not exist; build it first with `make build`")
    with tempfile.TemporaryDirectory() as tmp:
        spec_dir = Path(tmp) / args.name
        shutil.copytree(ROOT / "kernels" / "swift", spec_dir)
        spec = json.loads((spec_dir / "kernel.json").read_text())
        # The launcher binds the kernel's ports within a millisecond, then becomes the kernel:
        # a client that connects before the ports are bound waits ZeroMQ's 100 ms retry.
        launcher = kernel.with_name("benchbook-kernel-launcher")
        spec["argv"] = [str(launcher if launcher.exists() else kernel), "-f", "{connection_file}"]
        (spec_dir / "kernel.json").write_text(json.dumps(spec, indent=2) + "\n")
        if args.prefix:
            destination = KernelSpecManager().install_kernel_spec(str(spec_dir), args.name, prefix=args.prefix)
        else:
            destination = KernelSpecManager().install_kernel_spec(str(spec_dir), args.name, user=True)
    print(f"installed kernelspec '{args.name}' in {destination} -> {kernel}")


if __name__ == "__main__":
    main()
