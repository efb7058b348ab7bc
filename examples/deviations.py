"""Deviations a strong forum player would try, written from outside the project through the
public agent API (subclasses of the shipped agents), to attack the default agents:

    PYTHONPATH=examples mafia-sim compare --players 25 --games 4000 \
        --b-agent mafioso=deviations:RopeLiarMafioso --b-agent kamikaze=deviations:RopeLiarKamikaze

Each class changes one habit and nothing else; the comparison is paired (the same seeds in
both arms), so its interval is the deviation's own effect.

- `RopeLiar*` (a clan member or the maniac): when he leads the day's vote, he claims a hero
  role nobody has claimed and the newspaper has not shown (doctor, necromancer, ninja).
- `PreemptiveLiar*`: a clan member claims such a role in his first statements, before any
  vote is on him (`PreemptiveLiarMafioso`: every mafioso of both clans; `Yakuza...`,
  `Triad...` and the thug: one clan's members alone, a camp's own deviation).
- `DoomedVoter*`: a clan member votes his clanmate who clearly leads the day's vote (he
  will hang anyway), to earn Town's trust when the newspaper shows the hanged man's clan.
- `Decoy*` (a civilian or VSB): when he leads the day's vote, he claims a hero role as a
  decoy.
- `SilentDoctor` etc.: the real holder never counterclaims a false claim of his role.
- `RopeAnswerDoctor`, `OffRopeAnswerDoctor`, `LateAnswerDoctor` etc.: the real holder answers
  a claim of his role by where it was made (R5.2, P5.6): only one made under the rope (its
  author led the day's vote), only one made off it, or one made off the rope at once and one
  made under it only once its author has lived through that day (a Town decoy has then done
  his job, and a liar who escaped the rope is still answered). The shipped `town.counter`
  answers both at once.
- `FakeCop*` (the Don of one clan, or the maniac): on the first day, before anyone has
  claimed the commissar, he claims him and names a living outsider a member of a clan (a
  false check): the fake cop who speaks first, to frame a Town player. It gained the
  Triad +5.5 and the Yakuza +9.3 points (25 and 30 players) against the mixture of
  2026-12-04, so it is now in the strategy space as `clan.fake_cop`, and Town's answer
  from the rules (no check exists before the night of turn 1) as `town.too_soon`.
- `RescueCop*` (a clan member): when his clanmate leads the day's vote, he claims the
  commissar and announces the clanmate clean (a false check), to save him.
"""

from __future__ import annotations

from agents.clans import ClanAgent, KamikazeAgent, ThugAgent
from agents.common import commissar_shown, day_leader, doomed, unclaimed_hero
from agents.maniac import ManiacAgent
from agents.town import (
    DoctorAgent,
    NecromancerAgent,
    NinjaAgent,
    TownAgent,
    claim_context,
    holder_alive,
)
from sim.engine.view import PlayerView
from sim.game.roles import Clan
from sim.game.talk import CHECK, CLAIM, Statement


def leads_the_rope(view: PlayerView, me: int, share: float = 0.2) -> bool:
    """He leads the day's vote with at least `share` of the living against him."""
    pub = view.public
    return (day_leader(pub) == me
            and pub.today_tally.get(me, 0) >= share * sum(pub.alive))


class _RopeLiar:
    claimed = False
    only: Clan | None = None  # one clan's members lie, the other's play as shipped
    enabled = True  # False: the shipped agent's play, exactly (tests/test_deviations.py)

    def defend(self, view: PlayerView, rng) -> list[Statement]:  # type: ignore[no-untyped-def]
        if not self.enabled or (self.only is not None and view.clan is not self.only):
            return list(super().defend(view, rng))  # type: ignore[misc]
        if self.claimed or not leads_the_rope(view, self.seat):  # type: ignore[attr-defined]
            return []
        role = unclaimed_hero(view.public)
        if not role:
            return []
        self.claimed = True
        return [Statement(view.turn, self.seat, CLAIM, value=role)]  # type: ignore[attr-defined]


class RopeLiarMafioso(_RopeLiar, ClanAgent):
    pass


class RopeLiarKamikaze(_RopeLiar, KamikazeAgent):
    pass


class RopeLiarThug(_RopeLiar, ThugAgent):
    pass


class YakuzaRopeLiarMafioso(_RopeLiar, ClanAgent):
    only = Clan.YAKUZA


