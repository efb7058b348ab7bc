"""The runner: reproducibility across jobs and backends, precision stopping, sweeps that
resume, paired comparisons on common random numbers, replay, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.registry import resolve_agent_set
from sim.analysis.compare import compare, paired_compare
from sim.analysis.sweep import run_sweep, sweep_cells
from sim.game.errors import InputError
from sim.game.roles import Winner
from sim.play.runner import replay, run
from sim.play.setup import build_setup, parse_roles

ROOT = Path(__file__).resolve().parent.parent


def small_setup(**kw: object) -> object:
    return build_setup(None, players=kw.pop("players", 14), **kw)  # type: ignore[arg-type]


def test_same_seed_same_results_on_1_and_2_jobs() -> None:
    setup = small_setup()
    a = run(setup, games=300, seed=7, jobs=1, keep_rows=True)
    b = run(setup, games=300, seed=7, jobs=2, keep_rows=True, batch_size=37)
    assert a.rows is not None and b.rows is not None
    assert np.array_equal(a.rows, b.rows)
    assert np.array_equal(a.tally.winners, b.tally.winners)


def test_different_seed_different_games() -> None:
    setup = small_setup()
    a = run(setup, games=200, seed=1, keep_rows=True)
    b = run(setup, games=200, seed=2, keep_rows=True)
    assert a.rows is not None and b.rows is not None
    assert not np.array_equal(a.rows, b.rows)


def test_rows_say_winner_turns_deaths_survivors() -> None:
    setup = small_setup()
    res = run(setup, games=50, seed=3, keep_rows=True)
    df = res.frame()
    for col in ("run_id", "game", "seed", "winner", "reason", "turns", "deaths_hanged",
                "survivors_town"):
        assert col in df.columns
    n = setup.comp.n  # type: ignore[attr-defined]
    deaths = df[[c for c in df.columns if c.startswith("deaths_")]].sum(axis=1)
    alive = df[[c for c in df.columns if c.startswith("survivors_")]].sum(axis=1)
    assert ((deaths + alive) == n).all()
    assert set(df["winner"].astype(str)) <= {w.key for w in Winner}


def test_precision_stops_when_every_half_width_is_below() -> None:
    setup = small_setup(agents="uniform")
    res = run(setup, precision=0.03, seed=5, jobs=1)
    assert res.tally.max_half_width() < 0.03
    assert res.tally.games >= 1000


def test_replay_gives_the_game_of_the_run() -> None:
    setup = small_setup()
    res = run(setup, games=20, seed=11, keep_rows=True)
    assert res.rows is not None
    for i in (0, 7, 19):
        game = replay(setup, 11, i)  # type: ignore[arg-type]
        assert game.outcome is not None
        assert int(game.outcome.winner) == res.rows[i, 1]
        assert game.outcome.turn + 1 == res.rows[i, 3]


def test_dask_backend_gives_the_same_results_as_a_local_run() -> None:
    distributed = pytest.importorskip("distributed")
    setup = small_setup()
    local = run(setup, games=120, seed=9, keep_rows=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        remote = run(setup, games=120, seed=9, keep_rows=True, backend="dask",
                     scheduler=cluster.scheduler_address, batch_size=30)
    assert local.rows is not None and remote.rows is not None
    assert np.array_equal(local.rows, remote.rows)


def test_compare_same_arms_on_common_random_numbers_is_exactly_zero() -> None:
    setup = small_setup()
    res = compare(setup, setup, games=200, seed=4)  # type: ignore[arg-type]
    for camp in res["camps"].values():
        assert camp["diff"] == 0.0
        assert camp["half_width_paired"] == 0.0


def test_paired_interval_is_not_zero_width_when_no_game_changed_winner() -> None:
    """Issue 11: "maniac +0.00% [+0.00%, +0.00%]" after 40 games. Without a game that
    changed winner the difference is 0, but the interval is Tango's +-z^2/(n + z^2)."""
    a = np.array([0, 1, 2, 3] * 10)
    b = a.copy()
    camps = paired_compare(a, b)
    for camp in camps.values():
        assert camp["diff"] == 0.0 and camp["low"] < 0 < camp["high"]
        assert camp["half_width_paired"] > 0.08 and camp["p_value"] == 1.0
        assert camp["half_width_unpaired"] > 0
    b[0] = 3  # one game changes winner: town loses it to the maniac
    camps = paired_compare(a, b)
    assert camps["town"]["a_only"] == 1 and camps["maniac"]["b_only"] == 1
    assert camps["town"]["p_value"] == 0.5  # mid-p of a single discordant game
    assert camps["town"]["low"] < camps["town"]["diff"] < 0 < camps["town"]["high"]
    # Identical arms by construction: exactly zero, with no uncertainty.
    assert paired_compare(a, a, identical=True)["town"]["half_width_paired"] == 0.0


