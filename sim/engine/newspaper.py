"""The host's newspaper of a turn (R15), in Russian and English.

It prints who was hanged, killed (and by whom, R15.3), went missing or was removed, and who
was beaten (R10.4). Roles are revealed for the hanged, the missing and the removed (R15.2),
and for night deaths only with `reveal_night_roles` (D15.1). An ambush kill never names the
maniac (R15.4). Checks and saves are private and never printed.

The Russian text agrees with a player's grammatical gender when it is known (`"gender"` in
the `resolve` schema: "Анна убита маньяком") and otherwise uses forms that carry none
("Анна — жертва маньяка"); see CAUSE_RU. Role names are Russian throughout.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.engine.report import Death, TurnReport
from sim.engine.state import GameState
from sim.game.roles import CLAN_ROLES, Cause, Role, Winner

ROLE_RU = {
    Role.CIVILIAN: "мирный житель", Role.COMMISSAR: "комиссар", Role.SERGEANT: "сержант",
    Role.NINJA: "ниндзя", Role.DOCTOR: "врач", Role.NECROMANCER: "некромант",
    Role.VSB: "ВСБ", Role.MAFIOSO: "мафиози", Role.KAMIKAZE: "камикадзе",
    Role.THUG: "громила", Role.MANIAC: "маньяк",
}
ROLE_EN = {
    Role.CIVILIAN: "civilian", Role.COMMISSAR: "commissar", Role.SERGEANT: "sergeant",
    Role.NINJA: "ninja", Role.DOCTOR: "doctor", Role.NECROMANCER: "necromancer",
    Role.VSB: "VSB", Role.MAFIOSO: "mafioso", Role.KAMIKAZE: "kamikaze", Role.THUG: "thug",
    Role.MANIAC: "maniac",
}
CLAN_RU = {1: "Якудза", 2: "Триада"}
#: The clans in the Russian genitive: "мафиози Якудзы", "заказ Триады".
CLAN_GEN_RU = {1: "Якудзы", 2: "Триады"}
CLAN_EN = {1: "Yakuza", 2: "Triad"}

#: A player's grammatical gender in the `resolve` schema: "m" or "f"; absent means unknown.
GENDERS = ("m", "f")

#: How each cause is printed in English (R15.3, R15.4).
CAUSE_EN = {
    Cause.HANGED: "hanged",
    Cause.MISSING: "went missing",
    Cause.REMOVED: "removed from the game",
    Cause.YAKUZA: "killed by the Yakuza",
    Cause.TRIAD: "killed by the Triad",
    Cause.MANIAC: "killed by the maniac",
    Cause.AMBUSH: "died in an ambush",
    Cause.NINJA: "killed by the ninja",
    Cause.TESTAMENT: "killed by the ninja's testament",
    Cause.HARAKIRI: "committed harakiri",
    Cause.KAMIKAZE: "died in a kamikaze blast",
    Cause.STRAY_BULLET: "was hit by a stray bullet",
    Cause.ARMY: "fell to the Army of Darkness",
}

#: How each cause is printed in Russian (R15.3, R15.4), as (head, tail) for a man ("m"), a
#: woman ("f") and a player of unknown gender (None). A Russian past-tense verb or
#: participle agrees with the player's gender ("убит" / "убита"), so when the gender is not
#: known the newspaper uses forms that carry none: a noun phrase after a dash ("Анна —
#: жертва маньяка", "— в числе пропавших без вести", "— удаление из партии"), never a
#: slashed form such as "убит(а)". Causes of one death that share a head are joined:
#: "убита Якудзой и маньяком", "жертва Якудзы и маньяка".
CAUSE_RU: dict[Cause, dict[str | None, tuple[str, str]]] = {
    Cause.HANGED: {"m": ("повешен", ""), "f": ("повешена", ""),
                   None: ("повешение по итогам голосования", "")},
    Cause.MISSING: {"m": ("пропал без вести", ""), "f": ("пропала без вести", ""),
                    None: ("в числе пропавших без вести", "")},
    Cause.REMOVED: {"m": ("удалён из партии", ""), "f": ("удалена из партии", ""),
                    None: ("удаление из партии", "")},
    Cause.YAKUZA: {"m": ("убит", "Якудзой"), "f": ("убита", "Якудзой"),
                   None: ("жертва", "Якудзы")},
    Cause.TRIAD: {"m": ("убит", "Триадой"), "f": ("убита", "Триадой"),
                  None: ("жертва", "Триады")},
    Cause.MANIAC: {"m": ("убит", "маньяком"), "f": ("убита", "маньяком"),
                   None: ("жертва", "маньяка")},
    Cause.AMBUSH: {"m": ("погиб", "в засаде"), "f": ("погибла", "в засаде"),
                   None: ("жертва", "засады")},
    Cause.NINJA: {"m": ("убит", "ниндзя"), "f": ("убита", "ниндзя"),
                  None: ("жертва", "ниндзя")},
    Cause.TESTAMENT: {"m": ("убит", "по завещанию ниндзя"), "f": ("убита", "по завещанию ниндзя"),
                      None: ("жертва", "завещания ниндзя")},
    Cause.HARAKIRI: {"m": ("совершил харакири", ""), "f": ("совершила харакири", ""),
                     None: ("харакири", "")},
    Cause.KAMIKAZE: {"m": ("погиб", "при взрыве камикадзе"),
                     "f": ("погибла", "при взрыве камикадзе"),
                     None: ("жертва", "взрыва камикадзе")},
    Cause.STRAY_BULLET: {"m": ("погиб", "от шальной пули"), "f": ("погибла", "от шальной пули"),
                         None: ("жертва", "шальной пули")},
    Cause.ARMY: {"m": ("пал", "от Армии Тьмы"), "f": ("пала", "от Армии Тьмы"),
                 None: ("жертва", "Армии Тьмы")},
}
#: R10.4 "X избит громилой", by gender as above. Without a gender: "X — в живых после
#: нападения громилы" ("X — жертва нападения громилы" read as a death, and a name after
#: "Громила избил" would need its accusative, which an undeclined nickname lacks).
BEATEN_RU = {"m": "{x} избит громилой.", "f": "{x} избита громилой.",
             None: "{x} — в живых после нападения громилы."}
#: the same, as a clause after the death line of a player beaten and killed in one turn
#: (one line per player and turn): "убит Якудзой, до этого избит громилой"
BEATEN_TOO_RU = {"m": "до этого избит громилой", "f": "до этого избита громилой",
                 None: "до этого — избиение громилой"}


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " и " + items[-1]


def causes_text(causes: Sequence[Cause], lang: str, gender: str | None = None) -> str:
    """A death's causes (P15.1) in words: "убита Якудзой и маньяком", "жертва Якудзы и
    маньяка", "killed by the Yakuza and killed by the maniac"."""
    if lang != "ru":
        return " and ".join(CAUSE_EN[c] for c in causes)
    groups: list[tuple[str, list[str]]] = []
    for c in causes:
        head, tail = CAUSE_RU[c][gender]
        if groups and groups[-1][0] == head and tail and groups[-1][1]:
            groups[-1][1].append(tail)
        else:
            groups.append((head, [tail] if tail else []))
    return ", ".join(f"{head} {_and(tails)}" if tails else head for head, tails in groups)


