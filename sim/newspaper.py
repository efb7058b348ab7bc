"""The host's newspaper of a turn (R15), in Russian and English.

It prints who was hanged, killed (and by whom, R15.3), went missing or was removed, and who
was beaten (R10.4). Roles are revealed for the hanged, the missing and the removed (R15.2),
and for night deaths only with `reveal_night_roles` (D15.1). An ambush kill never names the
maniac (R15.4). Checks and saves are private and never printed.
"""

from __future__ import annotations

from sim.engine import Death, TurnReport
from sim.roles import CLAN_ROLES, Cause, Role, Winner
from sim.state import GameState

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
CLAN_EN = {1: "Yakuza", 2: "Triad"}

#: How each cause is printed (R15.3, R15.4): (Russian, English).
CAUSE_TEXT = {
    Cause.HANGED: ("повешен", "hanged"),
    Cause.MISSING: ("пропал без вести", "went missing"),
    Cause.REMOVED: ("удалён из партии", "removed from the game"),
    Cause.YAKUZA: ("убит Якудзой", "killed by the Yakuza"),
    Cause.TRIAD: ("убит Триадой", "killed by the Triad"),
    Cause.MANIAC: ("убит маньяком", "killed by the maniac"),
    Cause.AMBUSH: ("погиб в засаде", "died in an ambush"),
    Cause.NINJA: ("убит ниндзя", "killed by the ninja"),
    Cause.TESTAMENT: ("убит по завещанию ниндзя", "killed by the ninja's testament"),
    Cause.HARAKIRI: ("совершил харакири", "committed harakiri"),
    Cause.KAMIKAZE: ("погиб при взрыве камикадзе", "died in a kamikaze blast"),
    Cause.STRAY_BULLET: ("погиб от шальной пули", "was hit by a stray bullet"),
    Cause.ARMY: ("пал от Армии Тьмы", "fell to the Army of Darkness"),
}
WINNER_TEXT = {
    Winner.TOWN: ("победили мирные жители", "Town wins"),
    Winner.YAKUZA: ("победила Якудза", "the Yakuza wins"),
    Winner.TRIAD: ("победила Триада", "the Triad wins"),
    Winner.MANIAC: ("победил маньяк", "the maniac wins"),
    Winner.DRAW: ("ничья: в городе никого не осталось", "a draw: nobody is left alive"),
    Winner.STALEMATE: ("игра остановлена по лимиту ходов", "stopped at the turn limit"),
}


def role_label(st: GameState, seat: int, lang: str) -> str:
    """D15.2: mafia roles are printed with their clan ("Yakuza mafioso", "мафиози Якудза")."""
    role = st.role[seat]
    if lang == "ru":
        text = ROLE_RU[role]
        if role in CLAN_ROLES or role is Role.VSB:
            text += " " + ("клана " if role is Role.VSB else "") + CLAN_RU[st.clan[seat]]
        return text
    text = ROLE_EN[role]
    if role in CLAN_ROLES or role is Role.VSB:
        text = f"{CLAN_EN[st.clan[seat]]} {text}"
    return text


def public_order(rep: TurnReport) -> list[Death]:
    """P15.3: the day's removals in step order, then the rest in seating order."""
    day = [d for d in rep.deaths if d.step <= 3]
    rest = sorted((d for d in rep.deaths if d.step > 3), key=lambda d: d.seat)
    return day + rest


def render(st: GameState, rep: TurnReport, lang: str) -> str:
    """The newspaper of one turn in `lang` (`ru` or `en`)."""
    if lang not in ("ru", "en"):
        raise ValueError(f"newspaper language must be ru or en, not {lang!r}")
    ru = lang == "ru"
    lines = [f"Газета, ход {rep.turn}." if ru else f"Newspaper, turn {rep.turn}."]
    names = st.names
    reveal_night = st.rules.reveal_night_roles
    for d in public_order(rep):
        texts = [CAUSE_TEXT[c][0 if ru else 1] for c in d.causes]
        what = ", ".join(texts) if ru else " and ".join(texts)
        shown = d.cause in (Cause.HANGED, Cause.MISSING, Cause.REMOVED) or reveal_night
        role = f" ({role_label(st, d.seat, lang)})" if shown else ""
        lines.append(f"{names[d.seat]}{role}: {what}.")
    for v in rep.beaten:
        lines.append(f"{names[v]} избит громилой." if ru else f"{names[v]} was beaten by the thug.")
    if not rep.deaths and not rep.beaten:
        lines.append("Ночь прошла спокойно, никто не погиб." if ru
                     else "A quiet turn: nobody died.")
    if rep.outcome is not None:
        text = WINNER_TEXT[rep.outcome.winner][0 if ru else 1]
        lines.append(f"Игра окончена: {text}." if ru else f"The game is over: {text}.")
    return "\n".join(lines)
