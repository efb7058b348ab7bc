"""The Russian newspaper reads as Russian: a player's optional grammatical gender in the
`resolve` schema, forms without gendered verbs when it is unknown, Russian role names."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sim.engine.newspaper import CAUSE_RU, beaten_line, causes_text, death_line
from sim.game.errors import InputError
from sim.game.roles import Cause
from sim.play.resolve import resolve

ROOT = Path(__file__).resolve().parent.parent

#: Past-tense verbs and short participles that agree with a man.
MASCULINE = re.compile(r"(?<!\w)(убит|повешен|удалён|погиб|пропал|совершил|пал|избит)(?!\w)")
#: ... and with a woman.
FEMININE = re.compile(r"(?<!\w)(убита|повешена|удалена|погибла|пропала|совершила|пала|избита)"
                      r"(?!\w)")
#: A slashed "убит(а)" is not allowed anywhere.
SLASHED = re.compile(r"\w\((а|ла)\)")

FEMALE_RU = {
    Cause.HANGED: "Анна (мирный житель) повешена.",
    Cause.MISSING: "Анна (мирный житель) пропала без вести.",
    Cause.REMOVED: "Анна (мирный житель) удалена из партии.",
    Cause.YAKUZA: "Анна (мирный житель) убита Якудзой.",
    Cause.TRIAD: "Анна (мирный житель) убита Триадой.",
    Cause.MANIAC: "Анна (мирный житель) убита маньяком.",
    Cause.AMBUSH: "Анна (мирный житель) погибла в засаде.",
    Cause.NINJA: "Анна (мирный житель) убита ниндзя.",
    Cause.TESTAMENT: "Анна (мирный житель) убита по завещанию ниндзя.",
    Cause.HARAKIRI: "Анна (мирный житель) совершила харакири.",
    Cause.KAMIKAZE: "Анна (мирный житель) погибла при взрыве камикадзе.",
    Cause.STRAY_BULLET: "Анна (мирный житель) погибла от шальной пули.",
    Cause.ARMY: "Анна (мирный житель) пала от Армии Тьмы.",
}
UNKNOWN_RU = {
    Cause.HANGED: "Саша (мирный житель) — повешение по итогам голосования.",
    Cause.MISSING: "Саша (мирный житель) — в числе пропавших без вести.",
    Cause.REMOVED: "Саша (мирный житель) — удаление из партии.",
    Cause.YAKUZA: "Саша (мирный житель) — жертва Якудзы.",
    Cause.TRIAD: "Саша (мирный житель) — жертва Триады.",
    Cause.MANIAC: "Саша (мирный житель) — жертва маньяка.",
    Cause.AMBUSH: "Саша (мирный житель) — жертва засады.",
    Cause.NINJA: "Саша (мирный житель) — жертва ниндзя.",
    Cause.TESTAMENT: "Саша (мирный житель) — жертва завещания ниндзя.",
    Cause.HARAKIRI: "Саша (мирный житель) — харакири.",
    Cause.KAMIKAZE: "Саша (мирный житель) — жертва взрыва камикадзе.",
    Cause.STRAY_BULLET: "Саша (мирный житель) — жертва шальной пули.",
    Cause.ARMY: "Саша (мирный житель) — жертва Армии Тьмы.",
}


def test_every_cause_has_all_three_forms() -> None:
    assert set(CAUSE_RU) == set(Cause) == set(FEMALE_RU) == set(UNKNOWN_RU)
    for cause, forms in CAUSE_RU.items():
        assert set(forms) == {"m", "f", None}, cause


@pytest.mark.parametrize("cause", list(Cause), ids=lambda c: c.key)
def test_female_line_for_each_cause(cause: Cause) -> None:
    line = death_line("Анна (мирный житель)", [cause], "ru", "f")
    assert line == FEMALE_RU[cause]
    assert not MASCULINE.search(line)


@pytest.mark.parametrize("cause", list(Cause), ids=lambda c: c.key)
def test_unspecified_gender_line_for_each_cause(cause: Cause) -> None:
    line = death_line("Саша (мирный житель)", [cause], "ru")
    assert line == UNKNOWN_RU[cause]
    assert not MASCULINE.search(line) and not FEMININE.search(line)
    assert not SLASHED.search(line)


@pytest.mark.parametrize("cause", list(Cause), ids=lambda c: c.key)
def test_male_line_for_each_cause(cause: Cause) -> None:
    line = death_line("Борис", [cause], "ru", "m")
    assert MASCULINE.search(line) and not FEMININE.search(line)


def test_several_causes_share_their_verb() -> None:
    both = [Cause.TRIAD, Cause.MANIAC]
    assert causes_text(both, "ru", "f") == "убита Триадой и маньяком"
    assert causes_text(both, "ru", "m") == "убит Триадой и маньяком"
    assert causes_text(both, "ru") == "жертва Триады и маньяка"
    three = [Cause.YAKUZA, Cause.MANIAC, Cause.NINJA]
    assert causes_text(three, "ru") == "жертва Якудзы, маньяка и ниндзя"
    assert causes_text([Cause.AMBUSH, Cause.STRAY_BULLET], "ru", "f") == \
        "погибла в засаде и от шальной пули"
    assert causes_text(both, "en") == "killed by the Triad and killed by the maniac"


def test_beaten_lines() -> None:
    assert beaten_line("Анна", "ru", "f") == "Анна избита громилой."
    assert beaten_line("Борис", "ru", "m") == "Борис избит громилой."
    assert beaten_line("Саша", "ru") == "Саша — в живых после нападения громилы."
    assert beaten_line("Anna", "en", "f") == "Anna was beaten by the thug."


def test_R10_4_a_player_beaten_and_killed_in_one_turn_has_one_line() -> None:
    """Issue 25: a man killed and beaten the same night was listed as beaten after his
    death line. Now the beating is said in the death's line, for every gender."""
    from sim.engine.newspaper import death_line

    assert death_line("Борис", [Cause.YAKUZA], "ru", "m", beaten=True) == \
        "Борис убит Якудзой, до этого избит громилой."
    assert death_line("Анна", [Cause.YAKUZA], "ru", "f", beaten=True) == \
        "Анна убита Якудзой, до этого избита громилой."
    assert death_line("Саша", [Cause.YAKUZA], "ru", None, beaten=True) == \
        "Саша — жертва Якудзы, до этого — избиение громилой."
    assert death_line("Anna", [Cause.YAKUZA], "en", beaten=True) == \
        "Anna: killed by the Yakuza, beaten by the thug before."


