"""Builds the single-user image of a class: `benchbook-singleuser` (make image).

    PYTHONPATH=python .venv/bin/python scripts/hub/build_image.py [--base-image debian:12] [--toolchain swift.tar.gz]

Nothing is downloaded but Debian's packages and PyPI's:
- the base is Debian 12 made here with `debootstrap --variant=minbase` from the machine's
  Debian mirror and `docker import` (image `benchbook-base:bookworm`, made once), unless
  `--base-image` (BASE_IMAGE) names one, as on a cluster with a registry;
- the Swift toolchain is this machine's (the one `swiftc` on PATH belongs to, else /opt/swift)
  or a toolchain tarball (TOOLCHAIN), of which only the files a kernel uses go in
  (deploy/jupyterhub/toolchain-files.txt);
- the kernel, its helpers and the notebook library come from this checkout's release build,
  the course from notebooks/ and models/generated/ (make build, make models first).

The build context is staged in .build/image/context (hard links where possible) and hashed;
the image carries the hash as the label `org.benchbook.inputs`, and an image whose label
matches is reused without calling `docker build`. The Dockerfile is
deploy/jupyterhub/Dockerfile. A summary (tag, id, size, hash, seconds) goes to
.build/image/image.json.
"""
import argparse
import fnmatch
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from benchbook_kit import ROOT
from benchbook_kit.hub.docker_engine import DOCKER, EngineError, docker, ensure

DEPLOY = ROOT / "deploy" / "jupyterhub"
WORK = ROOT / ".build" / "image"
IMAGE = "benchbook-singleuser:latest"
BASE = "benchbook-base:bookworm"
LABEL = "org.benchbook.inputs"
IN_IMAGE = "/opt/benchbook"        # the checkout's place in the image

# What of the release build a kernel runs: the kernelspec's launcher and kernel, the
# kernel's helper processes, the notebook library and the libtorch shim it opens.
PRODUCTS = ["benchbook-kernel-launcher", "benchbook-kernel", "benchbook-cell-host", "benchbook-cell-parser",
            "benchbook-cell-compiler", "libBenchbook.so", "libBenchbookTorch.so"]
# The course's generated models: what the notebooks open (no training inputs, no wheels).
MODEL_PATTERNS = ["*.pt", "*.ptl", "*.tflite", "reference/*.json"]


def log(text):
    print(f"make image: {text}", flush=True)


# --- staging ----------------------------------------------------------------------------


def link_or_copy(source, destination):
    """A hard link when both are on one file system (no bytes copied), else a copy."""
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)
    return destination


def copy_tree(source, destination, ignore=None):
    shutil.copytree(source, destination, symlinks=True, copy_function=link_or_copy, ignore=ignore,
                    dirs_exist_ok=True)


def copy_path(source, destination):
    destination.parent.mkdir(parents=True, exist_ok=True)
    if source.is_symlink():
        if destination.is_symlink() or destination.exists():
            destination.unlink()
        destination.symlink_to(os.readlink(source))
    elif source.is_dir():
        copy_tree(source, destination)
    else:
        link_or_copy(source, destination)


def toolchain_root(tarball, scratch):
    """The directory holding usr/bin/swiftc: this machine's toolchain, or the tarball's."""
    if tarball:
        unpacked = scratch / "toolchain-tarball"
        shutil.rmtree(unpacked, ignore_errors=True)
        unpacked.mkdir(parents=True)
        log(f"unpacking {tarball}")
        with tarfile.open(tarball) as archive:
            archive.extractall(unpacked, filter="tar")
        found = sorted(unpacked.glob("**/usr/bin/swiftc"))
        if not found:
            raise SystemExit(f"make image: {tarball} has no usr/bin/swiftc")
        return found[0].parents[2]
    swiftc = shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc"
    return Path(swiftc).resolve().parents[2]


