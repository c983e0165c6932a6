"""Paired accuracy (PairedAccuracyComparison, Sources/Library/BenchbookModels/Evaluation) against
reference implementations, through `benchbook-models paired` (one 2 × 2 table per line in, one
JSON line out):

- McNemar's exact test against statsmodels' `mcnemar(exact=True)` and scipy's `binomtest`, on
  edge cases (no discordant image, one side's discordant count 0, ties, tiny and huge tables)
  and on 600 random tables;
- Newcombe's hybrid score interval for the paired difference against the formula computed here
  from statsmodels' Wilson intervals of the two margins (`proportion_confint(method="wilson")`);
- the interval's coverage, computed exactly over every table of 40 images and by simulation on
  10,000 images at classifier-like accuracies, near 95 %, where the Wald interval's falls short;
- the verdict rule, and every sentence read back by the claims checker.

Needs the model tool: `make models-tool` (BENCHBOOK_MODELS_BIN names another build).
"""
import json
import math
import os
import subprocess

import numpy as np
import pytest
from scipy.stats import binomtest, multinomial
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

from benchbook_kit import ROOT
from benchbook_kit.claims import check_piece

BIN = os.environ.get("BENCHBOOK_MODELS_BIN", str(ROOT / ".build/release/benchbook-models"))
Z = 1.959963984540054

# (both right, only A right, only B right, both wrong): A is the candidate, B the baseline.
EDGE_TABLES = [
    (9990, 0, 0, 10), (0, 0, 0, 10), (10, 0, 0, 0), (5, 0, 0, 5), (1, 0, 0, 0),     # no discordant image
    (10, 0, 5, 0), (10, 5, 0, 0), (0, 0, 1, 0), (0, 1, 0, 0), (0, 0, 25, 0),           # one side's count 0
    (50, 3, 0, 47), (8000, 0, 40, 1960), (9000, 1, 0, 999),
    (0, 7, 7, 0), (100, 250, 250, 400), (8700, 30, 30, 1240),                          # ties
    (8700, 61, 19, 1220), (9000, 20, 25, 955), (100, 2000, 1500, 0),
    (1_000_000, 3000, 3300, 50_000), (0, 50_000, 49_000, 0), (0, 600, 400, 0),         # large
    (1, 1, 7, 12), (59, 6, 16, 80), (10, 15, 5, 20),                                   # small clinical-style tables
]


def run_tool(tables, band=0.5):
    """The tool's answer for each table."""
    text = "".join(f"{a} {b} {c} {d} {band}\n" for a, b, c, d in tables)
    result = subprocess.run([BIN, "paired"], input=text, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(tables)
    return answers


def random_tables(count, seed=45):
    """Tables from 10 to 20,000 images, accuracies from chance to near 100 %, few to many discordant."""
    rng = np.random.default_rng(seed)
    tables = []
    for _ in range(count):
        n = int(rng.integers(10, 20_001))
        p = rng.dirichlet([rng.uniform(0.2, 20), rng.uniform(0.05, 2), rng.uniform(0.05, 2), rng.uniform(0.2, 5)])
        tables.append(tuple(int(v) for v in rng.multinomial(n, p)))
    return tables


def newcombe(a, b, c, d):
    """Newcombe's hybrid score interval (1998, method 10) for (a + b)/n − (a + c)/n from the
    formula, its margins' Wilson intervals from statsmodels."""
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = proportion_confint(a + b, n, alpha=0.05, method="wilson")
    l2, u2 = proportion_confint(a + c, n, alpha=0.05, method="wilson")
    margins = [a + b, c + d, a + c, b + d]
    phi = 0.0
    if min(margins) > 0:
        cross = a * d - b * c
        corrected = cross - n / 2 if cross > n / 2 else (0 if cross >= 0 else cross)
        phi = corrected / math.sqrt(math.prod(float(m) for m in margins))
    low = p1 - p2 - math.sqrt(max(0.0, (p1 - l1) ** 2 + (u2 - p2) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)))
    high = p1 - p2 + math.sqrt(max(0.0, (p2 - l2) ** 2 + (u1 - p1) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1)))
    return p1 - p2, max(-1.0, low), min(1.0, high)


def expected_verdict(low, high, p, band):
    """The documented rule: a direction needs the interval to clear 0 and p < 0.05; equivalent
    needs the whole interval inside ±band points; otherwise undecided."""
    if low > 0 and p < 0.05:
        return "higher"
    if high < 0 and p < 0.05:
        return "lower"
    if low >= -band / 100 and high <= band / 100:
        return "equivalent"
    return "undecided"


@pytest.fixture(scope="module")
def tool():
    if not os.path.exists(BIN):
        pytest.fail(f"{BIN} is missing: run `make models-tool`")
    return run_tool


ALL_TABLES = EDGE_TABLES + random_tables(600)


def test_mcnemar_matches_statsmodels_and_scipy(tool):
    answers = tool(ALL_TABLES)
    for (a, b, c, d), answer in zip(ALL_TABLES, answers):
        reference = mcnemar([[a, b], [c, d]], exact=True).pvalue
        assert answer["p"] == pytest.approx(reference, rel=1e-9, abs=1e-300), (a, b, c, d)
        if b + c > 0:
            assert answer["p"] == pytest.approx(binomtest(b, b + c, 0.5).pvalue, rel=1e-9, abs=1e-300), (a, b, c, d)
        else:
            assert answer["p"] == 1.0