# -- the resolve schema ----------------------------------------------------------------------
def _game(**genders: str) -> dict:
    players = [
        {"name": "Анна", "role": "commissar"},
        {"name": "Борис", "role": "civilian"},
        {"name": "Саша", "role": "doctor"},
        {"name": "Юрий", "role": "mafioso", "clan": "yakuza"},
        {"name": "Ли", "role": "thug"},
        {"name": "Вэй", "role": "mafioso", "clan": "triad"},
        {"name": "Мария", "role": "maniac"},
        {"name": "Оля", "role": "civilian"},
        {"name": "Пётр", "role": "civilian"},
    ]
    for p in players:
        if p["name"] in genders:
            p["gender"] = genders[p["name"]]
    return {
        "players": players,
        "rules": {"abstention_limit": 0, "require_vsb": False},
        "turns": [
            {"night": {"maniac": {"target": "Борис"}}},
            {"votes": [["Анна", "Юрий"], ["Саша", "Юрий"], ["Оля", "Юрий"]],
             "night": {"triad": {"target": "Анна", "shooter": "Ли"},
                       "maniac": {"target": "Анна"}}},
            {"absent": ["Оля"], "night": {"thug": {"target": "Саша"}}},
        ],
    }


def _papers(game: dict) -> str:
    return "\n".join(t["newspaper"]["ru"] for t in resolve(game)["turns"])


def test_schema_gender_reaches_the_newspaper() -> None:
    ru = _papers(_game(Анна="f", Борис="m", Юрий="m", Оля="f", Саша="f"))
    assert "Борис убит маньяком." in ru
    assert "Юрий (мафиози Якудзы) повешен." in ru
    assert "Анна убита Триадой и маньяком." in ru
    assert "Оля (мирный житель) пропала без вести." in ru
    assert "Саша избита громилой." in ru


def test_schema_without_gender_uses_forms_without_gendered_verbs() -> None:
    ru = _papers(_game())
    assert "Борис — жертва маньяка." in ru
    assert "Юрий (мафиози Якудзы) — повешение по итогам голосования." in ru
    assert "Анна — жертва Триады и маньяка." in ru
    assert "Оля (мирный житель) — в числе пропавших без вести." in ru
    assert "Саша — в живых после нападения громилы." in ru
    body = ru.replace("никто не погиб", "")
    assert not MASCULINE.search(body) and not FEMININE.search(body)


def test_gender_changes_nothing_but_the_russian_words() -> None:
    plain, marked = resolve(_game()), resolve(_game(Анна="f", Борис="m"))
    for a, b in zip(plain["turns"], marked["turns"], strict=True):
        assert a["newspaper"]["en"] == b["newspaper"]["en"]
        assert {k: v for k, v in a.items() if k != "newspaper"} == \
            {k: v for k, v in b.items() if k != "newspaper"}
    assert plain["outcome"] == marked["outcome"]


@pytest.mark.parametrize("bad", ["w", "F", "female", "", 1, True, ["f"], {"f": 1}])
def test_schema_bad_gender_is_an_input_error(bad: object) -> None:
    game = _game()
    game["players"][0]["gender"] = bad
    with pytest.raises(InputError, match=r"players\[0\] \(Анна\): 'gender' must be \"m\" or \"f\""):
        resolve(game)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)


def test_cli_bad_gender_one_line_exit_2(tmp_path: Path) -> None:
    game = _game()
    game["players"][2]["gender"] = "x"
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    res = _cli("resolve", str(path))
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert "players[2] (Саша): 'gender' must be \"m\" or \"f\"" in res.stderr
    game["players"][2]["gender"] = "f"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    ok = _cli("resolve", str(path), "--newspaper", "ru")
    assert ok.returncode == 0, ok.stderr
    assert "Саша избита громилой." in ok.stdout


# -- replay: Russian role names throughout ---------------------------------------------------
ROLE_KEYS = re.compile(r"(?i)\b(civilian|commissar|sergeant|ninja|doctor|necromancer|vsb|"
                       r"mafioso|kamikaze|thug|maniac|yakuza|triad)\b")


def test_replay_in_russian_has_no_latin_role_names() -> None:
    common = ("replay", "--seed", "3", "--game", "0", "--players", "12", "--lang", "ru")
    out = _cli(*common)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Роли: P1=")
    assert not ROLE_KEYS.search(out.stdout), out.stdout
    # the names P1..P12 are the only Latin text
    assert not re.search(r"[A-Za-z]", re.sub(r"\bP\d+\b", "", out.stdout)), out.stdout
    assert "мафиози Якудзы" in out.stdout and "громила Триады" in out.stdout
    log = _cli(*common, "--log")
    assert log.returncode == 0, log.stderr
    assert not ROLE_KEYS.search(log.stdout), log.stdout
