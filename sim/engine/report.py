"""What one turn did: its deaths, checks and the host's report (R15), as the engine writes
them and the newspaper, the game log and the players' views read them."""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.game.roles import Cause, Outcome, Shown


@dataclass(slots=True)
class Death:
    seat: int
    causes: tuple[Cause, ...]  # P15.1 order; causes[0] is the cause
    step: int

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, seat: int, causes: tuple[Cause, ...], step: int) -> None:
        self.seat = seat
        self.causes = causes
        self.step = step

    @property
    def cause(self) -> Cause:
        return self.causes[0]


@dataclass(slots=True)
class CheckResult:
    by: int
    target: int
    result: Shown | None  # None: the check met the ambush (R7.7)
    thug: int  # the thug who beat the target that night (R7.6), else -1
    seen_by: tuple[int, ...]
    turn: int = 0

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, by: int, target: int, result: Shown | None, thug: int,
                 seen_by: tuple[int, ...], turn: int = 0) -> None:
        self.by = by
        self.target = target
        self.result = result
        self.thug = thug
        self.seen_by = seen_by
        self.turn = turn


@dataclass(slots=True)
class TurnReport:
    """What happened in one turn: the newspaper's facts and the host's private ones."""

    turn: int
    hanged: int = -1
    deaths: list[Death] = field(default_factory=list)
    beaten: list[int] = field(default_factory=list)
    checks: list[CheckResult] = field(default_factory=list)
    protects_fired: list[int] = field(default_factory=list)
    vest_spent: bool = False
    army_raised: bool = False
    votes: list[tuple[int, int]] = field(default_factory=list)  # accepted votes, in order
    outcome: Outcome | None = None

    # Written out (sim.game.pickling says why): the same parameters as the generated one, an
    # empty list where a field's default is one.
    def __init__(self, turn: int, hanged: int = -1, deaths: list[Death] | None = None,
                 beaten: list[int] | None = None, checks: list[CheckResult] | None = None,
                 protects_fired: list[int] | None = None, vest_spent: bool = False,
                 army_raised: bool = False, votes: list[tuple[int, int]] | None = None,
                 outcome: Outcome | None = None) -> None:
        self.turn = turn
        self.hanged = hanged
        self.deaths = [] if deaths is None else deaths
        self.beaten = [] if beaten is None else beaten
        self.checks = [] if checks is None else checks
        self.protects_fired = [] if protects_fired is None else protects_fired
        self.vest_spent = vest_spent
        self.army_raised = army_raised
        self.votes = [] if votes is None else votes
        self.outcome = outcome
