"""The `random` agent set, for fuzzing the engine: every decision a uniformly random pick
among the legal requests the host would accept, and no action / abstaining as one more
choice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from agents.base import Agent
from sim.game.roles import Role

if TYPE_CHECKING:
    from numpy.random import Generator

    from sim.engine.view import PlayerView
    from sim.game.requests import Action, ClanOrder


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent(Agent):
    USES_READS = False

    def vote(self, view: PlayerView, rng: Generator) -> int:
        legal = view.legal_votes()
        k = int(rng.integers(len(legal) + 1))
        return legal[k] if k < len(legal) else -1

    def clan_order(self, view: PlayerView, rng: Generator) -> ClanOrder | None:
        legal = view.legal_orders()
        k = int(rng.integers(len(legal) + 1))
        return legal[k] if k < len(legal) else None

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        legal = view.legal_actions()
        k = int(rng.integers(len(legal) + 1))
        return legal[k] if k < len(legal) else None


AGENTS: dict[Role, type[Agent]] = {r: RandomAgent for r in Role}
