"""Time, peak memory and report size of the claims checker (scripts/notebooks/check_claims.py) on
issue 49's inputs: one output holding a 10,000- and a 64,000-item list of "faster"/"slower" (100 KB,
640 KB), and a 10 MB notebook of every hostile shape in benchbook_kit.adversarial.

    PYTHONPATH=python .venv/bin/python scripts/notebooks/measure_claims_checker.py [--limit-mb 4000] [--checkout DIR]

--checkout measures the checker of another checkout (its scripts/ and python/) on the same inputs,
e.g. the one before issue 49: `git worktree add /tmp/before a355e27`, then --checkout /tmp/before.

Each run is a fresh process under an address-space limit (a checker that blows up stops there
instead of taking the machine); prints a Markdown table with the load average beside each figure.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from benchbook_kit import ROOT, adversarial

def inputs(folder):
    def one_output(text):
        return {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
            {"cell_type": "code", "metadata": {}, "source": "words", "execution_count": 1, "outputs": [
                {"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/plain": text}}]}]}
    yield "100 KB word list (issue 49)", adversarial.write(os.path.join(folder, "list100k.ipynb"),
                                                            one_output(adversarial.word_list(100_000)))
    yield "640 KB word list (issue 49)", adversarial.write(os.path.join(folder, "list640k.ipynb"),
                                                            one_output(adversarial.word_list(640_000)))
    yield "10 MB, every hostile shape", adversarial.write(os.path.join(folder, "adversarial10mb.ipynb"),
                                                           adversarial.notebook(10_000_000))


def measure(path, limit_bytes, checkout):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    start = time.monotonic()
    with tempfile.TemporaryFile() as report:
        result = subprocess.run([sys.executable, os.path.join(checkout, "scripts", "notebooks", "check_claims.py"), path],
                                stdout=report, stderr=subprocess.PIPE, preexec_fn=limit,
                                env=dict(os.environ, PYTHONPATH=os.path.join(checkout, "python")))
        seconds = time.monotonic() - start
        report_bytes = report.seek(0, os.SEEK_END)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)      # ru_maxrss: the largest child's so far (inputs grow)
    failed = result.returncode not in (0, 1) or b"Traceback" in result.stderr      # a crash also exits 1
    return {"seconds": seconds, "user": after.ru_utime - before.ru_utime, "max_rss_mb": after.ru_maxrss / 1024,
            "report": report_bytes, "exit": result.returncode, "load": load,
            "note": result.stderr.decode(errors="replace").strip().splitlines()[-1][:80] if failed and result.stderr else ""}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit-mb", type=int, default=4000, help="address-space limit of each run (MB)")
    parser.add_argument("--checkout", default=str(ROOT), help="the checkout whose checker runs (default: this one)")
    args = parser.parse_args()
    print("| input | size | wall s | user s | max RSS (MB) | report (bytes) | exit | load (1 min) |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name, path in inputs(folder):
            figures = measure(path, args.limit_mb * 1024 * 1024, args.checkout)
            note = f" ({figures['note']})" if figures["note"] else ""
            print(f"| {name} | {os.path.getsize(path):,} B | {figures['seconds']:.2f} | {figures['user']:.2f} | "
                  f"{figures['max_rss_mb']:.0f} | {figures['report']:,} | {figures['exit']}{note} | {figures['load']:.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
