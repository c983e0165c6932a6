"""ExecuTorch programs (.pte) from notebook cells, through a real jupyter_client: load, classify
a course photo, and each bad input (a truncated program, a wrong identifier, a backend the
runtime lacks, an operator without a kernel, a wrong input shape) as an error in its cell that
names the file and what is wrong, with every earlier variable kept."""
import os

from benchbook_kit import ROOT
from benchbook_kit.kernel import errors, results, run_cell

PROGRAMS = str(ROOT / "notebooks" / "models" / "executorch")
PHOTOS = str(ROOT / "models" / "generated" / "sources" / "images")


def damaged_copies(directory):
    """A truncated program, one with another identifier, one delegating to a backend that is not
    linked, one calling an operator without a kernel: {name: path}."""
    original = open(os.path.join(PROGRAMS, "fashion_cnn.pte"), "rb").read()
    portable = open(os.path.join(PROGRAMS, "fashion_cnn_portable.pte"), "rb").read()
    copies = {
        "truncated.pte": original[: len(original) // 3],
        "magic.pte": original[:4] + b"PK\x03\x04" + original[8:],
        "vulkan.pte": original.replace(b"XnnpackBackend", b"VulkanBackend!"),
        "unknown-op.pte": portable.replace(b"aten::max_pool2d_with_indices", b"bbxx::max_pool2d_with_indices"),
    }
    paths = {}
    for name, data in copies.items():
        path = os.path.join(directory, name)
        with open(path, "wb") as f:
            f.write(data)
        paths[name] = path
    return paths


def test_programs_in_cells_and_bad_input_keeps_every_variable(kernel, tmp_path):
    km, kc = kernel
    reply, _ = run_cell(kc, "import Benchbook\nlet before = 41")
    assert reply["status"] == "ok", reply
    reply, outputs = run_cell(kc, f'let fashion = try Model(contentsOf: "{PROGRAMS}/fashion_cnn.pte")\n'
                                  "fashion.labels?.count")
    assert results(outputs) == ["Optional(10)"], (reply, outputs)
    reply, outputs = run_cell(kc, f'let net = try Model(contentsOf: "{PROGRAMS}/efficientnet_lite0.pte")\n'
                                  f'let photo = try Image(contentsOfFile: "{PHOTOS}/coffee.png")\n'
                                  "try net.predictTop5(photo).first!.label")
    assert results(outputs) == ['"espresso"'], (reply, outputs)

    paths = damaged_copies(str(tmp_path))
    for name, expected in [("truncated.pte", "the file is truncated"),
                           ("magic.pte", "no ExecuTorch identifier"),
                           ("vulkan.pte", "backend VulkanBackend!, which is not linked"),
                           ("unknown-op.pte", "bbxx::max_pool2d_with_indices.out, for which this runtime has no kernel")]:
        reply, outputs = run_cell(kc, f'let broken = try Model(contentsOf: "{paths[name]}")')
        assert reply["status"] == "error", (name, reply)
        text = reply["evalue"] + " ".join(e["evalue"] for e in errors(outputs))
        assert name in text and expected in text, (name, text)
        assert km.is_alive()
    reply, outputs = run_cell(kc, "try fashion.run(Tensor(shape: [2, 1, 28, 28], float32: [Float](repeating: 0, count: 1568)))")
    assert reply["status"] == "error", reply
    text = reply["evalue"] + " ".join(e["evalue"] for e in errors(outputs))
    assert "fashion_cnn.pte" in text and "[1, 1, 28, 28]" in text and "[2, 1, 28, 28]" in text, text

    # Everything from before the errors is still there and still works.
    reply, outputs = run_cell(kc, "before + 1")
    assert results(outputs) == ["42"], (reply, outputs)
    reply, outputs = run_cell(kc, "try fashion.run(Tensor(shape: [1, 1, 28, 28], float32: [Float](repeating: 0, count: 784))).shape")
    assert results(outputs) == ["[1, 10]"], (reply, outputs)
    reply, outputs = run_cell(kc, "try net.predictTop5(photo).first!.label")
    assert results(outputs) == ['"espresso"'], (reply, outputs)

    # A crash: the snapshot of the host from before the cell takes over (a forked copy, whose
    # ExecuTorch thread pool starts anew), and the programs loaded before it still run there.
    reply, _ = run_cell(kc, "let empty: [Int] = []\nempty[1]")
    assert reply["status"] == "error" and reply["ename"] == "Crash", reply
    reply, outputs = run_cell(kc, "try net.predictTop5(photo).first!.label")
    assert results(outputs) == ['"espresso"'], (reply, outputs)
    reply, outputs = run_cell(kc, "before + fashion.labels!.count")
    assert results(outputs) == ["51"], (reply, outputs)
