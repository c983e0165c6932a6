"""The connection-file part of `make test-hostile` (issue 37): the shared C reader
(Sources/Kernel/Jupyter/CConnectionFile) fuzzed under AddressSanitizer and UndefinedBehaviorSanitizer with
libFuzzer, then compared file by file with a reference reader written here from the rules
in CConnectionFile.h, on generated damaged files.

    PYTHONPATH=python python scripts/hostile/connection_files.py --build-dir .build/hostile [--runs N] [--files N]

Prints one line of counts and exits 1 when any is not 0. Deaths: a sanitizer report, an
abort of the fuzz target's own checks, or a crash of the checking program; hangs: a
libFuzzer timeout; wrong answers: a file the two readers read differently.
"""
import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchbook_kit import ROOT

CLANG = "/opt/swift/usr/bin/clang"
SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
PORTS = ["shell_port", "control_port", "stdin_port", "iopub_port", "hb_port"]
STRINGS = ["transport", "ip", "key", "signature_scheme"]
CURVE = ["curve_publickey", "curve_secretkey"]
MAX_DEPTH = 64
MAX_BYTES = 1 << 20


def build(build_dir):
    """The libFuzzer target and the checking program, both with the sanitizers."""
    build_dir.mkdir(parents=True, exist_ok=True)
    sources = [str(ROOT / "Sources/Kernel/Jupyter/CConnectionFile/connection_file.c")]
    include = ["-I", str(ROOT / "Sources/Kernel/Jupyter/CConnectionFile/include")]
    common = [CLANG, "-g", "-O1", "-fuse-ld=lld", *SANITIZERS, *include, *sources]
    fuzz = build_dir / "connection-file-fuzz"
    check = build_dir / "connection-file-check"
    subprocess.run(common + ["-fsanitize=fuzzer", str(ROOT / "Tests/Fuzz/connection_file_fuzz.c"), "-o", str(fuzz)], check=True)
    subprocess.run(common + [str(ROOT / "Tests/Fuzz/connection_file_check.c"), "-o", str(check)], check=True)
    return fuzz, check


# ---- The reference reader --------------------------------------------------------------

class Refused(Exception):
    pass


class Pairs(list):
    """An object as its members in order (so repeated names stay visible)."""


def depth(value):
    if isinstance(value, Pairs):
        return 1 + max((depth(v) for _, v in value), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


def has_surrogate(value):
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, Pairs):
        return any(has_surrogate(k) or has_surrogate(v) for k, v in value)
    if isinstance(value, list):
        return any(has_surrogate(v) for v in value)
    return False


def reference(data):
    """What the rules say a file reads as: (transport, ip, ports) or None for refused."""
    try:
        return read(data)
    except (Refused, ValueError, RecursionError, UnicodeDecodeError):
        return None


def read(data):
    if not data or len(data) > MAX_BYTES or b"\0" in data:
        raise Refused
    text = data.decode("utf-8")

    def no_constant(name):
        raise Refused(name)   # NaN, Infinity

    number_texts = {}

    def integer(text):
        value = int(text)
        number_texts[id(value)] = text
        return ("int", value)

    def real(text):
        return ("float", text)

    top = json.loads(text, object_pairs_hook=Pairs, parse_constant=no_constant, parse_int=integer, parse_float=real)
    if has_surrogate(top):
        raise Refused
    if not isinstance(top, Pairs):
        raise Refused
    if any(depth(v) > MAX_DEPTH for _, v in top):
        raise Refused
    names = [k for k, _ in top]
    if len(names) != len(set(names)):
        raise Refused
    fields = dict(top)
    for name in STRINGS:
        if name in fields and (not isinstance(fields[name], str) or "\0" in fields[name]):
            raise Refused
    for name in CURVE:
        if name in fields and fields[name] is not None and (not isinstance(fields[name], str) or "\0" in fields[name]):
            raise Refused
    transport = fields.get("transport", "tcp")
    ip = fields.get("ip", "127.0.0.1")
    if transport not in ("tcp", "ipc") or ip == "":
        raise Refused
    ports = []
    for name in PORTS:
        value = fields.get(name)
        if not (isinstance(value, tuple) and value[0] == "int"):
            raise Refused
        low, high = (1, 65535) if transport == "tcp" else (0, 2**31 - 1)
        if not low <= value[1] <= high:
            raise Refused
        ports.append(value[1])
    return transport, ip, ports


def checked_line(reading):
    if reading is None:
        return "refused"
    transport, ip, ports = reading
    def hexed(text):
        return text.encode("utf-8").hex() if text else "-"
    return " ".join(["ok", hexed(transport), hexed(ip)] + [str(p) for p in ports])


# ---- Generated files ---------------------------------------------------------------------

BASE = {"shell_port": 41001, "iopub_port": 41002, "stdin_port": 41003, "control_port": 41004, "hb_port": 41005,
        "ip": "127.0.0.1", "key": "a0b1c2-d3", "transport": "tcp", "signature_scheme": "hmac-sha256",
        "kernel_name": "swift"}

