"""Percentiles with the notebook library's definition.

LatencyStatistics.percentile (Sources/Library/BenchbookBenchmark/Statistics/LatencyStatistics.swift)
interpolates linearly between the two nearest ranks, as NumPy's default (method="linear");
every script and test here uses this one, so a p90 printed by a script and one printed by
a notebook mean the same thing.
"""
import numpy as np


def percentile(values, p):
    """The `p`-th percentile (0 to 100) of `values` (any order), NumPy's linear interpolation;
    None when there are no values."""
    values = list(values)
    return float(np.percentile(values, p)) if values else None