def death_line(name: str, causes: Sequence[Cause], lang: str, gender: str | None = None,
               beaten: bool = False) -> str:
    """One death as a sentence: "Anna (commissar): killed by the maniac.", "Анна (комиссар)
    убита маньяком.", or without a known gender "Анна (комиссар) — жертва маньяка."
    `name` carries the role in brackets where it is shown. `beaten`: the thug beat him the
    same turn (R10.4), said in the same line."""
    what = causes_text(causes, lang, gender)
    if lang != "ru":
        return f"{name}: {what}" + (", beaten by the thug before." if beaten else ".")
    if beaten:
        what += ", " + BEATEN_TOO_RU[gender if gender in GENDERS else None]
    return f"{name} {what}." if gender in GENDERS else f"{name} — {what}."


def beaten_line(name: str, lang: str, gender: str | None = None) -> str:
    """R10.4: "X was beaten by the thug" / "X избит(а) громилой" (no gender: a noun phrase)."""
    if lang != "ru":
        return f"{name} was beaten by the thug."
    return BEATEN_RU[gender if gender in GENDERS else None].format(x=name)


WINNER_TEXT = {
    Winner.TOWN: ("победили мирные жители", "Town wins"),
    Winner.YAKUZA: ("победила Якудза", "the Yakuza wins"),
    Winner.TRIAD: ("победила Триада", "the Triad wins"),
    Winner.MANIAC: ("победил маньяк", "the maniac wins"),
    Winner.DRAW: ("ничья: в городе никого не осталось", "a draw: nobody is left alive"),
    Winner.STALEMATE: ("игра остановлена по лимиту ходов", "stopped at the turn limit"),
}


