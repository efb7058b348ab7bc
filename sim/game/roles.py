"""Closed sets of the game: roles, camps, clans, causes of death, outcomes (R1, R15, R17)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final

from sim.game.pickling import picklable


class Role(IntEnum):
    """A player's role (R1). The value is a small int, the name the schema's role name."""

    CIVILIAN = 0  #: Мирный житель: plain civilian, "peaceful" (R1.2)
    COMMISSAR = 1  #: Комиссар: checks a player a night (R7), a positive hero (R1.3)
    SERGEANT = 2  #: Сержант: sees the checks, takes the badge (R7.4, R7.5), a hero
    NINJA = 3  #: Ниндзя: may kill at night (R11), a hero
    DOCTOR = 4  #: Врач: heals a player a night (R8), a hero
    NECROMANCER = 5  #: Некромант: two protects, the Army of Darkness (R12)
    VSB = 6  #: ВСБ: a clan boss's illegitimate son, Town, "peaceful" (R2.3, R1.2)
    MAFIOSO = 7  #: plain clan member (R14)
    KAMIKAZE = 8  #: Yakuza only: the blast (R13)
    THUG = 9  #: Triad only: the beating (R10)
    MANIAC = 10  #: third party, alone (R9)

    #: the schema's name of the role (`civilian`, `vsb`, ...)
    key: str

    @classmethod
    def parse(cls, text: str) -> Role:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = " ".join(r.key for r in cls)
            raise ValueError(f"unknown role {text!r} (roles: {names})") from None


class Clan(IntEnum):
    """A mafia clan (R1.1). NONE for players outside both clans."""

    NONE = 0
    YAKUZA = 1
    TRIAD = 2

    key: str  #: the schema's name (the name in lower case)

    @classmethod
    def parse(cls, text: str) -> Clan:
        value = text.strip().lower()
        if value == "yakuza":
            return cls.YAKUZA
        if value == "triad":
            return cls.TRIAD
        raise ValueError(f"unknown clan {text!r} (clans: yakuza triad)")


class Camp(IntEnum):
    """Who wins together (R1.1, R17)."""

    TOWN = 0
    YAKUZA = 1
    TRIAD = 2
    MANIAC = 3

    key: str  #: the schema's name (the name in lower case)


#: Heroes for the Army of Darkness (R1.3).
POSITIVE_HEROES = frozenset({Role.COMMISSAR, Role.SERGEANT, Role.NINJA, Role.DOCTOR})
#: "Peaceful characters" for the ninja's harakiri (R1.2).
PEACEFUL = frozenset({Role.CIVILIAN, Role.VSB})
#: Roles of which a game has at most one unless the rule set allows more (D2.1).
UNIQUE_ROLES = frozenset(
    {
        Role.COMMISSAR,
        Role.SERGEANT,
        Role.NINJA,
        Role.DOCTOR,
        Role.NECROMANCER,
        Role.KAMIKAZE,
        Role.THUG,
        Role.MANIAC,
    }
)
#: Clan roles (R14, R13, R10).
CLAN_ROLES = frozenset({Role.MAFIOSO, Role.KAMIKAZE, Role.THUG})


def camp_of(role: Role, clan: Clan) -> Camp:
    """The camp of a role (R1): clan members play for their clan, the VSB for Town."""
    if role in CLAN_ROLES:
        return Camp(int(clan))
    if role is Role.MANIAC:
        return Camp.MANIAC
    return Camp.TOWN


class Shown(StrEnum):
    """What a commissar's check shows (R7.2, R7.3, D7.1): a clan member's clan, a VSB as his
    clan's son, anyone else his role. The value is the wire's string (JSON, logs, announced
    checks), so `Shown.VSB_TRIAD == "vsb:triad"`; read `.clan` and `.role` instead of
    splitting it."""

    CIVILIAN = "civilian"
    COMMISSAR = "commissar"
    SERGEANT = "sergeant"
    NINJA = "ninja"
    DOCTOR = "doctor"
    NECROMANCER = "necromancer"
    MANIAC = "maniac"
    YAKUZA = "yakuza"
    TRIAD = "triad"
    VSB_YAKUZA = "vsb:yakuza"
    VSB_TRIAD = "vsb:triad"

    @classmethod
    def of(cls, role: Role, clan: Clan) -> Shown:
        """The result of checking a player of this role in this clan."""
        if role in CLAN_ROLES:
            return cls.YAKUZA if clan is Clan.YAKUZA else cls.TRIAD
        if role is Role.VSB:
            return cls.VSB_YAKUZA if clan is Clan.YAKUZA else cls.VSB_TRIAD
        return cls(role.key)

    @property
    def clan(self) -> Clan:
        """The clan the result names (a member's or a VSB's), else Clan.NONE."""
        if self in (Shown.YAKUZA, Shown.VSB_YAKUZA):
            return Clan.YAKUZA
        if self in (Shown.TRIAD, Shown.VSB_TRIAD):
            return Clan.TRIAD
        return Clan.NONE

    @property
    def role(self) -> Role | None:
        """The role the result names; None for a clan member (the check shows his clan only)."""
        if self in (Shown.YAKUZA, Shown.TRIAD):
            return None
        if self in (Shown.VSB_YAKUZA, Shown.VSB_TRIAD):
            return Role.VSB
        return Role.parse(self.value)

    @property
    def evil(self) -> bool:
        """Whether the result shows an enemy of Town (a clan member or the maniac)."""
        return self in (Shown.YAKUZA, Shown.TRIAD, Shown.MANIAC)


class Cause(IntEnum):
    """Why a player left the game (R15.3). The order is P15.1's order of `causes`."""

    KAMIKAZE = 0  #: in a kamikaze blast, or touching the kamikaze (R13)
    AMBUSH = 1  #: in the maniac's ambush (R9.4)
    STRAY_BULLET = 2  #: the thug's stray bullet (R10.6, D10.1)
    YAKUZA = 3  #: shot by the Yakuza (R14.1)
    TRIAD = 4  #: shot by the Triad (R14.1)
    MANIAC = 5  #: killed by the maniac (R9.1)
    NINJA = 6  #: killed by the ninja (R11.1)
    TESTAMENT = 7  #: the hanged ninja's testament (R11.4)
    ARMY = 8  #: the Army of Darkness, or the necromancer who raised it (R12.5)
    HARAKIRI = 9  #: the ninja's harakiri (R11.3)
    HANGED = 10  #: hanged by vote (R5.2)
    MISSING = 11  #: went missing (R16.1, R16.2)
    REMOVED = 12  #: removed by the host (R16.3)

    key: str  #: the schema's name (the name in lower case)


