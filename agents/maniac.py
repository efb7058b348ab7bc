"""The maniac's policy: alone against everyone, he wins only as the last one alive (R9.5).

- Danger as the clans read it (`opened_danger`, `claimer_danger`): his reads of who is a
  hero, plus the opened commissar and the claimed heroes.
- Night: kills the most dangerous player (with `noise`); takes his ambush (R9.3) on the
  first night he has `ambush_votes` votes against him that day or is publicly named. With
  three alive, he kills the one who would beat him in the duel after the night (R17.4).
- Day: votes with the day's leader when it is not himself (with chance `follow`), else the
  most dangerous. Under the rope he may claim a hero role he does not hold (`rope_claim`);
  against an opened commissar he may counter-claim commissar with a false check of him
  (`fake_claim`), once a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from mypy_extensions import mypyc_attr

from agents.common import (
    DangerReader,
    commissar_shown,
    day_leader,
    duel_target,
    opened_hero,
    rope_lie,
)
from sim.game.params import Param
from sim.game.requests import Ambush, Kill
from sim.game.talk import CHECK, CLAIM, Statement

if TYPE_CHECKING:
    from collections.abc import Mapping

    from numpy.random import Generator

    from sim.engine.view import PlayerView
    from sim.game.params import Value
    from sim.game.requests import Action


@mypyc_attr(allow_interpreted_subclasses=True)
class ManiacAgent(DangerReader):
    PARAMS: ClassVar[dict[str, Param]] = {
        "ambush_votes": Param(3, 0.0, 30.0, "votes against him in a day that make him take "
                              "his ambush that night (30: only when named)", integer=True,
                              grid=(1, 2, 6, 10, 30)),
        "noise": Param(0.3, 0.0, 3.0, "doubt added to his danger reading when choosing whom "
                       "to kill", grid=(0.0, 0.6, 1.0, 2.0)),
        "opened_danger": Param(10.0, 0.0, 20.0, "danger added for an opened commissar or "
                               "sergeant", grid=(0.0, 2.0, 5.0, 20.0)),
        "claimer_danger": Param(2.0, 0.0, 20.0, "danger added for a claimed hero",
                                grid=(0.0, 1.0, 6.0, 12.0)),
        "follow": Param(1.0, 0.0, 1.0, "the chance he votes with the day's leader (when it is "
                        "not himself) instead of the one he finds most dangerous",
                        grid=(0.0, 0.5, 0.8)),
        "fake_claim": Param(0.0, 0.0, 1.0, "the chance, once a game, that facing an opened "
                            "commissar he counter-claims commissar and announces a check "
                            "of him as a mafioso (so that Town hangs the real one)",
                            grid=(0.1, 0.3, 1.0)),
        "rope_claim": Param(0.0, 0.0, 1.0, "the chance he claims a hero role nobody has "
                            "claimed when he leads the day's vote (at `rope_at` of the "
                            "living against him; drawn once a day)",
                            grid=(0.0, 0.1, 0.4, 1.0)),
        "rope_at": Param(0.2, 0.0, 1.0, "the share of the living voting against him at "
                         "which he lies under the rope", grid=(0.1, 0.3, 0.4, 0.6)),
    }

    def __init__(self, seat: int, params: Mapping[str, Value] | None = None):
        super().__init__(seat, params)
        self.lied = False
        self.faked = False
        self.rope_days: set[int] = set()  # the days he drew his lie's chance (rope_lie)

    def vote(self, view: PlayerView, rng: Generator) -> int:
        pub = view.public
        counts = pub.today_tally
        # `follow` at 1 draws nothing: the games of the shipped profile stay as they were
        if counts and (self.p["follow"] >= 1 or rng.random() < self.p["follow"]):
            leader = day_leader(pub)  # R5.2: the first to reach the top count leads
            if leader != self.seat and pub.alive[leader]:
                return leader
        return self.pick(view, self.danger(view), {self.seat})

    def statements(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """Against an opened commissar, once a game (`fake_claim`): "I am the commissar,
        and he is a mafioso", in public (R2.7); a lie about roles is play, not a breach
        (R2.8 forbids only working against one's own side).
        He names the Yakuza (either clan serves; one fixed answer keeps the lie steady)."""
        if self.faked or self.p["fake_claim"] <= 0:
            return []
        pub = view.public
        opened = opened_hero(pub, {self.seat})
        if opened < 0 or commissar_shown(pub):
            return []
        if rng.random() >= self.p["fake_claim"]:
            return []
        self.faked = True
        return [Statement(view.turn, self.seat, CLAIM, value="commissar"),
                Statement(view.turn, self.seat, CHECK, opened, "yakuza")]

    def defend(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """Under the rope, a hero claim he does not hold (`rope_claim`), once a game."""
        if self.lied or self.p["rope_claim"] <= 0:
            return []
        said = rope_lie(view, self.seat, self.p["rope_at"], self.p["rope_claim"], rng,
                        self.rope_days)
        if said:
            self.lied = True
        return said

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        pub = view.public
        if not view.ambush_used and view.rules.maniac_ambush:
            threatened = sum(1 for _, t in pub.today if t == self.seat)
            named = any(s.kind is CHECK and s.target == self.seat
                        and s.value == "maniac"
                        for s in pub.statements)
            if threatened >= self.p["ambush_votes"] or named:
                return Ambush()
        who = duel_target(view, self.seat, {self.seat})  # the endgame: win the duel (R17.4)
        if who < 0:
            who = self.pick(view, self.noisy_danger(view, rng), {self.seat})
        return Kill(who) if who >= 0 else None
