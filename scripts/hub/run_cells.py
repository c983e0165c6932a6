"""Runs cells in fresh Swift kernels, one kernel per notebook (or per list of cells), in order,
as a student does with "Run All": what `make warm-cache` runs (in the single-user image, or on
this machine) to fill a class's cell cache, since a kernel stores every cell it compiles in
BENCHBOOK_CELL_CACHE.

    python run_cells.py --cwd NOTEBOOK_DIR NOTEBOOK.ipynb ...
    python run_cells.py --cwd NOTEBOOK_DIR --cells CELLS.json     (a list of lists of cells)

Prints, per notebook, its cells, how many ended in an error, and the seconds it took. Needs
only jupyter_client (the image has it).
"""
import argparse
import json
import os
import time

from jupyter_client.manager import start_new_kernel


def run(cells, cwd, kernel_name, timeout):
    km, kc = start_new_kernel(kernel_name=kernel_name, startup_timeout=120, cwd=cwd, env=dict(os.environ))
    errors = 0
    try:
        for code in cells:
            msg_id = kc.execute(code, store_history=True)
            deadline = time.time() + timeout
            while True:
                reply = kc.get_shell_msg(timeout=max(1, deadline - time.time()))
                if reply["parent_header"].get("msg_id") == msg_id:
                    break
            errors += reply["content"]["status"] != "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*")
    parser.add_argument("--cells", help="a JSON file: a list of lists of cells, each list in a kernel of its own")
    parser.add_argument("--cwd", default=os.getcwd(), help="the kernels' working directory (the notebooks' folder)")
    parser.add_argument("--kernel", default="swift")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    groups = []
    for name in args.notebooks:
        notebook = json.load(open(os.path.join(args.cwd, name) if not os.path.isabs(name) else name))
        groups.append((name, ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]))
    if args.cells:
        groups += [(f"cells {i + 1}", cells) for i, cells in enumerate(json.load(open(args.cells)))]
    for name, cells in groups:
        started = time.time()
        errors = run(cells, args.cwd, args.kernel, args.timeout)
        print(f"{name}: {len(cells)} cells, {errors} ended in an error, {time.time() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()
