"""Counts the operators in each model file's graph, read in Python, as JSON on stdout.

    /usr/bin/python3 scripts/models/model_graph.py models/generated/efficientnet_lite0.pt ...   # .pt, .ptl
    .venv/bin/python scripts/models/model_graph.py models/generated/efficientnet_lite0.tflite   # .tflite

The reference Tests/python/test_models.py checks Benchbook's operator profiles against:
- TorchScript (.pt): the nodes of `torch.jit.load(path).inlined_graph`, by kind (Debian's torch
  1.13, the libtorch the kernel links); prim:: nodes are the interpreter's own, left out.
- PyTorch Lite (.ptl): the OP instructions of `forward` in the file's bytecode.pkl, by the
  operator each names (what the lite interpreter runs, once per call for these models).
- TensorFlow Lite (.tflite): LiteRT's Python interpreter's operator list (`_get_ops_details`).
Output: {"<path>": {"operators": {"<operator>": count, ...}, "conditional": {...}}, ...}, where
"conditional" counts the operators inside branches (an `if` on a shape runs one side).
"""
import collections
import io
import json
import pickle
import sys
import zipfile


def torchscript_counts(path):
    """Operators of the inlined graph, and those of them inside a branch (prim::If, prim::Loop)."""
    import torch
    graph = torch.jit.load(path).inlined_graph
    counts, conditional = collections.Counter(), collections.Counter()

    def walk(block, inside):
        for node in block.nodes():
            if not node.kind().startswith("prim::"):
                counts[node.kind()] += 1
                if inside:
                    conditional[node.kind()] += 1
            for inner in node.blocks():
                walk(inner, True)

    walk(graph, False)
    return {"operators": dict(counts), "conditional": dict(conditional)}


class _Opaque:
    """Stands for any torch object in bytecode.pkl (tensors, types); only names are read."""

    def __init__(self, *args, **kwargs):
        pass

    def __setstate__(self, state):
        pass


class _BytecodeUnpickler(pickle.Unpickler):
    def persistent_load(self, pid):
        return None

    def find_class(self, module, name):
        if module.startswith("torch") or module.startswith("__torch__"):
            return _Opaque
        return super().find_class(module, name)


def lite_counts(path):
    with zipfile.ZipFile(path) as archive:
        name = next(n for n in archive.namelist() if n.endswith("bytecode.pkl"))
        bytecode = _BytecodeUnpickler(io.BytesIO(archive.read(name))).load()
    counts, conditional = collections.Counter(), collections.Counter()
    for method in bytecode[1:]:  # bytecode[0] is the version
        if not method[0].endswith(".forward"):
            continue
        parts = {item[0]: item[1] for item in method[1] if isinstance(item, tuple) and len(item) == 2}
        operators = parts["operators"]
        instructions = parts["instructions"]
        # Instructions that a jump skips over belong to a branch (JF: jump if false, JMP).
        branched = set()
        for index, instruction in enumerate(instructions):
            if instruction[0] in ("JF", "JMP") and instruction[1] > 0:
                branched.update(range(index + 1, index + instruction[1]))
        for index, instruction in enumerate(instructions):
            if instruction[0] == "OP":
                name = operators[instruction[1]][0]
                counts[name] += 1
                if index in branched:
                    conditional[name] += 1
    return {"operators": dict(counts), "conditional": dict(conditional)}


def tflite_counts(path):
    from ai_edge_litert.interpreter import Interpreter
    interpreter = Interpreter(model_path=path)
    counts = collections.Counter(op["op_name"] for op in interpreter._get_ops_details())
    return {"operators": dict(counts), "conditional": {}}


def main():
    result = {}
    for path in sys.argv[1:]:
        if path.endswith(".ptl"):
            result[path] = lite_counts(path)
        elif path.endswith(".pt"):
            result[path] = torchscript_counts(path)
        else:
            result[path] = tflite_counts(path)
    json.dump(result, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
