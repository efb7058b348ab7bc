"""Calibration: the skill at which a camp wins a target share, from a logistic fit
over a grid of skills, each grid point on games of its own."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from sim.game.errors import InputError
from sim.game.roles import Winner
from sim.play.runner import run
from sim.play.setup import Setup
from sim.play.stats import (
    z_of,
)


# -- calibration ----------------------------------------------------------------------------
def calibrate(base: Setup, *, param: str = "town_skill", target: float = 0.5,
              lo: float = 0.0, hi: float = 2.0, points: int = 9, games: int = 2000,
              seed: int = 0, jobs: int = 1, camp: str = "town") -> dict[str, Any]:
    """The value of `param` at which `camp` wins `target` of the games, with its 95% interval.

    Each grid point plays its own games (game indices k * games ... (k + 1) * games - 1 of
    the seed's stream), so the points are independent as the fit assumes. The fit
    (:func:`fit_calibration`) is a binomial logistic regression with a curvature term,
    its interval widened by the fit's dispersion when the curve does not fit the grid."""
    base.agents.with_params({param: lo})  # an unknown name or a value out of range fails here
    if not 0 < target < 1:
        raise InputError("calibrate: --target must be between 0 and 1")
    if points < 2 or hi <= lo:
        raise InputError("calibrate: need at least 2 points and a range lo < hi")
    winner = Winner[camp.upper()]
    xs = np.linspace(lo, hi, points)
    wins = np.zeros(points)
    for k, x in enumerate(xs):
        params = {**base.agents.params, param: float(x)}
        agents = replace(base.agents, params=params)
        res = run(replace(base, agents=agents), games=games, seed=seed, jobs=jobs,
                  start=k * games)
        wins[k] = res.tally.winners[winner]
    n = np.full(points, games, dtype=float)
    grid = [{"value": float(x), "share": float(w / games)} for x, w in zip(xs, wins, strict=True)]
    result: dict[str, Any] = {"param": param, "camp": camp, "target": target, "grid": grid,
                              "value": None}
    shares = wins / games
    if not shares.min() <= target <= shares.max():
        k = int(shares.argmin() if target < shares.min() else shares.argmax())
        side = "above" if target < shares.min() else "below"
        result["note"] = (f"{camp}'s share stays {side} {target:.0%} for {param} in [{lo}, {hi}]: "
                          f"it runs from {shares.min():.1%} to {shares.max():.1%}, the "
                          f"nearest at {param} = {xs[k]:.3g}")
        return result
    fit = fit_calibration(xs, wins, n, target)
    result["fit"] = fit["fit"]
    result["interpolated"] = fit["interpolated"]
    if fit["value"] is None:
        result["note"] = f"{camp}'s share does not cross {target:.0%} on the fitted curve"
        return result
    result.update(value=fit["value"], low=fit["low"], high=fit["high"])
    if fit.get("note"):
        result["note"] = fit["note"]
    return result


def fit_calibration(x: np.ndarray, wins: np.ndarray, n: np.ndarray, target: float,
                    conf: float = 0.95, window: int = 4) -> dict[str, Any]:
    """Solve a fitted curve of the win share against `x` for `target`, with an interval.

    The fit is local: a binomial logistic regression logit(share) = c0 + c1 u,
    u = (x - centre) / scale, by maximum likelihood on the `window` grid points nearest the
    first crossing of the target (the two around it and their neighbours), so a curve that
    bends far from the target does not pull the answer. The interval is the set of x at
    which the fitted logit is within z standard errors of logit(target) (inverse
    prediction, Fieller's form), the standard errors scaled by the dispersion
    max(1, X^2 / df) from the local fit's Pearson X^2: a line that misfits the points gives
    a wider interval rather than a falsely narrow one. Also returned: the value interpolated
    linearly between the two grid points around the target, as a check."""
    z = z_of(conf)
    x = np.asarray(x, dtype=float)
    wins = np.asarray(wins, dtype=float)
    n = np.asarray(n, dtype=float)
    share = wins / n
    interp = _interpolate(x, share, target)
    out: dict[str, Any] = {"interpolated": interp, "value": None}
    # the window: the grid points nearest the crossing
    at = interp if interp is not None else float(x[np.argmin(np.abs(share - target))])
    order = np.argsort(np.abs(x - at), kind="stable")
    use = np.sort(order[: max(2, min(window, len(x)))])
    xw, ww, nw = x[use], wins[use], n[use]
    centre, scale = (xw.max() + xw.min()) / 2, max((xw.max() - xw.min()) / 2, 1e-12)
    X = np.column_stack([np.ones(len(xw)), (xw - centre) / scale])
    beta, cov = _logistic_fit(X, ww, nw)
    p = 1 / (1 + np.exp(-(X @ beta)))
    dof = len(xw) - X.shape[1]
    x2 = float(np.sum((ww - nw * p) ** 2 / np.maximum(nw * p * (1 - p), 1e-300)))
    dispersion = max(1.0, x2 / dof) if dof > 0 else 1.0
    out["fit"] = {"model": "logit(share) = c0 + c1*u, u = (value - centre) / scale, on the "
                           "grid points nearest the target",
                  "points": [float(v) for v in xw], "coef": [float(b) for b in beta],
                  "centre": float(centre), "scale": float(scale), "pearson_x2": x2,
                  "df": dof, "dispersion": dispersion}
    if abs(beta[1]) < 1e-12:
        return out
    lt = math.log(target / (1 - target))
    u0 = (lt - beta[0]) / beta[1]
    x0 = float(centre + scale * u0)
    if not x.min() <= x0 <= x.max():
        return out
    fine = np.linspace(x.min(), x.max(), 4001)
    uf = (fine - centre) / scale
    Xf = np.column_stack([np.ones_like(uf), uf])
    eta = Xf @ beta - lt
    se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", Xf, cov, Xf), 0.0) * dispersion)
    inside = np.abs(eta) <= z * se
    i = int(np.clip(np.searchsorted(fine, x0), 1, len(fine) - 1))
    lo_i, hi_i = i, i - 1
    while lo_i > 0 and inside[lo_i - 1]:
        lo_i -= 1
    while hi_i < len(fine) - 1 and inside[hi_i + 1]:
        hi_i += 1
    low = float(min(fine[lo_i], x0))
    high = float(max(fine[hi_i], x0))
    out.update(value=x0, low=low, high=high)
    if (lo_i == 0 and inside[0]) or (hi_i == len(fine) - 1 and inside[-1]):
        out["note"] = ("the interval reaches the edge of the range searched: widen --range "
                       "or play more games per point")
    return out


def _interpolate(x: np.ndarray, share: np.ndarray, target: float) -> float | None:
    """The first crossing of `target` by the grid shares, interpolated linearly."""
    for k in range(len(x) - 1):
        a, b = share[k] - target, share[k + 1] - target
        if a == 0:
            return float(x[k])
        if a * b < 0:
            return float(x[k] + (x[k + 1] - x[k]) * a / (a - b))
    return float(x[-1]) if share[-1] == target else None


def _logistic_fit(X: np.ndarray, wins: np.ndarray, n: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Binomial logistic regression of wins out of n on the columns of X by Newton's
    method; returns the coefficients and their covariance (inverse information)."""
    k = X.shape[1]
    beta = np.zeros(k)
    ridge = 1e-10 * np.eye(k)
    info = np.eye(k)
    for _ in range(100):
        p = 1 / (1 + np.exp(-(X @ beta)))
        grad = X.T @ (wins - n * p)
        w = n * p * (1 - p)
        info = X.T @ (X * w[:, None])
        step = np.linalg.solve(info + ridge, grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta, np.linalg.inv(info + ridge)