INTERESTING = [b'"', b"{", b"}", b"[", b"]", b",", b":", b"0", b"9", b"-", b"+", b"e", b".", b" ", b"\\",
               b"\\u", b"\\u0070", b"\\ud800", b"\n", b"\t", b"\x7f", b"\xc3", b"\xff", b"\0", b"null", b"true",
               b"1e999", b"NaN", b"99999999999999999999"]
VALUES = ['0', '-1', '1', '65535', '65536', '5555.5', '5.5e3', '1e5', '01', '"5555"', 'null', 'true', '[]', '{}',
          '"::1"', '"::"', '"localhost"', '""', '"\\u0000"', '"ipc"', '"udp"', '"\\ud83d\\ude00"', '"\\ud800"',
          '[' * 70 + ']' * 70, '[' * 64 + ']' * 64, '99999999999999999999', '-0', '1.0']


def escaped(name, rng):
    """The name with some of its characters written as \\u escapes."""
    return "".join(f"\\u{ord(c):04x}" if rng.random() < 0.3 else c for c in name)


def generated(rng):
    """One file: the base written in one of several ways, then damaged."""
    members = [(k, json.dumps(v)) for k, v in BASE.items()]
    rng.shuffle(members)
    kind = rng.randrange(6)
    if kind == 0:   # a field's value replaced
        index = rng.randrange(len(members))
        members[index] = (members[index][0], rng.choice(VALUES))
    elif kind == 1:   # a field repeated, perhaps escaped
        name, value = rng.choice(members)
        members.insert(rng.randrange(len(members) + 1), (name, rng.choice([value, rng.choice(VALUES)])))
    elif kind == 2:   # a field left out
        members.pop(rng.randrange(len(members)))
    elif kind == 3:   # an extra field with an odd value
        members.append((rng.choice(["extra", "x", "ip ", "Key", "k\u00e9y"]), rng.choice(VALUES)))
    text_members = []
    for name, value in members:
        written = escaped(name, rng) if rng.random() < 0.2 else name
        text_members.append(f'"{written}"{rng.choice([":", " : ", ":"])}{value}')
    data = ("{" + rng.choice([",", ", ", ",\n  "]).join(text_members) + "}").encode()
    if kind >= 4:   # bytes damaged
        data = bytearray(data)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(data) + 1)
            action = rng.randrange(3)
            if action == 0 and at < len(data):
                del data[at]
            elif action == 1:
                data[at:at] = rng.choice(INTERESTING)
            elif at < len(data):
                data[at:at + 1] = rng.choice(INTERESTING)
        data = bytes(data)
    return data


def campaign(build_dir, runs, count, seed):
    """Runs the part; returns (cases, deaths, hangs, wrong answers) and prints its line."""
    fuzz, check = build(build_dir)
    deaths = hangs = wrong = 0

    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        corpus = scratch / "corpus"
        corpus.mkdir()
        (corpus / "base.json").write_text(json.dumps(BASE))
        artifacts = scratch / "artifacts"
        artifacts.mkdir()
        run = subprocess.run([str(fuzz), f"-runs={runs}", "-max_len=4096", f"-seed={seed}", "-timeout=10",
                              f"-artifact_prefix={artifacts}/", str(corpus)], capture_output=True, text=True)
        found = sorted(p.name for p in artifacts.iterdir())
        hangs += sum(1 for name in found if name.startswith("timeout-"))
        deaths += sum(1 for name in found if not name.startswith("timeout-"))
        if run.returncode != 0 and not found:
            deaths += 1
        if run.returncode != 0:
            print(run.stderr[-3000:], file=sys.stderr)

        rng = random.Random(seed)
        files = []
        for index in range(count):
            path = scratch / f"{index}.json"
            path.write_bytes(generated(rng))
            files.append(path)
        lines = []
        for start in range(0, len(files), 2000):
            batch = files[start:start + 2000]
            done = subprocess.run([str(check)] + [str(p) for p in batch], capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                deaths += 1
                print(done.stderr[-3000:], file=sys.stderr)
            lines += done.stdout.splitlines()
        accepted = 0
        for index, path in enumerate(files):
            expected = checked_line(reference(path.read_bytes()))
            got = lines[index] if index < len(lines) else "<no line>"
            accepted += got.startswith("ok")
            if got != expected:
                wrong += 1
                if wrong <= 10:
                    print(f"read differently: {path.read_bytes()[:300]!r}\n  C: {got}\n  reference: {expected}", file=sys.stderr)
    cases = runs + count
    print(f"connection files: {cases:,} cases ({runs:,} libFuzzer runs under ASan+UBSan, {count:,} files "
          f"against the reference reader, {accepted:,} of them read); deaths {deaths}, hangs {hangs}, wrong answers {wrong}")
    return cases, deaths, hangs, wrong


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path, default=ROOT / ".build/hostile")
    parser.add_argument("--runs", type=int, default=2_000_000, help="libFuzzer runs")
    parser.add_argument("--files", type=int, default=20_000, help="generated files compared with the reference")
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    _, deaths, hangs, wrong = campaign(args.build_dir, args.runs, args.files, args.seed)
    return 1 if deaths or hangs or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