class YakuzaRopeLiarKamikaze(_RopeLiar, KamikazeAgent):
    only = Clan.YAKUZA


class TriadRopeLiarMafioso(_RopeLiar, ClanAgent):
    only = Clan.TRIAD


class RopeLiarManiac(_RopeLiar, ManiacAgent):
    pass


class _PreemptiveLiar:
    lied = False
    only: Clan | None = None  # one clan's members lie, the other's play as shipped
    enabled = True

    def statements(self, view: PlayerView, rng) -> list[Statement]:  # type: ignore[no-untyped-def]
        out = list(super().statements(view, rng))  # type: ignore[misc]
        mine = self.only is None or view.clan is self.only
        if self.enabled and mine and not self.lied and view.turn >= 1:
            role = unclaimed_hero(view.public)
            if role:
                self.lied = True
                out.append(Statement(view.turn, self.seat, CLAIM, value=role))  # type: ignore[attr-defined]
        return out


class PreemptiveLiarMafioso(_PreemptiveLiar, ClanAgent):
    pass


class YakuzaPreemptiveLiarMafioso(_PreemptiveLiar, ClanAgent):
    only = Clan.YAKUZA


class YakuzaPreemptiveLiarKamikaze(_PreemptiveLiar, KamikazeAgent):
    only = Clan.YAKUZA


class TriadPreemptiveLiarMafioso(_PreemptiveLiar, ClanAgent):
    only = Clan.TRIAD


class PreemptiveLiarThug(_PreemptiveLiar, ThugAgent):
    pass


class _DoomedVoter:
    only: Clan | None = None
    enabled = True

    def vote(self, view: PlayerView, rng) -> int:  # type: ignore[no-untyped-def]
        if not self.enabled or (self.only is not None and view.clan is not self.only):
            return super().vote(view, rng)  # type: ignore[misc,no-any-return]
        mate = doomed(view.public)  # he clearly leads the day's vote: he hangs anyway
        if mate >= 0 and mate != self.seat and mate in view.allies:  # type: ignore[attr-defined]
            return mate  # a vote for him earns trust
        return super().vote(view, rng)  # type: ignore[misc,no-any-return]


class DoomedVoterMafioso(_DoomedVoter, ClanAgent):
    pass


class DoomedVoterKamikaze(_DoomedVoter, KamikazeAgent):
    pass


class DoomedVoterThug(_DoomedVoter, ThugAgent):
    pass


class YakuzaDoomedVoterMafioso(_DoomedVoter, ClanAgent):
    only = Clan.YAKUZA


class YakuzaDoomedVoterKamikaze(_DoomedVoter, KamikazeAgent):
    only = Clan.YAKUZA


class TriadDoomedVoterMafioso(_DoomedVoter, ClanAgent):
    only = Clan.TRIAD


class DecoyCivilian(_RopeLiar, TownAgent):
    pass


class _Silent:
    enabled = True

    def respond(self, view: PlayerView, rng) -> list[Statement]:  # type: ignore[no-untyped-def]
        if not self.enabled:
            return list(super().respond(view, rng))  # type: ignore[misc]
        return []


class SilentDoctor(_Silent, DoctorAgent):
    pass


class SilentNinja(_Silent, NinjaAgent):
    pass


class SilentNecromancer(_Silent, NecromancerAgent):
    pass


class _AnswerByContext:
    """The real holder's answer to a claim of his role, by where the claim was made."""

    enabled = True
    when = "rope"  # "rope", "off_rope" or "late" (module docstring)

    def respond(self, view: PlayerView, rng) -> list[Statement]:  # type: ignore[no-untyped-def]
        if not self.enabled:
            return list(super().respond(view, rng))  # type: ignore[misc]
        if self.claimed:
            return []
        pub = view.public
        role, me = view.role.key, self.seat  # type: ignore[attr-defined]
        first: dict[int, int] = {}  # each rival's first claim of the role, by its index
        for index, stmt in enumerate(pub.statements):
            if stmt.kind is CLAIM and stmt.value == role and stmt.speaker != me:
                first.setdefault(stmt.speaker, index)
        rivals = [(who, index) for who, index in first.items() if pub.alive[who]]

        def answered(index: int) -> bool:
            roped = claim_context(pub, index)
            if self.when == "rope":  # as shipped: a rope claim Town would believe
                return (roped and len(rivals) == 1
                        and holder_alive(pub) >= self.p["rope_calm"])  # type: ignore[attr-defined]
            if self.when == "off_rope":
                return not roped
            return not roped or pub.statements[index].turn < view.turn

        if not any(answered(index) for _, index in rivals):
            return []
        if rng.random() >= self.p["counter"]:  # type: ignore[attr-defined]
            return []
        said = list(self.role_claim(view))  # type: ignore[attr-defined]
        if said:
            self.claimed = True
        return said


