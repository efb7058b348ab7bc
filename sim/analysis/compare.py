"""Paired comparisons on common random numbers: two setups played on the same
seeded games, their win shares' paired differences with intervals."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.game.errors import MafiaSimError
from sim.game.roles import Winner
from sim.play.runner import run
from sim.play.setup import Setup
from sim.play.stats import (
    mcnemar_p,
    paired_diff_interval,
    unpaired_diff_interval,
)


# -- paired comparison on common random numbers ---------------------------------------------
def paired_compare(winners_a: np.ndarray, winners_b: np.ndarray, *, identical: bool = False
                   ) -> dict[str, dict[str, float]]:
    """Per camp: share in A and B, B - A with its paired 95% interval (Tango's score
    interval, sim.play.stats.paired_diff_interval) and McNemar's p-value (mid-p when the
    discordant games are few), and the unpaired interval half-width (Newcombe's hybrid
    score) for reference. Game i of both arms used the same seed. `identical`: the arms are
    the same by construction, so every difference is exactly 0 with no uncertainty."""
    if len(winners_a) != len(winners_b):
        raise MafiaSimError("paired comparison needs the same games in both arms")
    n = len(winners_a)
    out = {}
    for w in Winner:
        a = winners_a == w
        b = winners_b == w
        b_only = int(np.count_nonzero(b & ~a))
        a_only = int(np.count_nonzero(a & ~b))
        wins_a, wins_b = int(np.count_nonzero(a)), int(np.count_nonzero(b))
        pa, pb = (wins_a / n, wins_b / n) if n else (0.0, 0.0)
        if identical and b_only == a_only == 0:
            diff, low, high, p = 0.0, 0.0, 0.0, 1.0
        else:
            diff, low, high = paired_diff_interval(b_only, a_only, n)
            p = mcnemar_p(b_only, a_only)
        _, ulow, uhigh = unpaired_diff_interval(wins_b, wins_a, n, n)
        out[w.key] = {
            "a": pa, "b": pb, "diff": diff, "low": low, "high": high, "p_value": p,
            "b_only": b_only, "a_only": a_only,
            "half_width_paired": (high - low) / 2, "half_width_unpaired": (uhigh - ulow) / 2,
        }
    return out


def same_by_construction(a: Setup, b: Setup) -> bool:
    """Whether two arms play the same games by construction (same table, rules, agents)."""
    return a.describe() == b.describe() and a.on_illegal == b.on_illegal


#: games per round of a comparison: both arms play a round before the next one starts, so
#: an interrupted comparison has paired games to report (a round is a few seconds of play)
ROUND_GAMES = 2000


def compare(a: Setup, b: Setup, *, games: int, seed: int, jobs: int = 1,
            round_games: int = ROUND_GAMES, **kw: Any) -> dict[str, Any]:
    """Play both arms on the same games (game i of each with seed `seed`), a round of
    `round_games` at a time, A then B. Ctrl-C stops both at once: the result is the paired
    comparison of the games both arms finished (`games`), `interrupted` is True, and
    `requested` says how many were asked for."""
    rows_a: list[np.ndarray] = []
    rows_b: list[np.ndarray] = []
    seconds, done, interrupted = 0.0, 0, False
    while done < games and not interrupted:
        n = min(round_games, games - done)
        for setup, rows in ((a, rows_a), (b, rows_b)):
            res = run(setup, games=n, seed=seed, jobs=jobs, keep_rows=True, start=done, **kw)
            seconds += res.seconds
            assert res.rows is not None
            rows.append(res.rows)
            if res.interrupted:
                interrupted = True
                break
        done += n
    ra = np.concatenate(rows_a) if rows_a else np.zeros((0, 2), np.int32)
    rb = np.concatenate(rows_b) if rows_b else np.zeros((0, 2), np.int32)
    both = np.intersect1d(ra[:, 0], rb[:, 0])  # the games both arms finished
    wa = ra[np.isin(ra[:, 0], both)]
    wb = rb[np.isin(rb[:, 0], both)]
    wa, wb = wa[np.argsort(wa[:, 0])], wb[np.argsort(wb[:, 0])]
    identical = same_by_construction(a, b)
    camps = paired_compare(wa[:, 1], wb[:, 1], identical=identical)
    return {"games": len(both), "requested": games, "interrupted": interrupted, "seed": seed,
            "identical": identical, "a": a.describe(), "b": b.describe(), "camps": camps,
            "seconds": seconds}