def test_paired_interval_narrower_than_unpaired_when_arms_are_correlated() -> None:
    a = np.array([0, 0, 1, 1, 2, 0, 0, 3] * 50)
    b = a.copy()
    b[::8] = 1  # a few games change winner
    camps = paired_compare(a, b)
    assert camps["town"]["half_width_paired"] < camps["town"]["half_width_unpaired"]
    assert camps["town"]["diff"] < 0


def sweep_spec(games: int = 60) -> dict[str, object]:
    return {"name": "t", "base": {"players": 14},
            "grid": {"param.town_skill": [0.0, 0.5], "rule.maniac_vest": [True, False]},
            "run": {"games": games, "seed": 1}}


def test_sweep_writes_tidy_table(tmp_path: Path) -> None:
    df = run_sweep(sweep_spec(), tmp_path)
    assert df["cell_id"].nunique() == 4
    assert set(df["camp"]) == {w.key for w in Winner}
    assert (tmp_path / "results.csv").exists() and (tmp_path / "results.parquet").exists()
    total = df.groupby("cell_id")["wins"].sum()
    assert (total == 60).all()


def test_sweep_resume_skips_finished_cells(tmp_path: Path) -> None:
    spec = sweep_spec()
    run_sweep(spec, tmp_path)
    cells = sorted((tmp_path / "cells").glob("*.json"))
    first = cells[0]
    stamp = first.stat().st_mtime_ns
    cells[1].unlink()  # as if the sweep had been killed before this cell
    with pytest.raises(InputError, match="--resume"):
        run_sweep(spec, tmp_path)
    df = run_sweep(spec, tmp_path, resume=True)
    assert first.stat().st_mtime_ns == stamp
    assert df["cell_id"].nunique() == 4


