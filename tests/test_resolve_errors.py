"""`mafia-sim resolve GAME.json` and `sim.play.resolve.resolve(dict)` on invalid input
(docs/resolve.md): every bad file or illegal request is exit status 2 with one line on
stderr naming the problem, never a traceback; from Python an InputError or IllegalRequest
whose message names it. Plus the success path: valid games, the examples, the newspapers.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from sim.game.errors import IllegalRequest, InputError, MafiaSimError
from sim.play.resolve import load_game_file, resolve

ROOT = Path(__file__).resolve().parent.parent

# ----------------------------------------------------------------------------------------
# a valid table and helpers
# ----------------------------------------------------------------------------------------

PLAYERS: list[dict[str, str]] = [
    {"name": "Anna", "role": "commissar"},
    {"name": "Serg", "role": "sergeant"},
    {"name": "Doc", "role": "doctor"},
    {"name": "Necro", "role": "necromancer"},
    {"name": "Nin", "role": "ninja"},
    {"name": "Max", "role": "maniac"},
    {"name": "Yuri", "role": "mafioso", "clan": "yakuza"},
    {"name": "Yoko", "role": "mafioso", "clan": "yakuza"},
    {"name": "Kenji", "role": "kamikaze"},
    {"name": "Wei", "role": "mafioso", "clan": "triad"},
    {"name": "Li", "role": "thug"},
    {"name": "Vy", "role": "vsb", "clan": "yakuza"},
    {"name": "Vt", "role": "vsb", "clan": "triad"},
    {"name": "Olga", "role": "civilian"},
    {"name": "Boris", "role": "civilian"},
]


def game(turns: list[Any] | None = None, **top: Any) -> dict[str, Any]:
    """A valid game on the 15-player table; `top` replaces top-level fields."""
    g: dict[str, Any] = {
        "players": copy.deepcopy(PLAYERS),
        "rules": {"abstention_limit": 0},
        "seed": 1,
        "turns": turns if turns is not None else [],
    }
    g.update(top)
    return g


def with_player(i: int, **fields: Any) -> dict[str, Any]:
    """The table with player i's fields changed (a value None removes the field)."""
    g = game()
    for k, v in fields.items():
        if v is None:
            g["players"][i].pop(k, None)
        else:
            g["players"][i][k] = v
    return g


def night1(night: dict[str, Any], **turn1: Any) -> dict[str, Any]:
    """Turn 0 quiet, then turn 1 with the given night (and other turn fields)."""
    return game([{}, {"night": night, **turn1}])


#: turn 0: the maniac kills the doctor; turn 1 carries `turn1`.
def after_doctor_died(turn1: dict[str, Any]) -> dict[str, Any]:
    return game([{"night": {"maniac": {"target": "Doc"}}}, turn1])


def short_game() -> dict[str, Any]:
    """A game that ends on turn 1: the maniac kills Ann on turn 0, then is hanged."""
    return {
        "players": [
            {"name": "Ann", "role": "civilian"},
            {"name": "Bob", "role": "civilian"},
            {"name": "Cid", "role": "civilian"},
            {"name": "Max", "role": "maniac"},
        ],
        "rules": {"abstention_limit": 0},
        "turns": [{"night": {"maniac": {"target": "Ann"}}},
                  {"votes": [["Bob", "Max"], ["Cid", "Max"]]}],
    }


def ended_then_more() -> dict[str, Any]:
    g = short_game()
    g["turns"].append({})
    return g


# ----------------------------------------------------------------------------------------
# the invalid games: (game, expected error class, words the message must contain)
# ----------------------------------------------------------------------------------------

