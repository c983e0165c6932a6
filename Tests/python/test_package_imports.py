"""Package.swift says what the code uses: each target's dependencies on other targets of the
package are exactly the modules its sources import (Swift `import`) or whose headers they
include (C and C++ `#include` of a header in another target's `include/`).

A module imported without being declared builds only while some other dependency happens
to bring it in; one declared and never used makes the graph say more than the code does.
The manifest is read by SwiftPM itself (`swift package dump-package`), the sources with
comments and string literals removed, so that Swift text inside a string (a test's cell, a
generated module) is not taken for an import.
"""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from benchbook_kit import ROOT
SWIFT_SOURCES = {".swift"}
C_SOURCES = {".c", ".h", ".cpp", ".hpp", ".cc", ".mm", ".m"}
IMPORT = re.compile(
    r"^[ \t]*(?:@[A-Za-z_]+(?:\([^)\n]*\))?[ \t]+)*"          # @_exported, @testable, @preconcurrency
    r"(?:(?:public|package|internal|fileprivate|private)[ \t]+)?"  # access-level imports
    r"import[ \t]+(?:(?:typealias|struct|class|enum|protocol|let|var|func)[ \t]+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)", re.M)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*(?:include|import)[ \t]*[<"]([^>"]+)[>"]', re.M)


def swift_code_only(text):
    """The text with comments and string literals blanked (newlines kept)."""
    out = []
    _code(text, 0, out, interpolation=False)
    return "".join(out)


def _code(text, i, out, interpolation):
    """Copies code from `i` to `out`; inside an interpolation, returns after its `)`."""
    depth, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            level, i = 1, i + 2
            while i < n and level:
                if text.startswith("/*", i):
                    level, i = level + 1, i + 2
                elif text.startswith("*/", i):
                    level, i = level - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif (raw := re.match(r'#*"', text[i:])):
            i = _string(text, i + len(raw.group(0)) - 1, len(raw.group(0)) - 1, out)
        elif interpolation and text[i] == "(":
            depth, i = depth + 1, i + 1
        elif interpolation and text[i] == ")":
            if depth == 0:
                return i + 1
            depth, i = depth - 1, i + 1
        else:
            out.append(text[i])
            i += 1
    return i


def _string(text, i, hashes, out):
    """Skips the string literal whose quotes start at `i`; returns the index after it."""
    quote = '"""' if text.startswith('"""', i) else '"'
    closing, escape = quote + "#" * hashes, "\\" + "#" * hashes
    i += len(quote)
    while i < len(text) and not text.startswith(closing, i):
        if text.startswith(escape + "(", i):
            i = _code(text, i + len(escape) + 1, out, interpolation=True)
        elif text.startswith(escape, i):
            i += len(escape) + 1
        else:
            if text[i] == "\n":
                out.append("\n")
            i += 1
    return i + len(closing)


def c_code_only(text):
    """C text with comments removed (an `#include` never sits in a string)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def module_name(target):
    return target.replace("-", "_")


@pytest.fixture(scope="module")
def manifest():
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    dumped = subprocess.run([swift, "package", "dump-package"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert dumped.returncode == 0, dumped.stderr
    return json.loads(dumped.stdout)


def target_folder(target):
    if target.get("path"):
        return ROOT / target["path"]
    return ROOT / ("Tests" if target["type"] == "test" else "Sources") / target["name"]


def declared_dependencies(target, names):
    declared = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "target"):
            if kind in dependency and dependency[kind][0] in names:
                declared.add(dependency[kind][0])
    return declared


def used_dependencies(target, modules, headers):
    """The package's targets that `target`'s sources import or include, by target name."""
    used = set()
    folder = target_folder(target)
    for path in sorted(folder.rglob("*")):
        if path.suffix in SWIFT_SOURCES:
            for module in IMPORT.findall(swift_code_only(path.read_text(encoding="utf-8"))):
                used.add(modules.get(module))
        elif path.suffix in C_SOURCES:
            for header in INCLUDE.findall(c_code_only(path.read_text(encoding="utf-8", errors="replace"))):
                # A header named by its path from this file is found without a dependency: how
                # CTorch declares the functions of CTorchShim, which it opens with dlopen on
                # first use (a dependency would link libtorch into every process).
                if "/" in header and (path.parent / header).is_file():
                    continue
                used.add(headers.get(Path(header).name))
    used.discard(None)
    used.discard(target["name"])
    return used


def test_every_targets_dependencies_are_what_its_sources_import(manifest):
    targets = [t for t in manifest["targets"] if t["type"] != "system"]
    names = {t["name"] for t in manifest["targets"]}
    modules = {module_name(t["name"]): t["name"] for t in manifest["targets"]}
    headers = {}
    for target in targets:
        include = target_folder(target) / "include"
        for header in include.rglob("*.h") if include.is_dir() else []:
            assert headers.setdefault(header.name, target["name"]) == target["name"], \
                f"{header.name} is a public header of two targets: an include could not say which"
    assert len(targets) > 40, "fewer targets than the package has: did dump-package's format change?"
    problems = []
    for target in sorted(targets, key=lambda t: t["name"]):
        declared = declared_dependencies(target, names)
        used = used_dependencies(target, modules, headers)
        if missing := sorted(used - declared):
            problems.append(f"{target['name']} imports {', '.join(missing)} without declaring it in Package.swift")
        if unused := sorted(declared - used):
            problems.append(f"{target['name']} declares {', '.join(unused)} in Package.swift but never imports it")
    assert not problems, "\n".join(problems)


def test_the_reading_of_sources_skips_comments_and_strings():
    text = ('import A\n/* import B */\n// import C\nlet s = """\nimport D\\(f("x"))\n"""\nlet r = #"import E"#\n'
            'let t = "\\(g(")"))"\n@testable import F\npublic import G.H\n')
    assert IMPORT.findall(swift_code_only(text)) == ["A", "F", "G"]
    assert INCLUDE.findall(c_code_only('#include "a.h"\n/* #include "b.h" */\n#include <c.h>\n')) == ["a.h", "c.h"]
