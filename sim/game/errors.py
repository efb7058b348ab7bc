"""Typed errors. Every message names what is wrong, so a CLI can print it as one line."""

from __future__ import annotations


class MafiaSimError(Exception):
    """Base of every error mafia-sim raises on purpose."""


class InputError(MafiaSimError):
    """A bad file, option or value given by the user."""


class CompositionError(InputError):
    """A composition that breaks D2.1; `problems` lists every fault found."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("invalid composition: " + "; ".join(problems))


class IllegalRequest(MafiaSimError):
    """A request the rules forbid. The message names turn, player, role, request and rule."""

    def __init__(self, turn: int, player: str, role: str, request: str, rule: str, why: str):
        self.turn = turn
        self.player = player
        self.role = role
        self.request = request
        self.rule = rule
        self.why = why
        super().__init__(
            f"illegal request on turn {turn}: {player} ({role}) {request}: {why} [{rule}]"
        )