P = pytest.param
CASES = [
    # -- the top level and the players --------------------------------------------------
    P({"turns": []}, InputError, ["players"], id="missing-players"),
    P(game(players=[]), InputError, ["players"], id="empty-players"),
    P(game(players="Anna"), InputError, ["players"], id="players-not-a-list"),
    P(game(bogus_top=1), InputError, ["bogus_top"], id="unknown-top-level-field"),
    P(with_player(13, role="wizard"), InputError, ["wizard", "Olga"], id="unknown-role"),
    P(with_player(13, role=3), InputError, ["role", "Olga"], id="role-not-a-string"),
    P(with_player(13, name=""), InputError, ["name"], id="empty-name"),
    P(with_player(13, name=7), InputError, ["name"], id="name-not-a-string"),
    P(with_player(13, hat="red"), InputError, ["hat"], id="unknown-player-field"),
    P(with_player(6, clan="mafia"), InputError, ["mafia", "Yuri"], id="unknown-clan"),
    P(with_player(6, clan=1), InputError, ["clan", "Yuri"], id="clan-not-a-string"),
    P(with_player(6, clan=None), InputError, ["mafioso", "clan", "Yuri"],
      id="mafioso-without-clan"),
    P(with_player(11, clan=None), InputError, ["vsb", "clan", "Vy"], id="vsb-without-clan"),
    P(with_player(8, clan="triad"), InputError, ["kamikaze", "Kenji"], id="kamikaze-in-triad"),
    P(with_player(10, clan="yakuza"), InputError, ["thug", "Li"], id="thug-in-yakuza"),
    P(with_player(13, clan="triad"), InputError, ["civilian", "Olga"], id="civilian-in-clan"),
    P(with_player(14, name="Olga"), InputError, ["duplicate", "Olga"], id="duplicate-names"),
    P(game(players=PLAYERS[:2]), InputError, ["3 players"], id="too-few-players"),
    P(game(players=[*PLAYERS, {"name": "Doc2", "role": "doctor"}]), InputError, ["doctor"],
      id="duplicate-unique-role"),
    # -- dons ---------------------------------------------------------------------------
    P(game(dons={"yakuza": "Nobody"}), InputError, ["Nobody"], id="unknown-don"),
    P(game(dons={"yakuza": "Kenji"}), InputError, ["Kenji", "kamikaze"], id="don-is-kamikaze"),
    P(game(dons={"triad": "Li"}), InputError, ["Li", "thug"], id="don-is-thug"),
    P(game(dons={"yakuza": "Wei"}), InputError, ["Wei", "yakuza"], id="don-of-other-clan"),
    P(game(dons={"mafia": "Yuri"}), InputError, ["mafia"], id="don-of-unknown-clan"),
    P(game(dons=["Yuri"]), InputError, ["dons"], id="dons-not-an-object"),
    # -- rules and seed -----------------------------------------------------------------
    P(game(rules={"no_such_rule": 1}), InputError, ["no_such_rule"], id="unknown-rule"),
    P(game(rules={"abstention_limit": "two"}), InputError, ["abstention_limit"],
      id="rule-int-given-text"),
    P(game(rules={"abstention_limit": 1.5}), InputError, ["abstention_limit"],
      id="rule-int-given-fraction"),
    P(game(rules={"duel": 3}), InputError, ["duel"], id="rule-bool-given-number"),
    P(game(rules={"vote_rejection": [0.5]}), InputError, ["vote_rejection"],
      id="rule-float-given-list"),
    P(game(rules={"turn_limit": None}), InputError, ["turn_limit"], id="rule-given-null"),
    P(game(rules={"p_absent": 2}), InputError, ["p_absent"], id="rule-out-of-range"),
    P(game(rules=[]), InputError, ["rules"], id="rules-not-an-object"),
    P(game(seed="1"), InputError, ["seed"], id="seed-not-an-integer"),
    P(game(seed=-1), InputError, ["seed"], id="negative-seed"),
    # -- turns: shape ---------------------------------------------------------------------
    P(game(turns={}), InputError, ["turns"], id="turns-not-a-list"),
    P(game([None]), InputError, ["turns[0]"], id="turn-not-an-object"),
    P(game([{"bogus_field": 1}]), InputError, ["bogus_field"], id="unknown-turn-field"),
    P(game([{}, {"votes": {"Anna": "Yuri"}}]), InputError, ["votes"], id="votes-not-a-list"),
    P(game([{}, {"votes": [["Anna", "Yuri", "Wei"]]}]), InputError, ["votes[0]"],
      id="vote-not-a-pair"),
    P(game([{}, {"absent": "Anna"}]), InputError, ["absent"], id="absent-not-a-list"),
    P(game([{}, {"night": []}]), InputError, ["night"], id="night-not-an-object"),
    P(night1({"wizardry": {"target": "Anna"}}), InputError, ["wizardry"],
      id="unknown-night-request"),
    P(night1({"doctor": ["Anna"]}), InputError, ["doctor"], id="request-not-an-object"),
    P(night1({"doctor": {"target": "Anna", "extra": 1}}), InputError, ["doctor"],
      id="request-unknown-field"),
    P(night1({"doctor": {}}), InputError, ["doctor"], id="request-without-target"),
    P(night1({"yakuza": {"shooter": "Yoko"}}), InputError, ["target"],
      id="order-without-target"),
    P(night1({"yakuza": {"target": "Anna"}}), InputError, ["shooter"],
      id="order-without-shooter"),
    P(night1({"maniac": {"ambush": True, "target": "Anna"}}), InputError, ["ambush"],
      id="ambush-with-target"),
    P(night1({"necromancer": {"protect": "Anna"}}), InputError, ["protect"],
      id="protect-not-a-list"),
    P(night1({"necromancer": {"heal": ["Anna"]}}), InputError, ["necromancer"],
      id="necromancer-bad-request"),
    P(night1({"commissar": {"target": "Yuri"}, "sergeant": {"target": "Wei", "by": "Anna"}}),
      InputError, ["Anna"], id="two-requests-one-player"),
    # -- unknown players ----------------------------------------------------------------
    P(game([{}, {"votes": [["Anna", "Zed"]]}]), InputError, ["Zed"], id="vote-unknown-target"),
    P(game([{}, {"votes": [["Zed", "Anna"]]}]), InputError, ["Zed"], id="vote-unknown-voter"),
    P(game([{}, {"votes": [["Anna", 3]]}]), InputError, ["votes[0]"], id="vote-names-a-number"),
    P(game([{}, {"absent": ["Zed"]}]), InputError, ["Zed", "absent"], id="absent-unknown"),
    P(game([{}, {"removed": ["Zed"]}]), InputError, ["Zed", "removed"], id="removed-unknown"),
    P(game([{}, {"passive": ["Zed"]}]), InputError, ["Zed", "passive"], id="passive-unknown"),
    P(night1({"doctor": {"target": "Zed"}}), InputError, ["Zed", "doctor"],
      id="night-unknown-target"),
    P(night1({"yakuza": {"target": "Anna", "shooter": "Zed"}}), InputError, ["Zed", "shooter"],
      id="order-unknown-shooter"),
    P(night1({"yakuza": {"target": "Anna", "shooter": "Yoko", "by": "Zed"}}), InputError,
      ["Zed"], id="order-unknown-sender"),
    P(night1({"necromancer": {"protect": ["Zed"]}}), InputError, ["Zed"],
      id="protect-unknown"),
    P(night1({"doctor": {"target": "Anna", "by": "Zed"}}), InputError, ["Zed"],
      id="request-by-unknown"),
    P(game([{"night": {"ninja": {"target": "Anna"}}}], players=PLAYERS[:4] + PLAYERS[5:]),
      InputError, ["ninja"], id="request-of-missing-role"),
    # -- illegal requests ---------------------------------------------------------------
    P(game([{"night": {"doctor": {"target": "Anna"}}}]), IllegalRequest,
      ["turn 0", "Doc", "R6.2"], id="doctor-on-turn-0"),
    P(game([{"night": {"yakuza": {"target": "Anna", "shooter": "Yoko"}}}]), IllegalRequest,
      ["turn 0", "R6.2"], id="clan-order-on-turn-0"),
    P(game([{"votes": [["Anna", "Yuri"]]}]), IllegalRequest, ["turn 0", "Anna", "R3.1"],
      id="vote-on-turn-0"),
    P(game([{"absent": ["Anna"]}]), IllegalRequest, ["turn 0", "Anna"], id="absent-on-turn-0"),
    P(game([{}, {}, {}, {"night": {"necromancer": {"protect": ["Anna"]}}}]), IllegalRequest,
      ["turn 3", "Necro", "D12.1"], id="protect-on-turn-3"),
    P(after_doctor_died({"night": {"doctor": {"target": "Anna"}}}), IllegalRequest,
      ["Doc", "dead"], id="request-by-dead-player"),
    P(after_doctor_died({"votes": [["Doc", "Yuri"]]}), IllegalRequest, ["Doc", "dead"],
      id="vote-by-dead-player"),
    P(after_doctor_died({"absent": ["Doc"]}), IllegalRequest, ["Doc", "dead"],
      id="dead-player-absent"),
    P(after_doctor_died({"night": {"maniac": {"target": "Doc"}}}), IllegalRequest,
      ["Doc", "dead"], id="request-on-dead-target"),
    P(night1({"doctor": {"target": "Anna"}}, absent=["Doc"]), IllegalRequest,
      ["Doc", "posted nothing"], id="request-by-absent-player"),
    P(game([{}, {"absent": ["Anna"], "votes": [["Anna", "Yuri"]]}]), IllegalRequest,
      ["Anna", "posted nothing"], id="vote-by-absent-player"),
    P(game([{}, {"votes": [["Anna", "Anna"]]}]), IllegalRequest, ["Anna", "P5.1"],
      id="vote-for-himself"),
    P(game([{}, {"votes": [["Anna", "Yuri"], ["Anna", "Wei"]]}]), IllegalRequest,
      ["Anna", "R5.1"], id="vote-twice"),
    P(night1({"doctor": {"target": "Doc"}}), IllegalRequest, ["Doc", "R8.4"],
      id="doctor-heals-himself"),
    P(night1({"sergeant": {"target": "Yuri"}}), IllegalRequest, ["Serg", "R7.5"],
      id="sergeant-without-badge"),
    P(night1({"doctor": {"target": "Anna", "by": "Max"}}), IllegalRequest, ["Max", "maniac"],
      id="request-of-wrong-role"),
    P(night1({"yakuza": {"target": "Vy", "shooter": "Yoko"}}), IllegalRequest,
      ["Vy", "R14.2"], id="clan-shoots-own-vsb"),
    P(night1({"yakuza": {"target": "Anna", "shooter": "Yuri"}}), IllegalRequest,
      ["Yuri", "R14.3"], id="don-shoots"),
    P(night1({"yakuza": {"target": "Anna", "shooter": "Wei"}}), IllegalRequest,
      ["Wei", "yakuza"], id="shooter-of-other-clan"),
    P(night1({"thug": {"target": "Vt"}}), IllegalRequest, ["Li", "R10.2"],
      id="thug-beats-own-vsb"),
    P(night1({"kamikaze": {"target": "Kenji"}}), IllegalRequest, ["Kenji", "D13.1"],
      id="kamikaze-targets-himself"),
    P(night1({"necromancer": {"protect": ["Anna", "Anna"]}}), IllegalRequest, ["P12.1"],
      id="two-protects-one-player"),
    P(night1({"necromancer": {"army": ["Anna", "Doc"]}}), IllegalRequest, ["Necro", "Army"],
      id="army-while-heroes-live"),
    P(ended_then_more(), InputError, ["turns[2]", "ended"], id="turn-after-game-ended"),
]


