"""The mutable state of one game: flat per-seat lists indexed by integer seat.

Only the engine writes it. Agents never see it: they get a `sim.engine.view.PlayerView`.
"""

from __future__ import annotations

from typing import Final

from sim.game.roles import CLAN_ROLES, POSITIVE_HEROES, Camp, Cause, Clan, Outcome, Role
from sim.game.rules import Composition, RuleSet

#: every role, in order (iterating the enum itself is slow, and this runs once a game)
_ROLES: Final = tuple(Role)


class GameState:
    """Everything the host knows, in flat lists (seat i is player i of the composition)."""

    __slots__ = (
        "comp", "rules", "n", "names", "role", "clan", "camp", "alive", "alive_count",
        "n_alive", "turn", "don", "beaten_ever", "beaten_tonight", "beaten_today",
        "protect_by", "protects_left", "vest", "ambush_used", "blast_used", "peaceful_kills",
        "last_heal", "badge", "votes_against", "first_vote_at", "vote_seq", "abstentions",
        "army_used", "heroes", "cause", "death_turn", "outcome",
        "members", "vsb_of", "seats_by_role",
    )

    def __init__(self, comp: Composition, rules: RuleSet, undealt: GameState | None = None,
                 order: list[int] | None = None):
        """The state at the start of a game of `comp`. With `undealt` (the state of the
        same table before the deal) and the deal's `order` (`comp`'s seat i is undealt seat
        order[i], sim.play.driver.Driver.play), the seats' roles are read from that state,
        permuted, instead of from the composition: the per-table set-up done once."""
        n = comp.n
        self.comp = comp
        self.rules = rules
        self.n = n
        self.names: tuple[str, ...] = comp.names
        if undealt is not None and order is not None:
            self.role: list[Role] = [undealt.role[k] for k in order]
            self.clan: list[Clan] = [undealt.clan[k] for k in order]
            self.camp: list[Camp] = [undealt.camp[k] for k in order]
        else:
            self.role = [s.role for s in comp.seats]
            self.clan = [s.clan for s in comp.seats]
            self.camp = [s.camp for s in comp.seats]
        role, clan = self.role, self.clan
        self.alive: list[bool] = [True] * n
        self.n_alive = n
        #: living players per camp (index Camp) for the R17 checks
        self.alive_count: list[int] = [0, 0, 0, 0]
        for c in self.camp:
            self.alive_count[c] += 1
        self.turn = 0
        #: the Don of each clan (index Clan; -1: none), R2.6
        self.don: list[int] = [-1, -1, -1]
        #: clan members (index Clan) and each clan's VSB seat (-1 if none)
        yakuza, triad, vsb = Clan.YAKUZA, Clan.TRIAD, Role.VSB
        self.members: list[tuple[int, ...]] = [
            (),
            tuple(i for i in range(n) if clan[i] is yakuza and role[i] in CLAN_ROLES),
            tuple(i for i in range(n) if clan[i] is triad and role[i] in CLAN_ROLES),
        ]
        self.vsb_of: list[int] = [-1, -1, -1]
        for i in range(n):
            if role[i] is vsb:
                self.vsb_of[clan[i]] = i
        by_role: dict[Role, list[int]] = {r: [] for r in _ROLES}
        for i, r in enumerate(role):
            by_role[r].append(i)
        self.seats_by_role: dict[Role, tuple[int, ...]] = {
            r: tuple(seats) for r, seats in by_role.items()
        }
        self.beaten_ever: list[bool] = [False] * n  # R10.2
        self.beaten_tonight: dict[int, int] = {}  # victim -> thug, this night (R10.4)
        self.beaten_today: frozenset[int] = frozenset()  # beaten last night: no vote (R5.5)
        self.protect_by: list[int] = [-1] * n  # necromancer whose protect the seat holds
        necromancer, maniac, commissar = Role.NECROMANCER, Role.MANIAC, Role.COMMISSAR
        protects, vested = rules.necromancer_protects, rules.maniac_vest
        self.protects_left: list[int] = [protects if r is necromancer else 0 for r in role]
        self.vest: list[bool] = [r is maniac and vested for r in role]
        self.ambush_used: list[bool] = [False] * n
        self.blast_used: list[bool] = [False] * n
        self.peaceful_kills: list[int] = [0] * n  # R11.3
        self.last_heal: list[int] = [-1] * n  # R8.3 (D8.1: carried-out heals only)
        self.badge: list[bool] = [r is commissar for r in role]  # R7.5
        self.votes_against: list[int] = [0] * n  # R5.6, R17.4
        self.first_vote_at: list[int] = [-1] * n  # index of the first vote against (D17.2)
        self.vote_seq = 0
        self.abstentions: list[int] = [0] * n  # R16.2
        self.heroes: tuple[int, ...] = tuple(i for i in range(n) if role[i] in POSITIVE_HEROES)
        self.army_used = False
        self.cause: list[Cause | None] = [None] * n
        self.death_turn: list[int] = [-1] * n
        self.outcome: Outcome | None = None

    def living(self) -> list[int]:
        alive = self.alive
        return [i for i in range(self.n) if alive[i]]

    def label(self, seat: int) -> str:
        """`Anna (commissar)`: a seat's name and role, for error messages."""
        return f"{self.names[seat]} ({self.comp.seats[seat].label()})"
