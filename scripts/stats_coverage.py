"""Coverage of the intervals in sim.play.stats and of calibrate's fit, measured the way
tests/test_stats.py and tests/test_analysis.py check them: exact enumeration for win
shares and paired differences, simulated grids for the calibration.

Run: PYTHONPATH=. .venv/bin/python scripts/stats_coverage.py   (about a minute, one core)
"""

from __future__ import annotations

import math

import numpy as np

from sim.analysis.calibrate import fit_calibration
from sim.play.stats import Z95, paired_diff_interval, share_interval, wilson


def share_coverage(n: int, p: float, interval: object) -> float:
    total = 0.0
    for k in range(n + 1):
        lo, hi = interval(k, n)  # type: ignore[operator]
        if lo <= p <= hi:
            total += math.comb(n, k) * p**k * (1 - p) ** (n - k)
    return total


def wald(b: int, c: int, n: int) -> tuple[float, float, float]:
    """The per-game-difference Wald interval the paired rows used before issue 11."""
    d = (b - c) / n
    se = math.sqrt(max((b + c) / n - d * d, 0.0) / (n - 1))
    return d, d - Z95 * se, d + Z95 * se


def paired_coverage(n: int, p12: float, p21: float, interval: object) -> float:
    total = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if (b and not p12) or (c and not p21):
                continue
            r = n - b - c
            w = math.exp(math.lgamma(n + 1) - math.lgamma(b + 1) - math.lgamma(c + 1)
                         - math.lgamma(r + 1)) * p12**b * p21**c * (1 - p12 - p21) ** r
            _, lo, hi = interval(b, c, n)  # type: ignore[operator]
            if lo - 1e-12 <= p12 - p21 <= hi + 1e-12:
                total += w
    return total


def main() -> None:
    print("win shares, p in (0, 10/n): lowest and mean coverage (exact)")
    for n in (20, 100, 1000):
        ps = [i / (40 * n) for i in range(1, 400, 3)]
        for name, f in (("modified Wilson", share_interval), ("plain Wilson", wilson)):
            cov = [share_coverage(n, p, f) for p in ps]
            print(f"  n={n:<5} {name:<16} min {min(cov):.3f}  mean {np.mean(cov):.3f}")
    print("paired differences over P(B only), P(A only) in {0,.005,.01,.02,.05,.1,.2,.3}")
    vals = [0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3]
    for n in (20, 40, 100):
        for name, f in (("Tango", paired_diff_interval), ("Wald", wald)):
            cov = [paired_coverage(n, a, b, f) for a in vals for b in vals if a + b > 0]
            print(f"  n={n:<4} {name:<6} min {min(cov):.3f}  mean {np.mean(cov):.3f}")
    print("calibration, smooth S-curve shaped like the committed 75% grid, 300 replicates")
    def curve(x: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-(0.27 + 0.4 * x + 12 * x**2 - 12 * x**3)))
    fine = np.linspace(0, 0.6, 600_001)
    true = fine[np.argmin(np.abs(curve(fine) - 0.75))]
    rng = np.random.default_rng(2)
    for points, games in ((7, 4000), (7, 500), (13, 1000)):
        x = np.linspace(0, 0.6, points)
        n_ = np.full(points, float(games))
        hits = 0
        for _ in range(300):
            res = fit_calibration(x, rng.binomial(games, curve(x)).astype(float), n_, 0.75)
            hits += res["value"] is not None and res["low"] <= true <= res["high"]
        print(f"  {points} points x {games} games: coverage {hits / 300:.3f}")


if __name__ == "__main__":
    main()