def stage_toolchain(source, destination):
    patterns = [line.strip() for line in (DEPLOY / "toolchain-files.txt").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    for pattern in patterns:
        matches = [Path(p) for p in glob.glob(str(source / pattern))]
        if not matches:
            raise SystemExit(f"make image: the toolchain at {source} has no {pattern} "
                             "(deploy/jupyterhub/toolchain-files.txt)")
        for match in matches:
            copy_path(match, destination / match.relative_to(source))


def stage_benchbook(destination, checkout):
    """The release build's products and what cells compile against, laid out as in the checkout."""
    release = destination / ".build" / "release"
    release.mkdir(parents=True)
    built = checkout / ".build" / "release"
    for name in PRODUCTS:
        if not (built / name).exists():
            raise SystemExit(f"make image: {built / name} is missing: run `make build` first")
        link_or_copy(built / name, release / name)
    copy_tree(built / "Modules", release / "Modules",
              ignore=lambda d, names: [n for n in names if "Test" in n])
    # SwiftPM's module maps of the C targets name their headers by absolute path.
    for modulemap in sorted(built.glob("*.build/module.modulemap")):
        if "Test" in modulemap.parent.name:
            continue
        target = release / modulemap.parent.name / "module.modulemap"
        target.parent.mkdir(parents=True)
        target.write_text(modulemap.read_text().replace(str(checkout) + "/", IN_IMAGE + "/"))
    sources = checkout / "Sources"
    copy_tree(sources / "System", destination / "Sources" / "System")
    for include in sorted(sources.glob("**/C*/include")):
        copy_tree(include, destination / include.relative_to(checkout))
    copy_tree(checkout / "kernels" / "swift", destination / "kernels" / "swift")
    (destination / "scripts").mkdir()
    link_or_copy(checkout / "scripts" / "install_kernelspec.py", destination / "scripts" / "install_kernelspec.py")


def stage_course(destination, checkout):
    """The course as a student gets it: notebooks with their data and models, the
    generated models, and an empty results/ for the notebooks' records."""
    tracked = subprocess.run(["git", "-C", str(checkout), "ls-files", "notebooks"], capture_output=True, text=True,
                             check=True).stdout.split()
    for name in tracked:
        copy_path(checkout / name, destination / name)
    for generated in ["notebooks/data/photos", "notebooks/data/photo-style"]:
        if (checkout / generated).is_dir():
            copy_tree(checkout / generated, destination / generated)
    models = checkout / "models" / "generated"
    if not models.is_dir():
        raise SystemExit(f"make image: {models} is missing: run `make models` first")
    # The models go beside the home (course-models/ -> /opt/benchbook/course-models, linked
    # from course/models): a student's home is a volume the first start fills from the image,
    # and 150 MB of models copied per student would slow a class's first start.
    for path in sorted(models.rglob("*")):
        relative = path.relative_to(models)
        if path.is_file() and any(fnmatch.fnmatch(str(relative), p) for p in MODEL_PATTERNS):
            copy_path(path, destination.parent / "course-models" / "generated" / relative)
    (destination / "results").mkdir()


def pip_constraints():
    """The versions in this project's .venv, so the image's Jupyter server, JupyterHub and
    LiteRT are the ones the tests run against here (local packages left out)."""
    python = ROOT / ".venv" / "bin" / "python"
    frozen = subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True, text=True, check=True).stdout
    return "".join(line + "\n" for line in frozen.splitlines() if "==" in line and " @ " not in line)


def pip_certificates():
    """The CA bundle pip uses on this machine (PIP_CERT when set, as behind a TLS-inspecting
    proxy; else Debian's). pip in the build trusts the same roots; the file is removed in
    the layer that uses it."""
    for variable in ["PIP_CERT", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE"]:
        if os.environ.get(variable) and Path(os.environ[variable]).is_file():
            return Path(os.environ[variable])
    return Path("/etc/ssl/certs/ca-certificates.crt")


def stage(context, toolchain, checkout):
    shutil.rmtree(context, ignore_errors=True)
    context.mkdir(parents=True)
    for name in ["Dockerfile", "apt-packages.txt", "requirements.txt"]:
        shutil.copy2(DEPLOY / name, context / name)
    (context / "constraints.txt").write_text(pip_constraints())
    shutil.copy2(pip_certificates(), context / "pip-ca.pem")
    stage_toolchain(toolchain, context / "toolchain")
    stage_benchbook(context / "benchbook", checkout)
    stage_course(context / "course", checkout)


def content_hash(context, base_id):
    """SHA-256 over every staged path, its mode and its bytes (or link target), and the base."""
    digest = hashlib.sha256(f"base {base_id}\n".encode())
    for path in sorted(context.rglob("*")):
        relative = str(path.relative_to(context))
        if path.is_symlink():
            digest.update(f"L {relative} {os.readlink(path)}\n".encode())
        elif path.is_file():
            with open(path, "rb") as f:
                data = hashlib.file_digest(f, "sha256").hexdigest()
            digest.update(f"F {relative} {path.stat().st_mode & 0o777:o} {data}\n".encode())
        elif path.is_dir():
            digest.update(f"D {relative}\n".encode())
    return digest.hexdigest()


# --- base image ---------------------------------------------------------------------------


def debian_mirrors():
    """(archive, security) URIs of the machine's Debian sources (deb822 or one-line format)."""
    texts = []
    for path in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]:
        if path.is_file():
            texts.append(path.read_text())
    uris = []
    for text in texts:
        for line in text.splitlines():
            words = line.split()
            if line.startswith("URIs:"):
                uris += words[1:]
            elif words[:1] == ["deb"]:
                uris += [w for w in words[1:] if "://" in w][:1]
    archive = next((u for u in uris if u.rstrip("/").endswith("/debian")), None)
    security = next((u for u in uris if u.rstrip("/").endswith("/debian-security")), None)
    if archive is None:
        raise SystemExit("make image: no Debian mirror in /etc/apt/sources.list*; give BASE_IMAGE=<a Debian 12 image>")
    return archive.rstrip("/"), (security or archive.replace("/debian", "/debian-security")).rstrip("/")


