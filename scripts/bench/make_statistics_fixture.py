"""Writes the NumPy reference values the Swift benchmark statistics are tested against.

    .venv/bin/python scripts/bench/make_statistics_fixture.py [output.json]

Default output: Tests/Fixtures/benchmark/statistics-reference.json (committed; re-run after
changing the sample sets). Percentiles use numpy.percentile's default (method="linear"),
the standard deviation numpy.std's default (ddof=0). The Mann-Whitney reference is the
asymptotic two-sided test with tie and continuity correction, computed here from ranks.
"""
import json
import math
import pathlib
import sys

import numpy as np

PERCENTILES = [0, 1, 12.5, 25, 33.3, 50, 75, 90, 95, 99, 99.9, 100]


def sample_sets():
    rng = np.random.default_rng(20261129)
    # Run times shaped like real ones: log-normal around 1.2 ms with a few slow outliers.
    latency = rng.lognormal(mean=math.log(1.2e-3), sigma=0.08, size=500)
    latency[rng.choice(500, 7, replace=False)] *= rng.uniform(2, 6, 7)
    # Sub-microsecond timings, as an empty closure gives (clock granularity: 10 ns steps).
    tiny = np.round(rng.normal(35e-9, 4e-9, 1000) / 1e-8) * 1e-8
    return {
        "latency_500": latency.tolist(),
        "tiny_ties_1000": tiny.tolist(),
        "short_7": [0.0105, 0.0098, 0.0101, 0.0121, 0.0099, 0.0100, 0.0350],
        "pair": [2.0, 1.0],
        "single": [0.25],
        "all_equal": [0.003] * 11,
    }


def mann_whitney(first, second):
    first = np.asarray(first, dtype=float)
    second = np.asarray(second, dtype=float)
    n1, n2 = len(first), len(second)
    pooled = np.concatenate([first, second])
    order = np.argsort(pooled, kind="mergesort")
    ranks = np.empty(len(pooled))
    sorted_values = pooled[order]
    tie_term = 0.0
    i = 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and sorted_values[j + 1] == sorted_values[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        t = j - i + 1
        tie_term += t ** 3 - t
        i = j + 1
    u = ranks[:n1].sum() - n1 * (n1 + 1) / 2
    n = n1 + n2
    variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)))
    z = max(abs(u - n1 * n2 / 2) - 0.5, 0) / math.sqrt(variance)
    return float(u), float(min(1.0, math.erfc(z / math.sqrt(2))))


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                       "Tests/Fixtures/benchmark/statistics-reference.json")
    cases = []
    for name, samples in sample_sets().items():
        a = np.asarray(samples)
        cases.append({
            "name": name,
            "samples": samples,
            "min": float(a.min()), "max": float(a.max()),
            "mean": float(np.mean(a)), "std": float(np.std(a)),
            "median": float(np.percentile(a, 50)),
            "p90": float(np.percentile(a, 90)), "p99": float(np.percentile(a, 99)),
            "percentiles": {str(p): float(np.percentile(a, p)) for p in PERCENTILES},
        })
    rng = np.random.default_rng(7)
    base = rng.lognormal(math.log(1e-3), 0.05, 200)
    tests = []
    for name, first, second in [
        ("same_distribution", rng.lognormal(math.log(1e-3), 0.05, 200), base),
        ("five_percent_slower", rng.lognormal(math.log(1.05e-3), 0.05, 200), base),
        ("with_ties", [1, 2, 2, 3, 3, 3, 4], [2, 3, 4, 4, 5, 5, 6, 7]),
    ]:
        u, p = mann_whitney(first, second)
        tests.append({"name": name, "first": list(map(float, first)), "second": list(map(float, second)),
                      "u": u, "p": p})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"numpy": np.__version__, "statistics": cases, "mann_whitney": tests}, indent=1) + "\n")
    print(out)


if __name__ == "__main__":
    main()
