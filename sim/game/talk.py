"""The day's talk (R2.7, P5.5): the kinds of statement, the channels a statement may go
on, and the statement itself. The engine decides nothing from what is said; it checks only
who may say it where (`sim.engine.game.Game.say`).

The kinds and channels are closed sets of strings (`StrEnum`): a member equals its string
(`StatementKind.CLAIM == "claim"`) and is written as that string in JSON and in logs, so
the game files and logs read as before; a misspelt kind or channel is refused when the
statement is made, instead of being a statement nobody reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from sim.game.pickling import picklable


class StatementKind(StrEnum):
    """What a statement does."""

    CLAIM = "claim"  #: "I am the X" (`value`: the role claimed), true or false
    CHECK = "check"  #: "I checked `target`: `value`" (a check result), true or false
    ACCUSE = "accuse"  #: "`target` is an enemy"
    DEFEND = "defend"  #: what the day's leader says for himself (P5.5)
    ORDER = "order"  #: the Don's order to his clan (on the clan's channel)


class Channel(StrEnum):
    """Where a statement is said: in public, or on a private channel R2.7 allows."""

    PUBLIC = "public"  #: to everybody
    CLAN = "clan"  #: within the speaker's clan
    BADGE = "badge"  #: between the commissar and the sergeant
    CHECKED = "checked"  #: from the commissar or sergeant to `to`, a player they checked


#: The members as module constants, for the loops over the day's statements: in the pure
#: build a member read through its class costs about ten times a module constant (the
#: enum's descriptor; compiled, both are a load).
CLAIM: Final = StatementKind.CLAIM
CHECK: Final = StatementKind.CHECK
ACCUSE: Final = StatementKind.ACCUSE
DEFEND: Final = StatementKind.DEFEND
ORDER: Final = StatementKind.ORDER
PUBLIC: Final = Channel.PUBLIC
CLAN: Final = Channel.CLAN
BADGE: Final = Channel.BADGE
CHECKED: Final = Channel.CHECKED


@dataclass(frozen=True, slots=True)
class Statement:
    """A day statement: a claim of a role (true or false), a check announcement ("X is
    triad", "X is clean"), an accusation, a defence or a clan's order. `kind` and `channel`
    may be given as their strings; they are kept as members of their closed sets."""

    turn: int
    speaker: int
    kind: StatementKind
    target: int = -1
    value: str = ""  # the claimed role, or the announced check result
    channel: Channel = PUBLIC
    to: int = -1  # the listener of a CHECKED statement

    # Written out (sim.game.pickling says why): the same parameters as the generated one,
    # and a kind or channel given as a string becomes its member (ValueError if there is
    # none: a misspelt kind is refused, not ignored).
    def __init__(self, turn: int, speaker: int, kind: StatementKind | str, target: int = -1,
                 value: str = "", channel: Channel | str = PUBLIC,
                 to: int = -1) -> None:
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "speaker", speaker)
        object.__setattr__(self, "kind",
                           kind if type(kind) is StatementKind else StatementKind(kind))
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "channel",
                           channel if type(channel) is Channel else Channel(channel))
        object.__setattr__(self, "to", to)


# compiled, it rebuilds from its field values (sim.game.pickling)
picklable(Statement)
