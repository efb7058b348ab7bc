"""What players ask for: votes and night requests (R5, R6, R7-R14).

Requests are plain immutable values. The engine validates them (sim.engine.legal) and carries them
out (sim.engine.game); it never makes one up. Each `text(names)`
says the request in words (a message, sim.game.messages), for error messages and the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from sim.game.messages import Msg, msg
from sim.game.pickling import picklable
from sim.game.roles import Clan


class Vote(NamedTuple):
    """A day vote: `voter` wants `target` hanged (R5.1). (A named tuple, not a dataclass
    like the other requests: a day has many, and a tuple is three times cheaper to make.)"""

    voter: int
    target: int

    def text(self, names: Sequence[str]) -> Msg:
        return msg("vote against {player}", player=names[self.target])


@dataclass(frozen=True, slots=True)
class ClanOrder:
    """A clan's night order: target and shooter (R14.1); `by` the member who sent it (R14.4)."""

    clan: Clan
    target: int
    shooter: int
    by: int = -1  # -1: the Don

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, clan: Clan, target: int, shooter: int, by: int = -1) -> None:
        object.__setattr__(self, "clan", clan)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "shooter", shooter)
        object.__setattr__(self, "by", by)

    def text(self, names: Sequence[str]) -> Msg:
        return msg("{clan} order: {shooter} shoots {player}", clan=Msg(self.clan.key),
                   shooter=names[self.shooter], player=names[self.target])


@dataclass(frozen=True, slots=True)
class Blast:
    """The kamikaze blows himself up next to `target` (R13.1)."""

    target: int

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, target: int) -> None:
        object.__setattr__(self, "target", target)

    def text(self, names: Sequence[str]) -> Msg:
        return msg("blast next to {player}", player=names[self.target])


@dataclass(frozen=True, slots=True)
class Beat:
    """The thug beats `target` (R10.1)."""

    target: int

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, target: int) -> None:
        object.__setattr__(self, "target", target)

    def text(self, names: Sequence[str]) -> Msg:
        return msg("beat {player}", player=names[self.target])


@dataclass(frozen=True, slots=True)
class Kill:
    """The maniac kills `target` (R9.1)."""

    target: int

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, target: int) -> None:
        object.__setattr__(self, "target", target)

    def text(self, names: Sequence[str]) -> Msg:
        return msg("kill {player}", player=names[self.target])


@dataclass(frozen=True, slots=True)
class Ambush:
    """The maniac sits in ambush instead of killing (R9.3)."""

    def text(self, names: Sequence[str]) -> Msg:
        return Msg("ambush")


@dataclass(frozen=True, slots=True)
class Strike:
    """The ninja kills `target` (R11.1)."""

    target: int

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, target: int) -> None:
        object.__setattr__(self, "target", target)

    def text(self, names: Sequence[str]) -> Msg:
        return msg("ninja strike on {player}", player=names[self.target])


@dataclass(frozen=True, slots=True)
class Heal:
    """The doctor heals `target` (R8.1)."""

    target: int

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, target: int) -> None:
        object.__setattr__(self, "target", target)

    def text(self, names: Sequence[str]) -> Msg:
        return msg("heal {player}", player=names[self.target])


@dataclass(frozen=True, slots=True)
class Protect:
    """The necromancer hands out protects (R12.1)."""

    targets: tuple[int, ...]

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, targets: tuple[int, ...]) -> None:
        object.__setattr__(self, "targets", targets)

    def text(self, names: Sequence[str]) -> Msg:
        return msg("protect {players}", players=", ".join(names[t] for t in self.targets))


@dataclass(frozen=True, slots=True)
class RaiseArmy:
    """The necromancer raises the Army of Darkness against two players (R12.5)."""

    targets: tuple[int, ...]

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, targets: tuple[int, ...]) -> None:
        object.__setattr__(self, "targets", targets)

    def text(self, names: Sequence[str]) -> Msg:
        return msg("raise the Army against {players}",
                   players=", ".join(names[t] for t in self.targets))


@dataclass(frozen=True, slots=True)
class Check:
    """The commissar checks `target` (R7.1)."""

    target: int

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, target: int) -> None:
        object.__setattr__(self, "target", target)

    def text(self, names: Sequence[str]) -> Msg:
        return msg("check {player}", player=names[self.target])


#: A player's own night request (everything but the clan order).
Action = Blast | Beat | Kill | Ambush | Strike | Heal | Protect | RaiseArmy | Check


@dataclass(slots=True)
class NightRequests:
    """All requests of one night: at most one order per clan, at most one action per seat."""

    orders: dict[Clan, ClanOrder] = field(default_factory=dict)
    actions: dict[int, Action] = field(default_factory=dict)
    #: sent once the day's removals were known (the driver) rather than with the day's
    #: votes (a script): tells whose Don the orders came from (P14.3)
    after_day: bool = False

    # Written out (sim.game.pickling says why): the same parameters as the generated one, an
    # empty dict where a field's default is one.
    def __init__(self, orders: dict[Clan, ClanOrder] | None = None,
                 actions: dict[int, Action] | None = None, after_day: bool = False) -> None:
        self.orders = {} if orders is None else orders
        self.actions = {} if actions is None else actions
        self.after_day = after_day


@dataclass(slots=True)
class TurnInput:
    """Everything players and host send for one turn (P3.1)."""

    votes: list[Vote] = field(default_factory=list)
    night: NightRequests = field(default_factory=NightRequests)
    absent: frozenset[int] = frozenset()  # posted nothing: leave at step 1 (R16.1)
    removed: frozenset[int] = frozenset()  # rule breakers: leave at step 3 (R16.3)
    passive: frozenset[int] = frozenset()  # passive or own wish: leave at step 7 (R16.3)

    # Written out (sim.game.pickling says why): the same parameters as the generated one, an
    # empty list or requests where a field's default is one.
    def __init__(self, votes: list[Vote] | None = None, night: NightRequests | None = None,
                 absent: frozenset[int] = frozenset(), removed: frozenset[int] = frozenset(),
                 passive: frozenset[int] = frozenset()) -> None:
        self.votes = [] if votes is None else votes
        self.night = NightRequests() if night is None else night
        self.absent = absent
        self.removed = removed
        self.passive = passive


# compiled, these rebuild from their field values (sim.game.pickling)
picklable(ClanOrder, Blast, Beat, Kill, Ambush, Strike, Heal, Protect, RaiseArmy, Check,
          NightRequests, TurnInput)
