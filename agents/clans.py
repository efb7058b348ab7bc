"""The clans' policy: the Yakuza and the Triad (mafiosi, the kamikaze, the thug). Both clans
play the same policy, each with its own parameters (`yakuza.NAME`, `triad.NAME`, or
`clan.NAME` for both).

- Danger: a member rates how dangerous each player is from his reads (who is a hero) plus
  the public record: `opened_danger` for an opened commissar or sergeant, `claimer_danger`
  for another claimed hero.
- Day: the Don posts a target in the clan channel and every member votes for it; with
  chance `mafia_follow` a member joins the day's leader instead, when he is no clanmate.
  In the endgame (at most `vsb_endgame` living players outside the clan and its VSB) the
  clan votes its own VSB: it may never shoot him (R14.2), and a last member left alone
  with him hands Town the game (R17.5).
- Night: the Don orders a kill of the most dangerous player (with `noise`), by a plain
  member other than himself (R14.3); the thug or kamikaze shoots only when no plain member
  is left. The clan holds its fire when the kill would leave one member alone with his VSB.
  Once a game, with chance `fake_claim`, a Don facing an opened commissar counter-claims
  commissar and names the real one as the other clan.
- The kamikaze (Yakuza) blows up next to an opened commissar or a publicly named maniac (his
  Don then sends the clan's bullet elsewhere), a claimed hero with chance `blast_claimed`,
  or, as the last of his clan, the most dangerous outsider. A Don may leave the opened
  commissar to the other killers (`cede_opened`).
- The thug (Triad) beats, with chance `beat`, the most dangerous player not yet beaten who
  is no clanmate (a beaten shooter loses his clan's shot, D10.2), nor his clan's target nor
  a claimed hero (a shot at the beaten player kills the thug too, R10.6).
- With three alive and one member left, the clan shoots so that the duel after the night
  (R17.4) is one it wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from mypy_extensions import mypyc_attr

from agents.common import (
    HERO_CLAIMS,
    LIES,
    DangerReader,
    choice,
    commissar_shown,
    day_leader,
    doomed,
    duel_target,
    opened_hero,
    rope_lie,
    unclaimed_hero,
)
from sim.game.params import Param
from sim.game.requests import Beat, Blast, ClanOrder
from sim.game.roles import Clan
from sim.game.talk import CHECK, CLAIM, CLAN, ORDER, Statement

if TYPE_CHECKING:
    from collections.abc import Mapping

    from numpy.random import Generator

    from sim.engine.view import PlayerView
    from sim.game.params import Value
    from sim.game.requests import Action

#: Parameters of every clan member (`yakuza.NAME`, `triad.NAME`, `clan.NAME`).
CLAN_PARAMS: Final[dict[str, Param]] = {
    "mafia_follow": Param(0.4, 0.0, 1.0, "the chance a member votes with the day's leader "
                          "(when no clanmate) instead of the Don's target",
                          grid=(0.0, 0.2, 0.7, 1.0)),
    "noise": Param(0.3, 0.0, 3.0, "doubt added to his danger reading when choosing a target",
                   grid=(0.0, 0.6, 1.0, 2.0)),
    "opened_danger": Param(10.0, 0.0, 20.0, "danger added for an opened commissar or "
                           "sergeant", grid=(0.0, 2.0)),
    "claimer_danger": Param(2.0, 0.0, 20.0, "danger added for a player who claims another "
                            "hero role", grid=(0.0, 1.0, 6.0, 12.0)),
    "fake_claim": Param(0.3, 0.0, 1.0, "the chance, once a game, that the Don facing an "
                        "opened commissar counter-claims commissar", grid=(0.0, 1.0)),
    "cede_opened": Param(0.0, 0.0, 1.0, "the chance the Don leaves an opened commissar to "
                         "the other killers (the rival clan and the maniac aim at him too, "
                         "and a second bullet is wasted) and orders the next most dangerous",
                         grid=(0.5, 1.0)),
    "vsb_endgame": Param(2, 0.0, 6.0, "the clan votes its own VSB when at most this many "
                         "living players are outside the clan and its VSB", integer=True,
                         grid=(0, 1, 4)),
    "rope_claim": Param(0.0, 0.0, 1.0, "the chance a member who leads the day's vote (at "
                        "`rope_at` of the living against him) claims a hero role nobody has "
                        "claimed and the paper has not shown (drawn once a day)",
                        grid=(0.0, 0.1, 0.4, 1.0)),
    "rope_at": Param(0.2, 0.0, 1.0, "the share of the living voting against him at which a "
                     "member under the rope lies (`rope_claim`)", grid=(0.1, 0.4)),
    "doomed_vote": Param(0.0, 0.0, 1.0, "the chance a member votes his clanmate who clearly "
                         "leads the day's vote (he hangs anyway; the vote earns trust when "
                         "the paper shows the clan)", grid=(0.0, 1.0)),
    "false_counter": Param(0.0, 0.0, 1.0, "the chance the Don counter-claims the hero role an "
                           "outsider claims under the rope (so that Town hangs him)",
                           grid=(0.0, 1.0)),
    "fake_cop": Param(0.0, 0.0, 1.0, "the chance, drawn once a game on the first day nobody "
                      "has claimed the commissar, that the Don claims him and names a living "
                      "outsider, drawn at random, a member of the rival clan (a false check: "
                      "the fake commissar who speaks first)", grid=(0.3, 1.0)),
    "early_claim": Param(0.0, 0.0, 1.0, "the chance a member claims, in his first day's "
                         "statements, a hero role nobody has claimed and the paper has not "
                         "shown, before any vote is on him (drawn once a game; he then does "
                         "not lie under the rope)", grid=(0.3, 1.0)),
}


@mypyc_attr(allow_interpreted_subclasses=True)
class ClanAgent(DangerReader):
    """A clan member (mafioso, kamikaze, thug): votes with the clan, the Don's orders."""

    PARAMS: ClassVar[dict[str, Param]] = dict(CLAN_PARAMS)

    def __init__(self, seat: int, params: Mapping[str, Value] | None = None):
        super().__init__(seat, params)
        self.faked = False
        self.lied = False
        self.early_drawn = False  # whether his early claim's chance was drawn
        self.cop_drawn = False  # whether the Don's fake commissar's chance was drawn
        self.rope_days: set[int] = set()  # the days he drew his lie's chance (rope_lie)
        self._friend_set: frozenset[int] | None = None
        self._vsb: int | None = None

    def friends(self, view: PlayerView) -> frozenset[int]:
        """His clan and its VSB, himself included (fixed for the game, R2.5)."""
        if self._friend_set is None:
            self._friend_set = frozenset(view.allies) | {self.seat}
        return self._friend_set

    def own_vsb(self, view: PlayerView) -> int:
        """His clan's VSB (fixed for the game, R2.5), or -1."""
        if self._vsb is None:
            self._vsb = next((s for s, r in view.allies.items() if r == "vsb"), -1)
        return self._vsb

    def members(self, view: PlayerView) -> list[int]:
        """His living clan members, himself included."""
        alive = view.public.alive
        out = [s for s, r in view.allies.items() if r != "vsb" and alive[s]]
        out.append(self.seat)
        return out

    def opened(self, view: PlayerView) -> int:
        """A living outsider who claimed commissar (or sergeant with checks), or -1."""
        return opened_hero(view.public, self.friends(view))

    def vsb_time(self, view: PlayerView) -> int:
        """His own VSB, when the endgame has come to hang him (`vsb_endgame`), else -1."""
        vsb = self.own_vsb(view)
        if vsb < 0 or not view.public.alive[vsb]:
            return -1
        alive = view.public.alive
        outsiders = alive.count(True) - sum(1 for f in self.friends(view) if alive[f])
        return vsb if outsiders <= self.p["vsb_endgame"] else -1

    # -- the day -----------------------------------------------------------------------------
    def statements(self, view: PlayerView, rng: Generator) -> list[Statement]:
        out = self.don_statements(view, rng) if view.don == self.seat else []
        if self.p["early_claim"] > 0:  # at 0 nothing is drawn: the shipped games stay
            out += self.early_claim(view, rng)
        return out

    def early_claim(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """A pre-emptive lie (`early_claim`): on the first day with a hero role to claim,
        a claim of it, before any vote is on him (R2.7: in public; a lie is play)."""
        if self.early_drawn or self.lied or view.turn < 1:
            return []
        role = unclaimed_hero(view.public)
        if not role:
            return []
        self.early_drawn = True
        if rng.random() >= self.p["early_claim"]:
            return []
        self.lied = True
        return [Statement(view.turn, self.seat, CLAIM, value=role)]

    def don_statements(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """The Don's order to his clan, and his counter-claim of an opened commissar."""
        opened = self.opened(view)
        target = self.vsb_time(view)
        if target < 0:
            target = self.pick(view, self.noisy_danger(view, rng), self.friends(view))
        out: list[Statement] = []
        if target >= 0:
            out.append(Statement(view.turn, self.seat, ORDER, target, channel=CLAN))
        if (opened >= 0 and not self.faked and not commissar_shown(view.public)
                and self.p["fake_claim"] > 0 and rng.random() < self.p["fake_claim"]):
            self.faked = True
            other = "triad" if view.clan is Clan.YAKUZA else "yakuza"
            out.append(Statement(view.turn, self.seat, CLAIM, value="commissar"))
            out.append(Statement(view.turn, self.seat, CHECK, opened, other))
        if self.p["fake_cop"] > 0:  # at 0 nothing is drawn: the shipped games stay
            out += self.fake_cop(view, rng)
        return out

    def fake_cop(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """The Don's fake commissar (`fake_cop`), once a game: on the first day nobody has
        claimed the commissar nor the paper shown him, "I am the commissar, and X is of the
        rival clan" about a random living outsider (R2.7: in public; a lie about roles is
        play, R2.8). It frames a Town player and draws the real commissar into the open."""
        pub = view.public
        if (self.cop_drawn or self.faked or view.turn < 1 or commissar_shown(pub)
                or any(s.kind is CLAIM and s.value == "commissar" for s in pub.statements)):
            return []
        self.cop_drawn = True
        if rng.random() >= self.p["fake_cop"]:
            return []
        friends = self.friends(view)
        outsiders = [j for j, a in enumerate(pub.alive) if a and j not in friends]
        if not outsiders:
            return []
        framed = outsiders[int(rng.integers(len(outsiders)))]
        self.faked = True
        other = "triad" if view.clan is Clan.YAKUZA else "yakuza"
        return [Statement(view.turn, self.seat, CLAIM, value="commissar"),
                Statement(view.turn, self.seat, CHECK, framed, other)]

    def vote(self, view: PlayerView, rng: Generator) -> int:
        pub = view.public
        friends = self.friends(view)
        vsb = self.vsb_time(view)
        if vsb >= 0:
            return vsb
        counts = pub.today_tally
        if counts and self.p["doomed_vote"] > 0:
            mate = doomed(pub)  # a clanmate who hangs anyway: voting him earns trust
            if (mate >= 0 and mate != self.seat and mate in friends
                    and rng.random() < self.p["doomed_vote"]):
                return mate
        if counts and rng.random() < self.p["mafia_follow"]:
            leader = day_leader(pub)  # R5.2: the first to reach the top count leads
            if leader not in friends and pub.alive[leader]:
                return leader
        for stmt in reversed(view.inbox):
            if stmt.kind is ORDER and stmt.turn == view.turn:
                if pub.alive[stmt.target] and stmt.target != self.seat:
                    return stmt.target
                break
        return self.pick(view, self.danger(view), friends)

    def defend(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """Under the rope, a hero claim he does not hold (`rope_claim`), once a game."""
        if self.lied or self.p["rope_claim"] <= 0:
            return []
        said = rope_lie(view, self.seat, self.p["rope_at"], self.p["rope_claim"], rng,
                        self.rope_days)
        if said:
            self.lied = True
        return said

    def respond(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """The Don answers an outsider's claim under the rope with a claim of the same role
        (`false_counter`), once a game: Town hangs one of the two."""
        if (self.faked or self.p["false_counter"] <= 0 or view.don != self.seat
                or self.lied):
            return []
        pub = view.public
        leader = day_leader(pub)
        if leader < 0 or leader in self.friends(view) or not pub.statements:
            return []
        last = pub.statements[-1]
        if (last.speaker != leader or last.kind is not CLAIM or last.value not in LIES
                or last.turn != view.turn):
            return []
        if any(s.kind is CLAIM and s.value == last.value and s.speaker != leader
               for s in pub.statements):
            return []
        if rng.random() >= self.p["false_counter"]:
            return []
        self.faked = True
        return [Statement(view.turn, self.seat, CLAIM, value=last.value)]

    # -- the night ---------------------------------------------------------------------------
    def clan_order(self, view: PlayerView, rng: Generator) -> ClanOrder | None:
        pub = view.public
        friends = self.friends(view)
        members = self.members(view)
        vsb = self.own_vsb(view)
        outsiders = [j for j, a in enumerate(pub.alive) if a and j not in friends]
        if (len(members) == 1 and vsb >= 0 and pub.alive[vsb] and len(outsiders) == 1):
            return None  # R17.5: the kill would leave him alone with his VSB
        target = (duel_target(view, members[0], friends) if len(members) == 1 else -1)
        if target < 0:
            exclude = set(friends)
            opened = self.opened(view)
            kamikaze = [s for s, r in view.allies.items() if r == "kamikaze" and pub.alive[s]]
            if opened >= 0 and (kamikaze or rng.random() < self.p["cede_opened"]):
                # His kamikaze blasts the opened commissar tonight, or he leaves him to
                # the others: the clan's bullet goes to the next most dangerous.
                exclude.add(opened)
            target = self.pick(view, self.noisy_danger(view, rng), exclude)
            if target < 0:
                target = self.pick(view, self.danger(view), friends)
        if target < 0:
            return None
        don = view.don
        if don < 0:
            return ClanOrder(view.clan, target, self.seat, self.seat)  # R14.4
        plain = sorted(m for m in members if m != don and view.allies.get(m) == "mafioso")
        special = sorted(m for m in members if m != don and m not in plain)
        pool = plain or special or [don]
        return ClanOrder(view.clan, target, choice(rng, pool))


@mypyc_attr(allow_interpreted_subclasses=True)
class KamikazeAgent(ClanAgent):
    PARAMS: ClassVar[dict[str, Param]] = {
        **CLAN_PARAMS,
        "blast_claimed": Param(0.0, 0.0, 1.0, "the chance, each night, that he blows up next "
                               "to a claimed doctor, ninja or necromancer", per_role=True,
                               grid=(0.3, 1.0)),
    }

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        """An opened commissar or a named maniac first; a claimed hero with chance
        `blast_claimed`; and, the last of his clan, the most dangerous outsider (his blast
        is worth more than his one bullet, R13.2)."""
        if view.turn == 0 or view.blast_used:
            return None
        order = view.order
        if order is not None and order.shooter == self.seat:
            return None
        pub = view.public
        friends = self.friends(view)
        target = self.opened(view)
        if target < 0:
            for stmt in pub.statements:
                if (stmt.kind is CHECK and stmt.value == "maniac"
                        and pub.alive[stmt.target] and stmt.target not in friends):
                    target = stmt.target
                    break
        if target < 0 and self.p["blast_claimed"] > 0:
            claimed = [s.speaker for s in pub.statements
                       if s.kind is CLAIM and s.value in HERO_CLAIMS
                       and pub.alive[s.speaker] and s.speaker not in friends]
            if claimed and rng.random() < self.p["blast_claimed"]:
                target = claimed[0]
        if target < 0 and len(self.members(view)) == 1:
            target = self.pick(view, self.danger(view), friends)
        return Blast(target) if target >= 0 else None


@mypyc_attr(allow_interpreted_subclasses=True)
class ThugAgent(ClanAgent):
    PARAMS: ClassVar[dict[str, Param]] = {
        **CLAN_PARAMS,
        "beat": Param(1.0, 0.0, 1.0, "the chance he beats someone on a night he does not "
                      "shoot", per_role=True, grid=(0.0, 0.5)),
    }

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if view.turn == 0:
            return None
        order = view.order
        if order is not None and order.shooter == self.seat:
            return None  # R10.3: he shoots tonight
        if rng.random() >= self.p["beat"]:
            return None
        beaten = view.beaten_ever
        # Never a clanmate (a beaten shooter loses the clan's shot, D10.2) nor the VSB
        # (R10.2); never whom his clan shoots tonight nor an opened commissar everyone
        # shoots at (the stray bullet kills him too, R10.6).
        exclude = set(self.friends(view)) | {j for j in range(len(beaten)) if beaten[j]}
        if isinstance(order, ClanOrder):
            exclude.add(order.target)
        exclude |= {s.speaker for s in view.public.statements  # an opened commissar too
                    if s.kind is CLAIM and s.value in HERO_CLAIMS}
        target = self.pick(view, self.danger(view), exclude)
        return Beat(target) if target >= 0 else None