def _message(g: dict[str, Any]) -> tuple[type[Exception], str]:
    try:
        resolve(g)
    except MafiaSimError as e:
        return type(e), str(e)
    raise AssertionError("resolve() accepted an invalid game")


def _check_words(text: str, words: list[str]) -> None:
    for w in words:
        assert w in text, f"{w!r} not named in {text!r}"


@pytest.mark.parametrize(("g", "kind", "words"), CASES)
def test_resolve_function_rejects(g: dict[str, Any], kind: type[Exception],
                                  words: list[str]) -> None:
    got, msg = _message(g)
    assert issubclass(got, kind), f"{got.__name__}: {msg}"
    assert "\n" not in msg
    _check_words(msg, words)


# ----------------------------------------------------------------------------------------
# the command line
# ----------------------------------------------------------------------------------------


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sim", *map(str, args)],
        cwd=ROOT, capture_output=True, text=True, encoding="utf-8", errors="replace",
        timeout=60,
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str], words: list[str]) -> None:
    err = proc.stderr
    assert "Traceback" not in err, err.strip().splitlines()[-1]
    assert proc.returncode == 2, (proc.returncode, err)
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    assert err.startswith("mafia-sim:"), err
    assert proc.stdout == ""
    _check_words(err, words)


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def cli_results(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Every case of CASES through the command line, run a few processes at a time."""
    tmp = tmp_path_factory.mktemp("cases")
    paths = {c.id: write(tmp, c.values[0], f"{c.id}.json") for c in CASES}
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures = {k: pool.submit(cli, "resolve", v) for k, v in paths.items()}
        return {k: f.result() for k, f in futures.items()}


@pytest.mark.parametrize(("g", "kind", "words"), CASES)
def test_cli_rejects(request: pytest.FixtureRequest,
                     cli_results: dict[str, subprocess.CompletedProcess[str]],
                     g: dict[str, Any], kind: type[Exception], words: list[str]) -> None:
    case_id = request.node.callspec.id
    assert_one_line_error(cli_results[case_id], words)


MALFORMED = '{\n  "players": [\n    {"name": "Anna", "role": "civilian"}\n    {"name": "B"}\n'


def test_cli_malformed_json_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text(MALFORMED, encoding="utf-8")
    assert_one_line_error(cli("resolve", p), ["malformed JSON", "line 4"])


def test_load_malformed_json_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text(MALFORMED, encoding="utf-8")
    with pytest.raises(InputError, match="line 4"):
        load_game_file(p)


@pytest.mark.parametrize("text", ["", "   \n", "{", '{"players": [}', "nul"],
                         ids=["empty", "blank", "unclosed", "bad-bracket", "bad-literal"])
def test_cli_other_malformed_json(tmp_path: Path, text: str) -> None:
    p = tmp_path / "bad.json"
    p.write_text(text, encoding="utf-8")
    assert_one_line_error(cli("resolve", p), ["malformed JSON", "line"])


@pytest.mark.parametrize("top", [[1, 2], "game", 3, None], ids=["list", "string", "number",
                                                                   "null"])
def test_cli_top_level_not_an_object(tmp_path: Path, top: Any) -> None:
    assert_one_line_error(cli("resolve", write(tmp_path, top)), ["object"])


@pytest.mark.parametrize("top", [[1, 2], "game", 3, None])
def test_resolve_top_level_not_an_object(top: Any) -> None:
    with pytest.raises(InputError, match="object"):
        resolve(top)


def test_cli_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    assert_one_line_error(cli("resolve", missing), ["nowhere.json"])


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nowhere\.json"):
        load_game_file(tmp_path / "nowhere.json")


def test_cli_directory_instead_of_file(tmp_path: Path) -> None:
    assert_one_line_error(cli("resolve", tmp_path), [str(tmp_path)])


def test_cli_file_not_utf8(tmp_path: Path) -> None:
    # Was a bug: load_game_file catches OSError only; the UnicodeDecodeError escapes (traceback,
    # exit 1).
    p = tmp_path / "latin1.json"
    p.write_bytes('{"players": [{"name": "Zoë", "role": "civilian"}]}'.encode("latin-1"))
    assert_one_line_error(cli("resolve", p), ["latin1.json"])


def test_load_file_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "latin1.json"
    p.write_bytes(b'\xff\xfe{"players": []}')
    with pytest.raises(InputError):
        load_game_file(p)


def test_cli_deeply_nested_json(tmp_path: Path) -> None:
    # Was a bug: json.loads raises RecursionError (not JSONDecodeError) on deep nesting; it
    # escapes as a traceback with exit 1.
    p = tmp_path / "deep.json"
    p.write_text('{"players": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert_one_line_error(cli("resolve", p), ["deep.json"])


def test_cli_usage_errors_are_one_line() -> None:
    assert_one_line_error(cli("resolve"), ["game"])
    assert_one_line_error(cli("resolve", "x.json", "--newspaper", "fr"), ["newspaper"])


def test_don_of_a_clan_not_in_the_game() -> None:
    # Was a bug: a Don named for a clan that has no members is silently ignored, although naming
    # a non-member as Don is an error when the clan exists ("don-of-other-clan").
    players = [p for p in PLAYERS if p.get("clan") != "yakuza" and p["role"] != "kamikaze"]
    g = game(players=players, dons={"yakuza": "Wei"})
    with pytest.raises(InputError, match="Wei"):
        resolve(g)


# ----------------------------------------------------------------------------------------
# success
# ----------------------------------------------------------------------------------------

EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES or [None], ids=[p.name for p in EXAMPLES] or ["none"])
def test_examples_resolve(path: Path | None) -> None:
    if path is None:
        pytest.skip("examples/ has no *.json")
    proc = cli("resolve", path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) >= {"turns", "alive", "outcome"}


FULL_GAME = game([
    {"night": {"maniac": {"target": "Olga"}}},
    {"votes": [["Anna", "Yuri"], ["Boris", "Yuri"], ["Doc", "Wei"]],
     "night": {"yakuza": {"target": "Anna", "shooter": "Yoko"},
               "triad": {"target": "Boris", "shooter": "Li"},
               "doctor": {"target": "Anna"},
               "necromancer": {"protect": ["Serg"]},
               "commissar": {"target": "Li"},
               "maniac": {"target": "Necro"}}},
])


def test_resolve_valid_game() -> None:
    out = resolve(copy.deepcopy(FULL_GAME))
    json.dumps(out)  # plain JSON values only
    assert [t["turn"] for t in out["turns"]] == [0, 1]
    assert out["turns"][0]["deaths"][0]["player"] == "Olga"
    assert out["turns"][1]["hanged"] == "Yuri"
    assert "Olga" not in out["alive"] and "Yuri" not in out["alive"]
    assert out["turns"][1]["checks"][0]["result"] == "triad"


def test_cli_valid_game_prints_json(tmp_path: Path) -> None:
    proc = cli("resolve", write(tmp_path, FULL_GAME))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert json.loads(proc.stdout) == resolve(copy.deepcopy(FULL_GAME))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_cli_newspaper(tmp_path: Path, lang: str) -> None:
    proc = cli("resolve", write(tmp_path, FULL_GAME), "--newspaper", lang)
    assert proc.returncode == 0, proc.stderr
    assert "Olga" in proc.stdout and "Yuri" in proc.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(proc.stdout)


def test_cli_short_game_reports_the_end(tmp_path: Path) -> None:
    proc = cli("resolve", write(tmp_path, short_game()))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["outcome"] == {"winner": "town", "reason": "camp_wipe", "turn": 1}


def test_P2_2_a_table_of_town_alone_is_refused_by_resolve_and_odds(tmp_path: Path) -> None:
    """Issue 25: `run` refused it, `resolve` never ended it and `odds` gave Town 100%."""
    game = {"players": [{"name": n, "role": "civilian"} for n in ("Ann", "Bob", "Cid")],
            "rules": {"require_vsb": False}, "turns": [{}]}
    path = write(tmp_path, game)
    for command in ("resolve", "odds"):
        assert_one_line_error(cli(command, path), ["no enemy of Town", "[P2.2]"])


_ARMY_GAME = {
    "players": [{"name": "Anna", "role": "civilian"}, {"name": "Boris", "role": "civilian"},
                {"name": "Olga", "role": "commissar"}, {"name": "Necro", "role": "necromancer"},
                {"name": "Yuri", "role": "mafioso", "clan": "yakuza"},
                {"name": "Wei", "role": "mafioso", "clan": "triad"},
                {"name": "Mania", "role": "maniac"}],
    "rules": {"require_vsb": False, "abstention_limit": 0},
    "turns": [{"night": {"maniac": {"target": "Olga"}}},
              {"night": {"necromancer": {"army": ["Olga", "Yuri"]}}}],
}


def test_P3_1_the_army_naming_a_player_dead_last_night_is_refused(tmp_path: Path) -> None:
    """Issue 25: on a turn the Army cannot rise (R12.6), an Army naming the commissar the
    maniac killed the night before was accepted; now the request itself is judged."""
    assert_one_line_error(cli("resolve", write(tmp_path, _ARMY_GAME)),
                          ["Olga is dead", "[P3.1]"])


def test_R14_1_an_order_of_a_clan_whose_last_member_was_hanged_is_refused(
        tmp_path: Path) -> None:
    """Issue 25: the Yakuza's only member is hanged; the clan's night order, whose shooter
    is a civilian, was accepted."""
    players = [{"name": n, "role": "civilian"} for n in ("Anna", "Boris", "Clara", "Dima")]
    players += [{"name": "Yuri", "role": "mafioso", "clan": "yakuza"},
                {"name": "Wei", "role": "mafioso", "clan": "triad"},
                {"name": "Wu", "role": "mafioso", "clan": "triad"},
                {"name": "Mania", "role": "maniac"}]
    votes = [["Boris", "Yuri"], ["Clara", "Yuri"], ["Dima", "Yuri"], ["Wei", "Boris"],
             ["Wu", "Boris"], ["Mania", "Clara"], ["Yuri", "Clara"]]
    game = {"players": players, "rules": {"require_vsb": False, "abstention_limit": 0},
            "turns": [{"night": {"maniac": {"target": "Anna"}}},
                      {"votes": votes, "night": {"yakuza": {"target": "Dima",
                                                             "shooter": "Boris"}}}]}
    assert_one_line_error(cli("resolve", write(tmp_path, game)), ["[R14.1]"])