def test_sweep_resume_after_a_kill(tmp_path: Path) -> None:
    """A sweep process killed mid-way loses no finished cell; --resume completes it."""
    spec_file = tmp_path / "s.toml"
    spec_file.write_text(
        'name = "k"\n[base]\nplayers = 14\n[grid]\n"param.town_skill" = [0.0, 0.2, 0.4, 0.6]\n'
        '[run]\ngames = 400\nseed = 3\n')
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "sim", "sweep", str(spec_file), "--out", str(out), "--quiet"]
    proc = subprocess.Popen(cmd, cwd=ROOT)
    cells = out / "cells"
    import time
    deadline = time.time() + 60
    while time.time() < deadline and not (cells.exists() and list(cells.glob("*.json"))):
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    done = {p.name: p.read_text() for p in cells.glob("*.json")}
    assert done, "no cell finished before the kill"
    res = subprocess.run([*cmd, "--resume"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    for name, text in done.items():
        assert (cells / name).read_text() == text
    assert len(list(cells.glob("*.json"))) == 4


def test_sweep_that_changed_is_detected(tmp_path: Path) -> None:
    run_sweep(sweep_spec(), tmp_path)
    with pytest.raises(InputError, match="changed"):
        run_sweep(sweep_spec(games=61), tmp_path, resume=True)


def test_sweep_refuses_to_resume_under_other_agent_defaults(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The spec does not name the agents' defaults (declared parameters, the shipped profile
    and mixture), yet every cell depends on them: a sweep records them, and resuming after
    they changed (issue 24 makes a mixture the default) would mix two plays in one table,
    so it is refused; a manifest from before they were recorded adopts today's."""
    import json

    import sim.analysis.sweep as sweep

    spec = sweep_spec()
    run_sweep(spec, tmp_path)
    manifest = tmp_path / "manifest.json"
    recorded = json.loads(manifest.read_text())["agents_defaults"]
    from agents.registry import defaults_digest
    assert recorded == {"heuristic": defaults_digest("heuristic")}
    run_sweep(spec, tmp_path, resume=True)  # the same defaults: fine
    info = json.loads(manifest.read_text())
    del info["agents_defaults"]  # as a sweep finished before this check wrote it
    manifest.write_text(json.dumps(info))
    run_sweep(spec, tmp_path, resume=True)
    assert json.loads(manifest.read_text())["agents_defaults"] == recorded
    monkeypatch.setattr(sweep, "defaults_digest", lambda name: "another")
    with pytest.raises(InputError, match=r"defaults .* changed since the sweep"):
        run_sweep(spec, tmp_path, resume=True)


def test_the_defaults_digest_follows_the_shipped_profile_not_its_comments(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.registry as registry

    before = registry.defaults_digest()
    text = registry.PROFILE.read_text(encoding="utf-8")
    copy = tmp_path / "heuristic.toml"
    copy.write_text("# another comment\n" + text, encoding="utf-8")
    monkeypatch.setattr(registry, "PROFILE", copy)
    assert registry.defaults_digest() == before
    # another mixture in place of the shipped one (if any)
    copy.write_text(text.split("\n[mixture]")[0] + '\n[mixture]\n[[mixture.town]]\n'
                    'weight = 1.0\nparams = { "town.crowd" = 0.0 }\n', encoding="utf-8")
    assert registry.defaults_digest() != before
    assert registry.defaults_digest("uniform") != before


def test_sweep_cells_clan_sizes_and_roles() -> None:
    spec = {"base": {"players": 25}, "grid": {"clan.yakuza": [2, 6], "role.kamikaze": [0, 1]},
            "run": {"games": 10}}
    cells = sweep_cells(spec)
    assert len(cells) == 4
    for c in cells:
        comp = c.setup.comp
        assert comp.n == 25
        assert comp.clan_size(comp.seats[0].clan.__class__.YAKUZA) == c.key["clan.yakuza"]


def test_inline_roles_form() -> None:
    comp = parse_roles("civilian*9,commissar,sergeant,doctor,ninja,necromancer,maniac,"
                       "yakuza=mafioso*3+kamikaze+vsb,triad=mafioso*3+thug+vsb", 25)
    assert comp.n == 25
    with pytest.raises(InputError, match="--players"):
        parse_roles("civilian*9,maniac,yakuza=mafioso*2+vsb", 25)


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, capture_output=True,
                          text=True, input=stdin, timeout=120)


def test_cli_run_json_fields() -> None:
    res = cli("run", "--players", "14", "--games", "40", "--seed", "3", "--json", "--quiet")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["games"] == 40 and data["seed"] == 3
    for camp in ("town", "yakuza", "triad", "maniac", "draw", "stalemate"):
        assert set(data["camps"][camp]) >= {"wins", "share", "low", "high"}


def test_cli_run_out_writes_parquet_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    res = cli("run", "--players", "14", "--games", "30", "--out", str(out), "--quiet")
    assert res.returncode == 0, res.stderr
    import pandas as pd
    df = pd.read_parquet(out)
    assert len(df) == 30
    assert json.loads(out.with_suffix(".summary.json").read_text())["games"] == 30


@pytest.mark.parametrize(("args", "needle"), [
    (["run", "--roles", "civilian*3,maniac,yakuza=kamikaze+vsb"], "no possible Don"),
    (["run", "--rule", "no_such_rule=1"], "unknown rule"),
    (["run", "--rule", "abstention_limit=lots"], "whole number"),
    (["run", "--roles", "civilian*3,werewolf"], "unknown role"),
    (["run", "--agents", "clever"], "unknown agent set"),
    (["run", "--agent", "doctor=nosuchmod:X"], "cannot import"),
    (["run", "--agent", "wizard=uniform"], "unknown role"),
    (["run", "--param", "no_such=1"], "unknown agent parameter"),
    (["run", "--param", "town_skill=high"], "not a number"),
    (["run", "--games", "many"], "not a whole number"),
    (["run", "--players", "5"], "at least 12"),
    (["run", "--roles", "civilian*9,maniac", "--players", "12"], "--players"),
    (["replay"], "--game"),
    (["recommend"], "--players"),
    (["compare", "--players", "14"], "second arm"),
    (["sweep", "/nonexistent.toml"], "cannot read"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args: list[str], needle: str) -> None:
    res = cli(*args)
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert needle in res.stderr


def test_cli_malformed_toml_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "setup.toml"
    f.write_text("players = 25\n[rules\n")
    res = cli("run", str(f))
    assert res.returncode == 2
    assert "line 2" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_cli_toml_setup_with_agents_and_rules(tmp_path: Path) -> None:
    f = tmp_path / "setup.toml"
    f.write_text('players = 14\n[rules]\nmaniac_vest = false\n[agents]\nset = "uniform"\n'
                 '[run]\ngames = 25\nseed = 2\n')
    res = cli("run", str(f), "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["games"] == 25
    assert data["setup"]["rules"] == {"maniac_vest": False}
    assert data["setup"]["agents"] == "uniform"


def test_skip_policy_counts_illegal_requests() -> None:
    aset = resolve_agent_set("heuristic", {"doctor": "tests.test_runner:SelfHealer"})
    setup = build_setup(None, players=14)
    setup.agents = aset
    setup.on_illegal = "skip"
    res = run(setup, games=20, seed=1)
    assert res.tally.skipped > 0


from agents.base import Agent  # noqa: E402
from sim.game.requests import Heal  # noqa: E402


class SelfHealer(Agent):
    """A doctor who always heals himself (illegal, R8.4)."""

    def night(self, view, rng):  # type: ignore[no-untyped-def]
        return Heal(self.seat) if view.turn > 0 else None


def test_study_paired_rows_use_the_paired_interval(tmp_path: Path) -> None:
    """The studies' paired rows report the same interval as compare (Tango's, never zero
    width) and McNemar's p-value."""
    from sim.analysis.studies import Study, paired_rows
    from sim.play.stats import paired_diff_interval

    (tmp_path / "cells").mkdir()
    base = np.array([0, 1, 2, 3] * 10, dtype=np.int8)
    cell = base.copy()
    cell[:3] = 0  # town gains two games (from yakuza and triad)
    np.save(tmp_path / "cells" / "base.winners.npy", base)
    np.save(tmp_path / "cells" / "cell.winners.npy", cell)
    rows = {r["camp"]: r for r in paired_rows(Study("t", None, tmp_path, True), "base",
                                              ["cell"])}
    assert (rows["town"]["diff"], rows["town"]["low"], rows["town"]["high"]) == \
        paired_diff_interval(2, 0, 40)
    assert rows["maniac"]["diff"] == 0 and rows["maniac"]["low"] < 0 < rows["maniac"]["high"]
    assert 0 < rows["town"]["p_value"] < 1


def test_sweep_refuses_to_resume_after_its_parameter_file_changed(tmp_path: Path) -> None:
    """The spec holds the --params file's path, not its contents: a sweep records the
    file's digest and refuses to resume once the file was edited (its finished cells were
    played under the old parameters); the same file resumes, and a manifest from before
    the digest was recorded adopts today's."""
    import json

    pf = tmp_path / "p.toml"
    pf.write_text('[params]\n"town.crowd" = 0.5\n')
    spec = sweep_spec()
    spec["base"] = {**spec["base"], "agents": {"params_file": str(pf)}}
    out = tmp_path / "out"
    run_sweep(spec, out)
    manifest = out / "manifest.json"
    assert list(json.loads(manifest.read_text())["params_files"]) == [str(pf)]
    run_sweep(spec, out, resume=True)
    info = json.loads(manifest.read_text())
    del info["params_files"]
    manifest.write_text(json.dumps(info))
    run_sweep(spec, out, resume=True)
    pf.write_text('[params]\n"town.crowd" = 0.9\n')
    with pytest.raises(InputError, match=r"parameter file .*p\.toml changed since the sweep"):
        run_sweep(spec, out, resume=True)