def make_base():
    """benchbook-base:bookworm from debootstrap, once (reused while it exists)."""
    if docker("images", "-q", BASE):
        return BASE
    archive, security = debian_mirrors()
    log(f"making the base image {BASE}: debootstrap --variant=minbase bookworm from {archive} (a few minutes)")
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="benchbook-rootfs-", dir="/var/tmp") as scratch:
        rootfs = Path(scratch) / "bookworm"
        subprocess.run(["debootstrap", "--variant=minbase", "bookworm", str(rootfs), archive], check=True,
                       stdout=subprocess.DEVNULL)
        (rootfs / "etc/apt/sources.list").write_text(
            f"deb {archive} bookworm main\ndeb {archive} bookworm-updates main\n"
            f"deb {security} bookworm-security main\n")
        for cache in ["var/cache/apt/archives", "var/lib/apt/lists"]:
            for item in (rootfs / cache).glob("*"):
                if item.is_file():
                    item.unlink()
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "--numeric-owner", "-c", "."], stdout=subprocess.PIPE)
        subprocess.run([DOCKER, "import", "--change", 'CMD ["/bin/bash"]', "--change",
                        f"LABEL org.benchbook.debian-mirror={archive}", "-", BASE], stdin=tar.stdout, check=True,
                       stdout=subprocess.DEVNULL)
        tar.stdout.close()
        if tar.wait() != 0:
            raise SystemExit("make image: tar of the debootstrap root failed")
    log(f"base image made in {time.time() - started:.0f} s")
    return BASE


# --- build --------------------------------------------------------------------------------


def image_size(tag):
    return int(docker("image", "inspect", "--format", "{{.Size}}", tag))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-image", default=os.environ.get("BASE_IMAGE") or None,
                        help="a Debian 12 image to build on (default: benchbook-base:bookworm from debootstrap)")
    parser.add_argument("--toolchain", default=os.environ.get("TOOLCHAIN") or None,
                        help="a Swift toolchain tarball (default: this machine's toolchain)")
    parser.add_argument("--tag", default=IMAGE)
    parser.add_argument("--force", action="store_true", help="build even when the label matches")
    parser.add_argument("--checkout", default=str(ROOT),
                        help="the checkout whose release build and course go in (default: this one)")
    args = parser.parse_args()
    checkout = Path(args.checkout).resolve()
    started = time.time()
    try:
        ensure()
        base = args.base_image or make_base()
        base_id = docker("image", "inspect", "--format", "{{.Id}}", base)
        context = WORK / "context"
        toolchain = toolchain_root(args.toolchain, WORK)
        log(f"staging the build context in {context} (toolchain from {toolchain})")
        stage(context, toolchain, checkout)
        inputs = content_hash(context, base_id)
        current = docker("image", "inspect", "--format", "{{index .Config.Labels \"" + LABEL + "\"}}", args.tag,
                         check=False)
        if current == inputs and not args.force:
            log(f"{args.tag} is up to date (inputs {inputs[:12]}); not rebuilt")
            built = False
        else:
            log(f"building {args.tag} (inputs {inputs[:12]})")
            subprocess.run([DOCKER, "build", "--network", "host", "--build-arg", f"BASE_IMAGE={base}",
                            "--label", f"{LABEL}={inputs}", "-t", args.tag, str(context)], check=True)
            built = True
            # The image this one replaced (now untagged) and nothing else.
            docker("image", "prune", "-f", "--filter", f"label={LABEL}", check=False)
        size = image_size(args.tag)
        summary = {"tag": args.tag, "id": docker("image", "inspect", "--format", "{{.Id}}", args.tag),
                   "size_bytes": size, "inputs": inputs, "base": base, "rebuilt": built,
                   "seconds": round(time.time() - started, 1), "toolchain": str(toolchain),
                   "context_bytes": sum(p.stat().st_size for p in context.rglob("*") if p.is_file() and not p.is_symlink())}
        (WORK / "image.json").write_text(json.dumps(summary, indent=1) + "\n")
        log(f"{args.tag}: {size / 1e9:.2f} GB ({'built' if built else 'reused'} in {summary['seconds']:.0f} s)")
    except (EngineError, subprocess.CalledProcessError) as error:
        sys.exit(f"make image: {error}")


if __name__ == "__main__":
    main()
