"""Typed errors. Every message names what is wrong, so a CLI can print it as one line.

An error carries its message as data (`sim.game.messages.Msg`: an English template and its
values, `.msg`), so the command line prints it in English and the page words the same error in
the reader's language (`sim.game.i18n.Words`)."""

from __future__ import annotations

from typing import Any

from sim.game.messages import Msg


class MafiaSimError(Exception):
    """Base of every error mafia-sim raises on purpose: `MafiaSimError(template, **values)`
    (or a ready `Msg`); `str(e)` is the English line."""

    def __init__(self, text: str | Msg = "", /, **values: Any):
        self.msg = text if isinstance(text, Msg) else Msg(text, values)
        super().__init__(str(self.msg))

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from its fields, not from the one-line message (a worker's error reaches
        # the parent process whole, whatever the subclass's constructor takes)
        return (_rebuild, (type(self), self.__dict__, self.args))


def _rebuild(cls: type[MafiaSimError], fields: dict[str, Any],
             args: tuple[Any, ...]) -> MafiaSimError:
    e = cls.__new__(cls)
    e.__dict__.update(fields)
    e.args = args
    return e


class InputError(MafiaSimError):
    """A bad file, option or value given by the user."""


class CompositionError(InputError):
    """A composition that breaks D2.1; `problems` lists every fault found."""

    def __init__(self, problems: list[Msg]):
        self.problems = problems
        super().__init__(Msg("invalid composition: {problems}", {"problems": list(problems)}))


class IllegalRequest(MafiaSimError):
    """A request the rules forbid. The message names turn, player, role, request and rule;
    `role`, `request` and `why` are messages, worded per language."""

    def __init__(self, turn: int, player: str, role: Msg, request: Msg, rule: str, why: Msg):
        self.turn = turn
        self.player = player
        self.role = role
        self.request = request
        self.rule = rule
        self.why = why
        super().__init__(Msg(
            "illegal request on turn {turn}: {player} ({role}) {request}: {why} [{rule}]",
            {"turn": turn, "player": player, "role": role, "request": request, "why": why,
             "rule": rule}))
