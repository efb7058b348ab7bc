"""Answers built on the runner, one module each: paired comparisons (compare), sweeps
(sweep), recommendations (recommend), odds from a position (odds), skill calibration
(calibrate), best-response searches (search), exact counts (exact), the committed studies
and findings (studies, findings) and the benchmark (bench).

Imports the play layer and below; the front ends import it.
"""
