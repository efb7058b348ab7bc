"""Odds from a position: each camp's chance to win a game given in the resolve
schema, played on from there by the agents."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.game.roles import Winner
from sim.play.setup import Setup
from sim.play.stats import (
    share_interval,
)
from sim.play.streams import game_streams


# -- odds from a position -------------------------------------------------------------------
def odds_batch(game: Mapping[str, Any], setup: Setup, seed: int, start: int,
               stop: int) -> np.ndarray:
    from dataclasses import replace

    from sim.engine.game import Game
    from sim.play.mixture import Drivers
    from sim.play.resolve import _Parser

    out = np.zeros(len(Winner), dtype=np.int64)
    table = _Parser(game)
    # the agents of game i: the setup's profile, or the profiles game i draws from a
    # mixture (sim.play.mixture), at the game file's table and rules
    drivers = Drivers(replace(setup, comp=table.comp, rules=table.rules))
    for i in range(start, stop):
        parser = _Parser(game)
        g = Game(parser.comp, parser.rules, np.random.default_rng(parser.seed), parser.dons)
        for t, raw in enumerate(parser.turns):
            inp = parser.turn_input(g, t, raw)
            for stmt in parser.statements:  # P5.7: the day's talk reaches the views,
                g.say(stmt)  # and the agents who play on weigh it as they weigh their own
            g.play_turn(inp)
        if g.over:
            assert g.outcome is not None
            out[g.outcome.winner] += 1
            continue
        # the rest is played with game i's streams (its host stream becomes g.rng)
        drivers.for_game(seed, i).finish(g, game_streams(seed, i, parser.comp.n))
        assert g.outcome is not None
        out[g.outcome.winner] += 1
    return out


def odds(game: Mapping[str, Any], setup: Setup, *, games: int = 2000, seed: int = 0,
         jobs: int = 1, start: int = 0) -> dict[str, Any]:
    """The chance each camp wins from the position the scripted game reached: continuations
    `start` .. `start + games - 1` of the seed's stream (so a page can play them in rounds
    and add them up)."""
    import joblib

    from sim.play.resolve import resolve

    resolve(game)  # validates the script, with its one-line errors
    size = max(50, games // (max(1, jobs) * 4))
    spans = [(a, min(start + games, a + size)) for a in range(start, start + games, size)]
    if jobs == 1:
        parts = [odds_batch(game, setup, seed, a, b) for a, b in spans]
    else:
        parts = joblib.Parallel(n_jobs=jobs)(
            joblib.delayed(odds_batch)(game, setup, seed, a, b) for a, b in spans)
    wins = np.sum(parts, axis=0)
    camps = {}
    for w in Winner:
        lo, hi = share_interval(int(wins[w]), games)
        camps[w.key] = {"wins": int(wins[w]), "share": float(wins[w]) / games,
                        "low": lo, "high": hi}
    return {"games": games, "seed": seed, "camps": camps}
