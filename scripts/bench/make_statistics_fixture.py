"""Writes the NumPy reference values the Swift benchmark statistics are tested against.

    .venv/bin/python scripts/bench/make_statistics_fixture.py [output.json]

Default output: Tests/Fixtures/benchmark/statistics-reference.json (committed; re-run after
changing the sample sets). Percentiles use numpy.percentile's default (method="linear"),
the standard deviation numpy.std's default (ddof=0). The Mann-Whitney reference is the
asymptotic two-sided test with tie and continuity correction, computed here from ranks. The
bootstrap references are NumPy percentile-bootstrap 95 % intervals with 40,000 resamples.
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


def bootstrap(values, statistic, rng, resamples=40000):
    """Percentile-bootstrap 95 % interval of statistic(values) with NumPy (many resamples, so
    its own Monte Carlo error is small next to the Swift library's 2,000)."""
    values = np.asarray(values, dtype=float)
    draws = rng.integers(0, len(values), size=(resamples, len(values)))
    estimates = statistic(values[draws])
    return [float(np.percentile(estimates, 2.5)), float(np.percentile(estimates, 97.5))]


def bootstrap_cases(sets):
    """Intervals of the median and p90 of recorded sets, and of a median ratio of two sets,
    resampled independently and by pairs."""
    rng = np.random.default_rng(424242)
    cases = []
    for name in ["latency_500", "short_7"]:
        values = np.asarray(sets[name])
        for p in [50, 90]:
            cases.append({"name": f"{name} p{p}", "kind": "percentile", "p": p, "samples": sets[name],
                          "estimate": float(np.percentile(values, p)),
                          "interval": bootstrap(values, lambda x: np.percentile(x, p, axis=1), rng)})
    base = rng.lognormal(math.log(1e-3), 0.05, 150)
    drift = np.linspace(1.0, 1.3, 150)           # both sides slow down together, in rounds
    slower = rng.lognormal(math.log(1.08e-3), 0.05, 150)
    for paired, a, b in [(False, slower, base), (True, slower * drift, base * drift)]:
        draws = rng.integers(0, 150, size=(40000, 150))
        if paired:
            ratios = np.median(a[draws], axis=1) / np.median(b[draws], axis=1)
        else:
            other = rng.integers(0, 150, size=(40000, 150))
            ratios = np.median(a[draws], axis=1) / np.median(b[other], axis=1)
        cases.append({"name": "median ratio, " + ("paired rounds with drift" if paired else "independent"),
                      "kind": "ratio", "paired": paired, "candidate": a.tolist(), "baseline": b.tolist(),
                      "estimate": float(np.median(a) / np.median(b)),
                      "interval": [float(np.percentile(ratios, 2.5)), float(np.percentile(ratios, 97.5))]})
    return cases


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
    out.write_text(json.dumps({"numpy": np.__version__, "statistics": cases, "mann_whitney": tests,
                               "bootstrap": bootstrap_cases(sample_sets())}, indent=1) + "\n")
    print(out)


if __name__ == "__main__":
    main()
