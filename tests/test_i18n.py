"""Messages as data, worded per language (issue 25, point 1): the catalogs are complete and
consistent with the code, Russian plural forms and numbers read as Russian, and an engine
refusal is worded wholly in Russian while the command line keeps its English line."""

from __future__ import annotations

import json
import pickle
import re
import string
from pathlib import Path

import pytest

pytest.importorskip("babel")

from scripts_loader import load_script

from sim.game.errors import IllegalRequest, InputError
from sim.game.i18n import Words
from sim.game.messages import Msg, msg, nmsg
from sim.play.resolve import resolve

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: Latin words a Russian message may still hold: rule ids (R5.1, D2.1, P3.2) are matched
#: apart; these are the names of the players in the games below
LATIN = re.compile(r"[A-Za-z]{2,}")
RULE_ID = re.compile(r"\b[RDP]\d+(\.\d+)?\b")


def catalogs():
    return load_script("catalogs")


def latin_words(text: str, names: list[str]) -> list[str]:
    rest = RULE_ID.sub(" ", text)
    for n in sorted(names, key=len, reverse=True):
        rest = rest.replace(n, " ")
    return LATIN.findall(rest)


def fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


# -- the catalogs --------------------------------------------------------------------------------
def test_every_message_that_reaches_the_page_has_a_russian_translation():
    assert catalogs().missing("ru") == []


def test_russian_translations_use_only_the_values_their_messages_have():
    """A translation naming a value its message lacks would fall back to English."""
    from babel.messages.pofile import read_po

    with (ROOT / "sim/locale/ru/LC_MESSAGES/mafia_sim.po").open("rb") as f:
        cat = read_po(f, locale="ru")
    bad = []
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        have = set().union(*(fields(i) for i in ids)) | ({"n"} if len(ids) > 1 else set())
        if "{at}" in ids[0] and ("[{i}]" in ids[0]):
            have |= {"n"}  # a place in a file: its index counted from one
        if ids[0] == "players[{i}]":
            have |= {"n"}
        for s in strings:
            extra = {f.split(".")[0].split("[")[0] for f in fields(s)} - {
                f.split(".")[0].split("[")[0] for f in have}
            if extra:
                bad.append((ids[0], s, extra))
    assert bad == []


def test_the_russian_catalog_has_three_plural_forms():
    from sim.game.i18n import translations

    tr = translations("ru")
    forms = [tr.npgettext("players_n", "{n} player", "{n} players", n) for n in (1, 2, 5)]
    assert len(set(forms)) == 3


# -- grammar: counts of players, games and turns -------------------------------------------------
GRAMMAR = {
    # n: (players, games, turns)
    1: ("1 игрок", "1 партия", "1 ход"),
    2: ("2 игрока", "2 партии", "2 хода"),
    5: ("5 игроков", "5 партий", "5 ходов"),
    11: ("11 игроков", "11 партий", "11 ходов"),
    21: ("21 игрок", "21 партия", "21 ход"),
    22: ("22 игрока", "22 партии", "22 хода"),
    25: ("25 игроков", "25 партий", "25 ходов"),
}


@pytest.mark.parametrize("n", sorted(GRAMMAR))
def test_grammar_table_counts_of_players_games_and_turns_read_as_russian(n):
    from sim.web.i18n import translator

    t = translator("ru")
    assert (t("players_n", n=n), t("games_n", n=n), t("turns_n", n=n)) == GRAMMAR[n]
    heading = t("results_n", n=n)
    assert heading.endswith(GRAMMAR[n][0])
    # "для 21 игрока": the genitive after "для" is singular for 1 and 21, plural else
    rec = t("recommended", n=n)
    assert (f"для {n} игрока " in rec) == (n % 10 == 1 and n % 100 != 11)
    done = t("finished", n=n)
    assert done.endswith(GRAMMAR[n][1])
    en = translator("en")
    assert en("players_n", n=n) == (f"{n} player" if n == 1 else f"{n} players")