#: Causes that count as "at the hands of the mafia or the maniac" (D12.3).
ARMY_CAUSES = frozenset({Cause.YAKUZA, Cause.TRIAD, Cause.KAMIKAZE, Cause.MANIAC, Cause.AMBUSH})


class Winner(IntEnum):
    """The result of a game (R17, D17.3, D17.4)."""

    TOWN = 0
    YAKUZA = 1
    TRIAD = 2
    MANIAC = 3
    DRAW = 4  #: nobody alive (D17.3)
    STALEMATE = 5  #: the turn limit was reached (D17.4)

    key: str  #: the schema's name (the name in lower case)


class Reason(IntEnum):
    """How a game ended."""

    CAMP_WIPE = 0  #: one camp is all that is left (R17.1-R17.3)
    VSB_PAIR = 1  #: a mafioso and his own clan's VSB are the last two (R17.5)
    DUEL_VOTES = 2  #: duel won on fewer votes against (R17.4)
    DUEL_FIRST_VOTE = 3  #: duel, equal votes: the first voted against loses (D17.2)
    DUEL_COIN = 4  #: duel, no votes against either: a fair coin (D17.2)
    NOBODY_ALIVE = 5  #: draw (D17.3)
    TURN_LIMIT = 6  #: stalemate (D17.4)

    key: str  #: the schema's name (the name in lower case)

    @property
    def is_duel(self) -> bool:
        return self in (Reason.DUEL_VOTES, Reason.DUEL_FIRST_VOTE, Reason.DUEL_COIN)


# Each member's `key`, set once: a plain attribute of the member is read in 20 ns from
# compiled code; a (cached) property cost 100 ns a read, compiled or not.
for _closed_set in (Role, Clan, Camp, Cause, Winner, Reason):
    for _member in _closed_set:
        _member.key = _member.name.lower()

#: The results' keys in the order of Winner: the order every table of win shares prints.
WINNER_KEYS: Final = [w.key for w in Winner]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: who won and why (R17)."""

    winner: Winner
    reason: Reason
    turn: int

    def as_dict(self) -> dict[str, object]:
        return {"winner": self.winner.key, "reason": self.reason.key, "turn": self.turn}


# compiled, it rebuilds from its field values (sim.game.pickling)
picklable(Outcome)
