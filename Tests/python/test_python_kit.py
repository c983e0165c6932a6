"""What the Python tests and scripts share lives in python/benchbook_kit, once (issue 48):
no test module imports another (a helper two of them use is the kit's), the checkout's root
is found in one place (benchbook_kit.ROOT), and a test's Jupyter server is started by the
kit's one factory (benchbook_kit.servers.jupyter_server). Read from the sources, no kernel.
"""
import ast
import re

from benchbook_kit import ROOT

TESTS = ROOT / "Tests" / "python"
# A path two or more folders above a file of the checkout: the checkout's root, by hand.
ROOT_BY_HAND = re.compile(r"__file__.*(parents\[\d\]|\.parent\.parent)|dirname\(os\.path\.dirname\(.*__file__")
# The class image runs install_kernelspec.py without python/ beside it (scripts/hub/build_image.py);
# this file holds the pattern's examples.
ROOT_DEFINITIONS = {"python/benchbook_kit/__init__.py", "scripts/install_kernelspec.py", "Tests/python/test_python_kit.py"}


def python_files(*folders):
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py") if "__pycache__" not in path.parts)


def test_no_test_module_imports_another():
    found = []
    for path in python_files("Tests/python"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            found += [f"{path.name}:{node.lineno} imports {name}" for name in names
                      if name.split(".")[0].startswith("test_") or name == "conftest"]
    assert not found, f"move what they share to python/benchbook_kit: {found}"


def test_the_checkout_root_is_found_in_one_place():
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in python_files("Tests", "scripts", "python")
             if str(path.relative_to(ROOT)) not in ROOT_DEFINITIONS
             for number, line in enumerate(path.read_text().splitlines(), 1) if ROOT_BY_HAND.search(line)]
    assert not found, f"use `from benchbook_kit import ROOT`: {found}"


def test_a_tests_jupyter_server_comes_from_the_kits_factory():
    """No test builds a `jupyter lab`, `jupyter server` or `voila` command of its own."""
    found = []
    for path in python_files("Tests/python"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.List):
                words = [item.value for item in node.elts if isinstance(item, ast.Constant) and isinstance(item.value, str)]
                pairs = set(zip(words, words[1:]))
                if pairs & {("jupyter", "lab"), ("jupyter", "server"), ("-m", "voila"), ("jupyter", "notebook")}:
                    found.append(f"{path.name}:{node.lineno}")
    assert not found, f"start it with benchbook_kit.servers.jupyter_server: {found}"


def test_the_checks_find_what_they_look_for():
    assert ROOT_BY_HAND.search("ROOT = Path(__file__).resolve().parents[2]")
    assert ROOT_BY_HAND.search("ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))")
    assert ROOT_BY_HAND.search('OUT = Path(__file__).resolve().parent.parent / "kernels"')
    assert not ROOT_BY_HAND.search("HERE = Path(__file__).resolve().parent")
    assert all((ROOT / name).exists() for name in ROOT_DEFINITIONS)