def test_tiny_p_values_keep_their_digits(tool):
    """Far in the tail the p-value is still right to nine digits, not rounded to 0 early."""
    tables = [(0, 200, 20, 0), (0, 1000, 700, 0), (0, 0, 1000, 0), (5000, 10, 90, 100)]
    for table, answer in zip(tables, tool(tables)):
        b, c = table[1], table[2]
        reference = binomtest(b, b + c, 0.5).pvalue
        assert reference < 1e-10
        assert answer["p"] == pytest.approx(reference, rel=1e-9, abs=1e-300), table


def test_interval_matches_newcombes_formula_on_statsmodels_wilson_margins(tool):
    for table, answer in zip(ALL_TABLES, tool(ALL_TABLES)):
        if sum(table) == 0:
            continue
        estimate, low, high = newcombe(*table)
        assert answer["difference"] == pytest.approx(estimate, abs=1e-12), table
        assert answer["lower"] == pytest.approx(low, abs=1e-10), table
        assert answer["upper"] == pytest.approx(high, abs=1e-10), table
        assert answer["lower"] <= answer["difference"] <= answer["upper"]


def test_interval_is_antisymmetric_and_wider_with_fewer_images(tool):
    tables = [(900, 40, 20, 40), (900, 20, 40, 40), (90, 4, 2, 4)]
    forward, backward, small = tool(tables)
    assert backward["lower"] == pytest.approx(-forward["upper"], abs=1e-12)
    assert backward["upper"] == pytest.approx(-forward["lower"], abs=1e-12)
    assert small["upper"] - small["lower"] > 2.5 * (forward["upper"] - forward["lower"])


def test_exact_coverage_over_every_table_of_40_images(tool):
    """The probability, summed exactly over all 12,341 tables of 40 images, that the interval
    holds the true difference, for 200 random true tables: near 95 % on average and never far
    below, where the Wald interval (difference ± 1.96 standard errors) covers visibly less."""
    n = 40
    tables = [(a, b, c, n - a - b - c) for a in range(n + 1) for b in range(n + 1 - a) for c in range(n + 1 - a - b)]
    answers = tool(tables)
    counts = np.array(tables)
    low = np.array([x["lower"] for x in answers])
    high = np.array([x["upper"] for x in answers])
    b, c = counts[:, 1], counts[:, 2]
    wald_difference = (b - c) / n
    wald_half = Z * np.sqrt(np.maximum((b + c) / n - wald_difference ** 2, 0) / n)
    rng = np.random.default_rng(40)
    coverage, wald = [], []
    for _ in range(200):
        truth = rng.dirichlet([1, 1, 1, 1])
        difference = truth[1] - truth[2]
        probability = multinomial.pmf(counts, n, truth)
        coverage.append(probability[(low <= difference) & (difference <= high)].sum())
        wald.append(probability[np.abs(wald_difference - difference) <= wald_half].sum())
    coverage, wald = np.array(coverage), np.array(wald)
    assert 0.94 <= coverage.mean() <= 0.965, coverage.mean()
    assert coverage.min() >= 0.90, coverage.min()
    assert wald.mean() < coverage.mean() - 0.01 and wald.min() < 0.88, (wald.mean(), wald.min())


@pytest.mark.parametrize("truth", [
    (0.88, 0.015, 0.010, 0.095),     # two classifiers near 89 %, 2.5 % of images discordant
    (0.97, 0.002, 0.002, 0.026),     # near 97 %, equally accurate, 0.4 % discordant
])
def test_simulated_coverage_on_10000_images(tool, truth):
    """2,000 simulated test sets of 10,000 images with classifier-like accuracies and few
    discordant images: the interval holds the true difference about 95 % of the time."""
    rng = np.random.default_rng(10_000)
    tables = [tuple(int(v) for v in rng.multinomial(10_000, truth)) for _ in range(2000)]
    difference = truth[1] - truth[2]
    answers = tool(tables)
    covered = sum(x["lower"] <= difference <= x["upper"] for x in answers) / len(answers)
    assert 0.935 <= covered <= 0.97, covered


def test_verdicts_follow_the_rule(tool):
    for band in [0.5, 1.0, 2.0]:
        for table, answer in zip(ALL_TABLES, tool(ALL_TABLES, band=band)):
            assert answer["verdict"] == expected_verdict(answer["lower"], answer["upper"], answer["p"], band), table
    # Each verdict occurs among these tables, so the rule is exercised both ways.
    verdicts = {answer["verdict"] for answer in tool(ALL_TABLES)}
    assert verdicts == {"higher", "lower", "equivalent", "undecided"}


@pytest.mark.parametrize("band", [0.5, 1.0])
def test_every_sentence_passes_the_claims_checker(tool, band):
    """The sentences the library writes are the forms claims.py reads back; it recomputes
    McNemar's p from the discordant counts, so a wrong p or verdict would show."""
    for table, answer in zip(ALL_TABLES, tool(ALL_TABLES, band=band)):
        checked, problems = check_piece(answer["sentence"])
        assert checked == 1 and problems == [], (table, answer["sentence"], problems)
