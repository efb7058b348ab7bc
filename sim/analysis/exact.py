"""Exact outcome probabilities of the *uniform* game, a check for the Monte Carlo engine.

The module stands alone (standard library only). It solves, by a memoised dynamic
program over exact rationals, the following game, played on a simple composition:
``civilians`` plain civilians (Town), ``yakuza`` and ``triad`` plain mafiosi of the two
clans, at most one maniac, who may have his bullet-proof vest (``vest``, default true).
There are no other roles (no VSB, no heroes) and no attrition; at least 3 players.

The uniform game
----------------
* Turn 0 (R3.1): there is no vote and only the maniac acts: he kills a uniformly random
  other living player (R9.1). No clan acts on turn 0. Without a maniac nothing happens.
* Every turn t >= 1 (R3.2, R4):

  - Day (R5.1, R5.2): the first voter, uniformly random among the living, votes for a
    uniformly random other living player and every other voter votes the same way, so
    that player is hanged. The hanged player is therefore uniformly random among the
    living, and no two votes are ever split.
  - Night (R4 step 5, R4.1): each clan with a living member shoots a uniformly random
    living player outside its own clan (R14.1, R14.2); the maniac, if alive, kills a
    uniformly random other living player (R9.1, R9.5). There is no ambush (R9.3). All
    shots are simultaneous: a player killed that night still shoots that night.
  - The vest (R9.2, D9.1): the first mafia bullet that hits the maniac is stopped and
    the vest is then spent. It stops one mafia bullet per night, so if both clans shoot
    him the same night while the vest is intact, the first is stopped and the second
    kills him. The maniac's own kill cannot be stopped.

* Wins, checked after every step that removes a player (D4.2, P17.1), i.e. after the
  hanging and after the night: nobody alive is a ``"draw"`` (D17.3); the maniac alone
  is ``"maniac"`` (R17.3); only members of one clan alive is that clan, ``"yakuza"`` or
  ``"triad"`` (R17.2); no mafioso and no maniac alive but at least one civilian is
  ``"town"`` (R17.1, D17.1). The composition itself is checked first, so a table of one
  camp only has already been won.
* The duel (R17.4, D17.2, D9.3, P17.1): at the end of every turn, turn 0 included (after
  the night), if exactly two players of opposing camps remain, the one with fewer votes
  against him wins. In the uniform game every vote went to a hanged player, so neither
  ever received a vote and a fair coin decides: each of the two camps wins with
  probability 1/2. Two players of one camp have already won above.

Because the day comes before the night, a day that leaves two opposing players is
followed by a night, and only then is the duel checked: one yakuza and one triad shoot
each other (a draw); a yakuza and a maniac without his vest kill each other (a draw),
while with the vest intact the yakuza's bullet is stopped and the maniac wins.

Every night with a living mafioso or maniac kills at least one player, and every day
hangs one, so the game always ends and the recursion terminates.

The state is (living civilians, yakuza, triad, whether the maniac lives, whether his vest
is intact, whether it is turn 0); players of one kind are exchangeable, so a night's
result is the number of distinct victims of each kind.

API: :func:`exact_outcome_fraction` gives exact :class:`fractions.Fraction` values and
:func:`exact_outcome` the same as floats, both keyed by :data:`OUTCOMES`.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Final, NamedTuple

__all__ = ["OUTCOMES", "deviation_z", "exact_outcome", "exact_outcome_fraction"]

OUTCOMES: Final[tuple[str, ...]] = ("town", "yakuza", "triad", "maniac", "draw")

#: Probabilities in the order of :data:`OUTCOMES`.
_Vector = tuple[Fraction, ...]

# Kinds of players: civilian, yakuza, triad, maniac.
_CIV: Final = "C"
_YAK: Final = "Y"
_TRI: Final = "T"
_MAN: Final = "M"

# The camp (outcome) each kind plays for.
_CAMP_OF: Final[dict[str, str]] = {
    _CIV: "town",
    _YAK: "yakuza",
    _TRI: "triad",
    _MAN: "maniac",
}

_ZERO: Final = Fraction(0)
_ONE: Final = Fraction(1)
_HALF: Final = Fraction(1, 2)

#: The fewest players a game may have (D2.1).
MIN_PLAYERS: Final = 3
#: Players left for the endgame duel (R17.4).
_DUEL_PLAYERS: Final = 2


class State(NamedTuple):
    """The living players; ``vest`` is true only while the maniac lives with it intact."""

    civilians: int
    yakuza: int
    triad: int
    maniac: bool
    vest: bool

    def count(self, kind: str) -> int:
        """Number of living players of ``kind``."""
        if kind == _CIV:
            return self.civilians
        if kind == _YAK:
            return self.yakuza
        if kind == _TRI:
            return self.triad
        return int(self.maniac)

    @property
    def alive(self) -> int:
        """Number of living players."""
        return self.civilians + self.yakuza + self.triad + int(self.maniac)


def _unit(outcome: str) -> _Vector:
    """The vector giving probability 1 to ``outcome``."""
    return tuple(_ONE if name == outcome else _ZERO for name in OUTCOMES)


def _add(acc: list[Fraction], weight: Fraction, vector: _Vector) -> None:
    """``acc += weight * vector``."""
    for i, value in enumerate(vector):
        if value:
            acc[i] += weight * value


def _winner(s: State) -> str | None:
    """The camp that has won in ``s`` (R17.1-R17.3, D17.3), or None if play goes on."""
    if s.alive == 0:
        return "draw"
    if s.maniac:
        return "maniac" if s.alive == 1 else None
    if s.civilians == 0 and s.triad == 0:
        return "yakuza"
    if s.civilians == 0 and s.yakuza == 0:
        return "triad"
    if s.yakuza == 0 and s.triad == 0:
        return "town"
    return None


def _duel(s: State) -> _Vector | None:
    """The fair-coin duel of R17.4/D17.2 if exactly two opposing players remain."""
    if s.alive != _DUEL_PLAYERS or _winner(s) is not None:
        return None
    camps = [_CAMP_OF[kind] for kind in (_CIV, _YAK, _TRI, _MAN) if s.count(kind)]
    # Two players of one kind would be one camp, which has won: here they differ.
    return tuple(_HALF if name in camps else _ZERO for name in OUTCOMES)


@cache
def _distinct_victims(shots: int, size: int) -> tuple[tuple[int, Fraction], ...]:
    """Distribution of the number of distinct players hit by ``shots`` uniform shots
    at a group of ``size`` players (pairs ``(victims, probability)``)."""
    dist: dict[int, Fraction] = {0: _ONE}
    for _ in range(shots):
        step: dict[int, Fraction] = defaultdict(Fraction)
        for hit, p in dist.items():
            if hit:
                step[hit] += p * Fraction(hit, size)
            if hit < size:
                step[hit + 1] += p * Fraction(size - hit, size)
        dist = step
    return tuple(sorted(dist.items()))


def _night(s: State, clans_act: bool) -> dict[State, Fraction]:
    """Distribution of the state after one night from ``s``.

    Each clan with a living member (if ``clans_act``) shoots a uniformly random living
    player outside its clan; the maniac kills a uniformly random other living player.
    The shots are simultaneous; the vest stops one mafia bullet (R9.2, D9.1).
    """
    # For each shooter, the kinds of player it may hit.
    shooters: list[tuple[str, ...]] = []
    if clans_act and s.yakuza:
        shooters.append((_CIV, _TRI, _MAN))
    if clans_act and s.triad:
        shooters.append((_CIV, _YAK, _MAN))
    if s.maniac:
        shooters.append((_CIV, _YAK, _TRI))

    choices: list[list[tuple[str, Fraction]]] = []
    for kinds in shooters:
        pool = sum(s.count(kind) for kind in kinds)
        choices.append([(k, Fraction(s.count(k), pool)) for k in kinds if s.count(k)])

    result: dict[State, Fraction] = defaultdict(Fraction)
    for combo in product(*choices):
        p = _ONE
        for _, q in combo:
            p *= q
        hits = Counter(kind for kind, _ in combo)

        # Only clan bullets can hit the maniac; he cannot be hit by himself.
        bullets = hits[_MAN]
        maniac, vest = s.maniac, s.vest
        if bullets:
            if bullets == 1 and vest:
                vest = False  # stopped, and the vest is spent
            else:
                maniac, vest = False, False

        for dc, pc in _distinct_victims(hits[_CIV], s.civilians):
            for dy, py in _distinct_victims(hits[_YAK], s.yakuza):
                for dt, pt in _distinct_victims(hits[_TRI], s.triad):
                    after = State(s.civilians - dc, s.yakuza - dy, s.triad - dt, maniac, vest)
                    result[after] += p * pc * py * pt
    return result


def _end_of_turn(s: State) -> _Vector:
    """Value of ``s`` just after a night: wins, then the duel, then the next turn."""
    winner = _winner(s)
    if winner is not None:
        return _unit(winner)
    duel = _duel(s)
    if duel is not None:
        return duel
    return _value(s, False)


@cache
def _value(s: State, turn0: bool) -> _Vector:
    """Outcome probabilities from the start of a turn in state ``s``."""
    winner = _winner(s)
    if winner is not None:
        return _unit(winner)
    acc = [_ZERO] * len(OUTCOMES)

    if turn0:
        # R3.1: no vote; only the maniac acts.
        for after, p in _night(s, clans_act=False).items():
            _add(acc, p, _end_of_turn(after))
        return tuple(acc)

    # Day: a uniformly random living player is hanged (R5.2).
    n = s.alive
    for kind in (_CIV, _YAK, _TRI, _MAN):
        count = s.count(kind)
        if not count:
            continue
        p_hang = Fraction(count, n)
        hanged = State(
            s.civilians - (kind == _CIV),
            s.yakuza - (kind == _YAK),
            s.triad - (kind == _TRI),
            s.maniac and kind != _MAN,
            s.vest and kind != _MAN,
        )
        winner = _winner(hanged)
        if winner is not None:
            _add(acc, p_hang, _unit(winner))
            continue
        for after, p in _night(hanged, clans_act=True).items():
            _add(acc, p_hang * p, _end_of_turn(after))
    return tuple(acc)


def _check_count(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")


def exact_outcome_fraction(
    civilians: int, yakuza: int, triad: int, maniac: bool, vest: bool = True
) -> dict[str, Fraction]:
    """Exact probability of each outcome of the uniform game (see the module docstring).

    ``civilians``, ``yakuza`` and ``triad`` are the numbers of plain civilians and plain
    mafiosi of each clan; ``maniac`` says whether there is a maniac and ``vest`` whether
    he has his vest (ignored without a maniac). Returns a dict keyed by every name in
    :data:`OUTCOMES` (``0`` for impossible outcomes); the values sum to exactly 1.
    """
    _check_count("civilians", civilians)
    _check_count("yakuza", yakuza)
    _check_count("triad", triad)
    total = civilians + yakuza + triad + int(bool(maniac))
    if total < MIN_PLAYERS:
        raise ValueError(f"a game needs at least 3 players, got {total}")
    start = State(civilians, yakuza, triad, bool(maniac), bool(maniac) and bool(vest))
    return dict(zip(OUTCOMES, _value(start, True), strict=True))


def exact_outcome(
    civilians: int, yakuza: int, triad: int, maniac: bool, vest: bool = True
) -> dict[str, float]:
    """:func:`exact_outcome_fraction` as floats."""
    exact = exact_outcome_fraction(civilians, yakuza, triad, maniac, vest)
    return {name: float(value) for name, value in exact.items()}


def deviation_z(wins: int, games: int, p: float) -> float:
    """How far a simulated share `wins / games` lies from the exact probability `p`, in
    standard errors sqrt(p (1 - p) / games). When `p` is 0 or 1 the outcome is impossible
    (certain) and any game against it is a failure of the engine: the result is then
    +-inf, not 0 (0 only when the simulation agrees exactly)."""
    if games <= 0:
        raise ValueError(f"games must be > 0, got {games}")
    share = wins / games
    if 0 < p < 1:
        return (share - p) / math.sqrt(p * (1 - p) / games)
    if share == p:
        return 0.0
    return math.copysign(math.inf, share - p)