def role_label(st: GameState, seat: int, lang: str) -> str:
    """D15.2: mafia roles are printed with their clan ("Yakuza mafioso", "мафиози Якудзы")."""
    return seat_label(st.role[seat], int(st.clan[seat]), lang)


def seat_label(role: Role, clan: int, lang: str) -> str:
    """A role in words with its clan where it has one: "мафиози Якудзы", "ВСБ Триады",
    "Yakuza mafioso"."""
    if lang == "ru":
        text = ROLE_RU[role]
        if role in CLAN_ROLES or role is Role.VSB:
            text += " " + CLAN_GEN_RU[clan]
        return text
    text = ROLE_EN[role]
    if role in CLAN_ROLES or role is Role.VSB:
        text = f"{CLAN_EN[clan]} {text}"
    return text


def public_order(rep: TurnReport) -> list[Death]:
    """P15.3: the day's removals in step order, then the rest in seating order."""
    day = [d for d in rep.deaths if d.step <= 3]
    rest = sorted((d for d in rep.deaths if d.step > 3), key=lambda d: d.seat)
    return day + rest


def render(st: GameState, rep: TurnReport, lang: str,
           genders: Sequence[str | None] | None = None) -> str:
    """The newspaper of one turn in `lang` (`ru` or `en`). `genders` gives each seat's
    grammatical gender ("m", "f" or None for unknown) for the Russian text."""
    if lang not in ("ru", "en"):
        raise ValueError(f"newspaper language must be ru or en, not {lang!r}")
    ru = lang == "ru"
    lines = [f"Газета, ход {rep.turn}." if ru else f"Newspaper, turn {rep.turn}."]
    names = st.names
    reveal_night = st.rules.reveal_night_roles
    def gender(seat: int) -> str | None:
        return genders[seat] if genders is not None else None

    dead = {d.seat for d in rep.deaths}
    for d in public_order(rep):
        shown = d.cause in (Cause.HANGED, Cause.MISSING, Cause.REMOVED) or reveal_night
        role = f" ({role_label(st, d.seat, lang)})" if shown else ""
        lines.append(death_line(f"{names[d.seat]}{role}", d.causes, lang, gender(d.seat),
                                beaten=d.seat in rep.beaten))
    for v in rep.beaten:  # one line per player and turn: a dead man's beating is said above
        if v not in dead:
            lines.append(beaten_line(names[v], lang, gender(v)))
    if not rep.deaths and not rep.beaten:
        lines.append("Ночь прошла спокойно, никто не погиб." if ru
                     else "A quiet turn: nobody died.")
    if rep.outcome is not None:
        text = WINNER_TEXT[rep.outcome.winner][0 if ru else 1]
        lines.append(f"Игра окончена: {text}." if ru else f"The game is over: {text}.")
    return "\n".join(lines)
