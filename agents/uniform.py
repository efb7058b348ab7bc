"""The `uniform` agent set: the exactly defined random game that checks the engine.

- Day: the first voter, in a uniformly random order (the driver's), votes for a uniformly
  random other living player, and every other voter votes the same way (the target himself
  cannot vote for himself, P5.1, and abstains).
- Night: each clan shoots a uniformly random living player outside the clan and its VSB,
  the shooter a uniformly random member (not the Don while others live, R14.3); the maniac
  kills a uniformly random other living player and never ambushes; no other role acts.

`sim.analysis.exact` computes the exact outcome probabilities of this game on simple compositions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from agents.base import Agent
from sim.game.requests import ClanOrder, Kill
from sim.game.roles import Role

if TYPE_CHECKING:
    from numpy.random import Generator

    from sim.engine.view import PlayerView
    from sim.game.requests import Action


@mypyc_attr(allow_interpreted_subclasses=True)
class UniformAgent(Agent):
    USES_READS = False

    def vote(self, view: PlayerView, rng: Generator) -> int:
        today = view.public.today
        if today:
            target = today[0][1]
            return target if target != self.seat else -1
        others = [s for s in view.public.living() if s != self.seat]
        return others[int(rng.integers(len(others)))] if others else -1

    def clan_order(self, view: PlayerView, rng: Generator) -> ClanOrder | None:
        pub = view.public
        clan_and_vsb = set(view.allies) | {self.seat}
        targets = [s for s in pub.living() if s not in clan_and_vsb]
        if not targets:
            return None
        members = [s for s, r in view.allies.items() if r != "vsb" and pub.alive[s]]
        members.append(self.seat)
        don = view.don
        if len(members) > 1 and don >= 0:
            members = [m for m in members if m != don]  # R14.3
        members.sort()
        target = targets[int(rng.integers(len(targets)))]
        shooter = members[int(rng.integers(len(members)))]
        by = -1 if don >= 0 else shooter  # R14.4 with no Don
        return ClanOrder(view.clan, target, shooter, by)

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if view.role is not Role.MANIAC:
            return None
        others = [s for s in view.public.living() if s != self.seat]
        return Kill(others[int(rng.integers(len(others)))]) if others else None


AGENTS: dict[Role, type[Agent]] = {r: UniformAgent for r in Role}