class RopeAnswerDoctor(_AnswerByContext, DoctorAgent):
    pass


class RopeAnswerNinja(_AnswerByContext, NinjaAgent):
    pass


class RopeAnswerNecromancer(_AnswerByContext, NecromancerAgent):
    pass


class OffRopeAnswerDoctor(_AnswerByContext, DoctorAgent):
    when = "off_rope"


class OffRopeAnswerNinja(_AnswerByContext, NinjaAgent):
    when = "off_rope"


class OffRopeAnswerNecromancer(_AnswerByContext, NecromancerAgent):
    when = "off_rope"


class LateAnswerDoctor(_AnswerByContext, DoctorAgent):
    when = "late"


class LateAnswerNinja(_AnswerByContext, NinjaAgent):
    when = "late"


class LateAnswerNecromancer(_AnswerByContext, NecromancerAgent):
    when = "late"


def commissar_claimed(view: PlayerView) -> bool:
    """Someone has claimed the commissar, or the newspaper has shown him (a fake claim
    then meets a counter-claim or fools nobody)."""
    pub = view.public
    return commissar_shown(pub) or any(s.kind is CLAIM and s.value == "commissar"
                                       for s in pub.statements)


class _FakeCop:
    faked = False
    only: Clan | None = None  # the Don of this clan (None: the maniac, who has no clan)
    enabled = True

    def statements(self, view: PlayerView, rng) -> list[Statement]:  # type: ignore[no-untyped-def]
        out = list(super().statements(view, rng))  # type: ignore[misc]
        if not self.enabled or self.faked or view.turn < 1 or commissar_claimed(view):
            return out
        if self.only is not None and (view.clan is not self.only
                                      or view.don != self.seat):  # type: ignore[attr-defined]
            return out
        me = self.seat  # type: ignore[attr-defined]
        outsiders = [j for j, a in enumerate(view.public.alive)
                     if a and j != me and j not in view.allies]
        if not outsiders:
            return out
        framed = outsiders[int(rng.integers(len(outsiders)))]
        named = "triad" if view.clan is Clan.YAKUZA else "yakuza"
        self.faked = True
        return [*out, Statement(view.turn, me, CLAIM, value="commissar"),
                Statement(view.turn, me, CHECK, framed, named)]


class YakuzaFakeCopMafioso(_FakeCop, ClanAgent):
    only = Clan.YAKUZA


class TriadFakeCopMafioso(_FakeCop, ClanAgent):
    only = Clan.TRIAD


class FakeCopManiac(_FakeCop, ManiacAgent):
    pass


class _RescueCop:
    faked = False
    only: Clan | None = None
    enabled = True

    def respond(self, view: PlayerView, rng) -> list[Statement]:  # type: ignore[no-untyped-def]
        out = list(super().respond(view, rng))  # type: ignore[misc]
        if (not self.enabled or self.faked or out or commissar_claimed(view)
                or (self.only is not None and view.clan is not self.only)):
            return out
        me = self.seat  # type: ignore[attr-defined]
        mate = day_leader(view.public)
        if mate < 0 or mate == me or mate not in view.allies:
            return out
        if not leads_the_rope(view, mate):
            return out
        self.faked = True
        return [Statement(view.turn, me, CLAIM, value="commissar"),
                Statement(view.turn, me, CHECK, mate, "civilian")]


class YakuzaRescueCopMafioso(_RescueCop, ClanAgent):
    only = Clan.YAKUZA


class YakuzaRescueCopKamikaze(_RescueCop, KamikazeAgent):
    only = Clan.YAKUZA


class TriadRescueCopMafioso(_RescueCop, ClanAgent):
    only = Clan.TRIAD


class RescueCopThug(_RescueCop, ThugAgent):
    pass