def test_numbers_and_percents_as_each_language_writes_them():
    ru, en = Words("ru"), Words("en")
    assert ru.number(62.5, ".1f") == "62,5" and en.number(62.5, ".1f") == "62.5"
    assert ru.number(10000) == "10\u00a0000" and en.number(10000) == "10,000"
    assert ru.percent(0.625) == "62,5\u00a0%" and en.percent(0.625) == "62.5%"
    assert ru.number(-2.25, "+.1f").startswith("-2,") and ru.number(2.5, "+.1f") == "+2,5"
    assert ru(msg("{x:.1f} points", x=1.25)) in ("1,2 points", "1,3 points")  # no catalog entry


# -- messages as data -------------------------------------------------------------------------------
def test_a_message_is_its_english_line_on_the_command_line():
    e = InputError("{where}: unknown player {name!r}", where="turns[2]", name="Ян")
    assert str(e) == "turns[2]: unknown player 'Ян'"
    assert str(nmsg("{n} turn", "{n} turns", 1)) == "1 turn"
    assert str(nmsg("{n} turn", "{n} turns", 3)) == "3 turns"
    assert str(Msg("a {literal} brace")) == "a {literal} brace"  # no values: not formatted


def test_an_error_crosses_processes_whole():
    """joblib's workers send errors back pickled: the message's data must survive."""
    e = IllegalRequest(3, "Иван", Msg("doctor"), msg("heal {player}", player="Пётр"), "R8.4",
                       Msg("the doctor cannot heal himself"))
    back = pickle.loads(pickle.dumps(e))
    assert str(back) == str(e) and back.rule == "R8.4" and back.msg == e.msg


def test_a_translation_that_names_a_missing_value_falls_back_to_english():
    class Broken:
        def gettext(self, text):
            return "{nope}"

    w = Words("ru")
    w.tr = Broken()  # type: ignore[assignment]
    assert w(msg("{player} is dead", player="Иван")) == "Иван is dead"


# -- an engine refusal, worded in Russian -------------------------------------------------------------
def _refusal(game: dict) -> IllegalRequest:
    with pytest.raises(IllegalRequest) as e:
        resolve(game)
    return e.value


def test_P3_2_a_dead_players_vote_is_refused_in_russian_with_no_latin_word():
    game = json.loads((EXAMPLES / "kamikaze_meets_thug.json").read_text(encoding="utf-8"))
    names = [p["name"] for p in game["players"]]
    dead = game["turns"][1]["night"]["kamikaze"]["target"]  # blown up on turn 1
    game["turns"] = [*game["turns"][:2], {"votes": [[dead, names[0]]]}]
    e = _refusal(game)
    ru = Words("ru")(e)
    assert e.rule == "P3.2" and "P3.2" in ru
    assert latin_words(ru, names) == [], ru
    assert str(e).startswith("illegal request on turn 2:")  # the command line: English
    assert "выбыл" in ru and dead in ru


def test_every_engine_fault_is_worded_in_russian_without_latin():
    """Each message sim.engine.legal can give, rendered with Cyrillic names: no Latin left
    but the rule ids (a missed translation shows as its English words)."""
    from babel.messages.extract import extract_from_file

    templates = set()
    for _, message, _, _ in extract_from_file("python", str(ROOT / "sim/engine/legal.py"),
                                              keywords=catalogs().KEYWORDS):
        templates.add(message[0] if isinstance(message, tuple) else message)
    assert len(templates) > 40
    ru = Words("ru")
    values = {"player": "Иван", "shooter": "Пётр", "seat": 7, "clan": Msg("yakuza"),
              "role": Msg("doctor"), "cause": Msg("hanged"), "needs": 4, "n": 1}
    for t in sorted(templates):
        wanted = {f: values[f] for f in fields(t)}
        text = ru(Msg(t, wanted))
        assert latin_words(text, []) == [], (t, text)
