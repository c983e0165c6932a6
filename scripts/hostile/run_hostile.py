"""`make test-hostile` (issue 37): the heavy hostile-input cases, with one line of counts at
the end: cases, deaths, hangs, wrong answers and lost variables, which must all be 0 but
the first.

    PYTHONPATH=python python scripts/hostile/run_hostile.py [--messages N] [--fuzz-runs N] [--files N]

Parts: the connection-file reader fuzzed under AddressSanitizer and compared with a
reference reader (connection_files.py); damaged wire messages and cells that hurt the
cell host against the installed kernel (kernel_campaign.py); 50 MB messages and the
value budget through jupyter_client (Tests/python/test_hostile_messages.py, each test a
case: a failure counts as a wrong answer).
"""
import argparse
import re
import subprocess
import sys

import connection_files  # scripts/hostile/, the script's own folder
import kernel_campaign
from benchbook_kit import ROOT


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--fuzz-runs", type=int, default=2_000_000)
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    cases, deaths, hangs, wrong, lost = connection_files.campaign(
        ROOT / ".build/hostile", args.fuzz_runs, args.files, args.seed) + (0,)
    for tally in kernel_campaign.campaign(args.messages, args.seed):
        cases += tally.cases
        deaths += tally.deaths
        hangs += tally.hangs
        wrong += tally.wrong
        lost += tally.lost
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
                          str(ROOT / "Tests/python/test_hostile_messages.py")], capture_output=True, text=True)
    print("\n".join(line for line in run.stdout.splitlines() if "objects:" in line or "passed" in line or "failed" in line))
    if run.returncode != 0:
        print(run.stdout[-4000:])
    passed = int(next(iter(re.findall(r"(\d+) passed", run.stdout)), 0))
    failed = int(next(iter(re.findall(r"(\d+) failed", run.stdout)), 0)) + int(next(iter(re.findall(r"(\d+) error", run.stdout)), 0))
    cases += passed + failed
    wrong += failed
    print(f"test-hostile: {cases:,} cases; deaths {deaths}, hangs {hangs}, wrong answers {wrong}, lost variables {lost}")
    return 1 if deaths or hangs or wrong or lost or run.returncode != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
