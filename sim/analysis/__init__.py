"""Answers built on the runner: statistics and intervals, paired comparisons, sweeps,
recommendations, odds, calibration, best-response searches, exact counts, studies, findings
and the benchmark.

Imports the play layer and below; the front ends import it.
"""
