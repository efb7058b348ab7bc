"""The compiled build (mypyc) and the pure-Python build of the same source (sim._native,
setup.py): both play the same games, bit for bit, on one job, two jobs and Dask; the
compiled build runs only while every source it was built from is unchanged.

Set MAFIA_SIM_REQUIRE_COMPILED=1 (CI does) to fail, rather than skip, where no compiled
build is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sim import _native
from sim.analysis.bench import available_builds

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def _compiled_available() -> bool:
    return "compiled" in available_builds()


needs_compiled = pytest.mark.skipif(
    not _compiled_available() and not os.environ.get("MAFIA_SIM_REQUIRE_COMPILED"),
    reason="no up-to-date compiled build installed")


def _env(pure: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop(_native.PURE_ENV, None)
    if pure:
        env[_native.PURE_ENV] = "1"
    return env


def _fingerprint(pure: bool, *args: str) -> dict[str, Any]:
    out = subprocess.run([PY, str(ROOT / "scripts" / "fingerprint.py"), *args], cwd=ROOT,
                         env=_env(pure), capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return dict(json.loads(out.stdout))


def test_the_build_is_the_one_installed() -> None:
    """CI installs with a C compiler: the compiled build must be there and up to date."""
    if os.environ.get("MAFIA_SIM_REQUIRE_COMPILED"):
        assert _compiled_available(), _native.check()[1]
    if _native.BUILD == "compiled":
        import agents.town
        import sim.engine.game
        import sim.game.rules

        assert _native.is_compiled(sim.engine.game) and _native.is_compiled(agents.town)
        assert not _native.is_compiled(sim.game.rules)  # left pure on purpose


@needs_compiled
@pytest.mark.parametrize(("jobs", "backend"), [("1", "loky"), ("2", "loky"), ("2", "dask")],
                         ids=["jobs1", "jobs2", "dask"])
def test_compiled_and_pure_play_the_same_games(jobs: str, backend: str) -> None:
    """Per-game rows of a few hundred seeded games at 12, 25 and 30 players, and the full
    event logs of the first ones, are the same in both builds."""
    if backend == "dask":
        pytest.importorskip("distributed")
    args = ["--games", "300", "--logs", "20", "--jobs", jobs, "--backend", backend]
    compiled = _fingerprint(False, *args)
    pure = _fingerprint(True, *args)
    assert compiled.pop("build") == "compiled"
    assert pure.pop("build") == "pure"
    assert compiled == pure
    if jobs == "1":  # and the same as any number of jobs or Dask (seeded per game)
        other = _fingerprint(True, "--games", "300", "--logs", "0", "--jobs", "2")
        other.pop("build")
        assert {k: v["rows"] for k, v in other.items()} == \
            {k: v["rows"] for k, v in pure.items()}


def _copy_tree(dest: Path) -> None:
    for name in ("sim", "agents", _native.NATIVE.name):
        shutil.copytree(ROOT / name, dest / name,
                        ignore=shutil.ignore_patterns("__pycache__"))


def _which(where: Path) -> str:
    out = subprocess.run([PY, "-c", "from sim import _native; print(_native.describe())"],
                         cwd=where, env={**_env(False), "PYTHONPATH": str(where)},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@needs_compiled
def test_an_edited_source_runs_pure_until_rebuilt(tmp_path: Path) -> None:
    """A copy of the installed tree runs compiled; after one source is edited it runs
    pure, naming the stale source: never stale compiled code."""
    _copy_tree(tmp_path)
    assert _which(tmp_path).startswith("compiled")
    with open(tmp_path / "sim" / "engine" / "game.py", "a", encoding="utf-8") as f:
        f.write("# an edit\n")
    said = _which(tmp_path)
    assert said.startswith("pure Python") and "sim/engine/game.py" in said and "stale" in said


def test_without_a_compiled_build_everything_runs_pure(tmp_path: Path) -> None:
    for name in ("sim", "agents"):
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    said = _which(tmp_path)
    assert said.startswith("pure Python") and "no compiled build" in said


def test_the_version_says_which_build_runs() -> None:
    for pure in (True, False):
        out = subprocess.run([PY, "-m", "sim", "--version"], cwd=ROOT, env=_env(pure),
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0
        text = " ".join(out.stdout.split())
        assert text.startswith("mafia-sim ")
        if pure:
            assert "pure Python (MAFIA_SIM_PURE=1)" in text
        else:
            assert ("compiled (mypyc" in text) == _compiled_available()


@needs_compiled
def test_a_turn_limit_ends_games_the_same_in_both_builds() -> None:
    """Game._close_turn read st.outcome after mypy had narrowed it to None: compiled, mypyc
    enforced the narrowed type and `run --rule turn_limit=3` crashed (TypeError)."""
    outs = []
    for pure in (False, True):
        out = subprocess.run([PY, "-m", "sim", "run", "--games", "30", "--players", "12",
                              "--rule", "turn_limit=3", "--json"], cwd=ROOT, env=_env(pure),
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        summary = json.loads(out.stdout)
        assert summary["reasons"]["turn_limit"] > 0
        outs.append({k: summary[k] for k in ("camps", "reasons", "turns")})
    assert outs[0] == outs[1]



def _samples() -> dict[str, tuple[Any, ...]]:
    """A value for each field of each dataclass that writes its `__init__` out."""
    from sim.engine.report import CheckResult, Death
    from sim.game.requests import ClanOrder, Kill, NightRequests, Vote
    from sim.game.roles import Cause, Clan, Outcome, Reason, Shown, Winner
    order = ClanOrder(Clan.TRIAD, 3, 4)
    return {
        "Statement": (2, 5, "check", 7, "triad", "badge", 9),
        "PublicDeath": (1, 4, (Cause.TRIAD,), "civilian"),
        "Death": (4, (Cause.TRIAD,), 6),
        "CheckResult": (1, 2, Shown.CIVILIAN, -1, (1,), 3),
        "TurnReport": (3, 5, [Death(4, (Cause.TRIAD,), 6)], [2], [CheckResult(1, 2, None, 3, (1,))],
                       [7], True, True, [(1, 2)], Outcome(Winner.TOWN, Reason.CAMP_WIPE, 3)),
        "ClanOrder": (Clan.YAKUZA, 3, 4, 5),
        "Blast": (3,), "Beat": (3,), "Kill": (3,), "Strike": (3,), "Heal": (3,), "Check": (3,),
        "Protect": ((3, 4),), "RaiseArmy": ((3, 4),),
        "NightRequests": ({Clan.TRIAD: order}, {3: Kill(5)}, True),
        "TurnInput": ([Vote(1, 2)], NightRequests(), frozenset({1}), frozenset({2}),
                      frozenset({3})),
    }


def test_written_out_inits_take_the_fields_in_order_with_their_defaults() -> None:
    """A dataclass that writes its `__init__` out (compiled, the generated one would run
    interpreted: sim.game.pickling) takes what the generated one would, in order, with the same
    defaults (None for a new empty container), keeps every value, and stays frozen."""
    import ast
    import dataclasses
    import importlib
    samples = _samples()
    written = []  # read from the source: a compiled class has none to inspect
    for path in sorted((ROOT / "sim").rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if (isinstance(node, ast.ClassDef) and any(
                    "dataclass" in ast.unparse(d) for d in node.decorator_list) and any(
                    isinstance(f, ast.FunctionDef) and f.name == "__init__"
                    for f in node.body)):
                init = next(f for f in node.body
                            if isinstance(f, ast.FunctionDef) and f.name == "__init__")
                module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
                written.append((getattr(importlib.import_module(module), node.name),
                                init.args))
    assert sorted(c.__name__ for c, _ in written) == sorted(samples)
    for cls, spec in written:
        fields, args = dataclasses.fields(cls), samples[cls.__name__]
        assert [a.arg for a in spec.args[1:]] == [f.name for f in fields], cls.__name__
        # literals, None, frozenset(), a member of a closed set: read in the class's module
        namespace = vars(importlib.import_module(cls.__module__))
        defaults = [None] * (len(fields) - len(spec.defaults)) + [
            eval(ast.unparse(d), namespace) for d in spec.defaults]
        required = []
        for f, default, a in zip(fields, defaults, args, strict=True):
            if f.default is not dataclasses.MISSING:
                assert default == f.default, (cls.__name__, f.name)
            elif f.default_factory is not dataclasses.MISSING:
                assert default is None, (cls.__name__, f.name)  # None: a new empty one
            else:
                required.append(a)
        assert len(required) == len(fields) - len(spec.defaults), cls.__name__
        obj = cls(*args)
        assert [getattr(obj, f.name) for f in fields] == list(args), cls.__name__
        assert obj == cls(**{f.name: a for f, a in zip(fields, args, strict=True)})
        bare, other = cls(*required), cls(*required)
        for f in fields:  # what an omitted field holds: its default, or a new container
            if f.default is not dataclasses.MISSING:
                assert getattr(bare, f.name) == f.default, (cls.__name__, f.name)
            elif f.default_factory is not dataclasses.MISSING:
                assert getattr(bare, f.name) == f.default_factory(), (cls.__name__, f.name)
                assert getattr(bare, f.name) is not getattr(other, f.name), cls.__name__
        if cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(obj, fields[0].name, args[0])


#: A user's agent that builds on a shipped one by subclassing it and overriding one
#: decision (issue 22): a maniac who never sits in ambush, a commissar who never speaks, a
#: thug who never beats. Run as a script in each build.
_SUBCLASS_SCRIPT = """
import json, sys
import numpy as np
from agents.clans import ThugAgent
from agents.maniac import ManiacAgent
from agents.registry import resolve_agent_set
from agents.town import CommissarAgent
from sim import _native
from sim.game.requests import Ambush
from sim.game.roles import Role
from sim.game.rules import Composition, RuleSet
from sim.play.driver import Driver

class NoAmbushManiac(ManiacAgent):
    asked = 0
    def night(self, view, rng):
        NoAmbushManiac.asked += 1
        action = super().night(view, rng)
        return None if isinstance(action, Ambush) else action

class QuietCommissar(CommissarAgent):
    def statements(self, view, rng):
        return []
    def defend(self, view, rng):
        return []
    def respond(self, view, rng):
        return []

class LazyThug(ThugAgent):
    PARAMS = {**ThugAgent.PARAMS}
    def night(self, view, rng):
        return None

aset = resolve_agent_set("heuristic")
classes = dict(aset.classes)
classes[Role.MANIAC] = NoAmbushManiac
classes[Role.COMMISSAR] = QuietCommissar
classes[Role.THUG] = LazyThug
mine = type(aset)(aset.name, classes, aset.params, aset.defaults)
driver = Driver(Composition.standard(25), RuleSet(), mine)
said, ambushes, beaten = 0, 0, 0
for seed in range(30):
    game = driver.play(np.random.default_rng(seed), record=True)
    said += sum(1 for e in game.log if e[0] == "say" and
                game.st.role[e[2]] is Role.COMMISSAR)
    ambushes += sum(1 for e in game.log if e[0] == "request"
                    and isinstance(e[3], Ambush))
    beaten += sum(1 for e in game.log if e[0] == "beaten")
print(json.dumps({"build": _native.BUILD, "asked": NoAmbushManiac.asked, "said": said,
                  "ambushes": ambushes, "beaten": beaten,
                  "types": sorted({type(a).__name__ for a in driver.seated})}))
"""


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_users_subclass_of_a_shipped_agent_plays_in_both_builds(pure: bool) -> None:
    """A subclass overriding a decision of a shipped agent (the maniac's night, the
    commissar's statements, defence and answers, the thug's night) is asked, and its decision stands, in the
    compiled build as in the pure one: the shipped agents are open to interpreted
    subclasses (mypyc_attr allow_interpreted_subclasses)."""
    if not pure and not _compiled_available():
        if os.environ.get("MAFIA_SIM_REQUIRE_COMPILED"):
            pytest.fail("no compiled build installed")
        pytest.skip("no up-to-date compiled build installed")
    out = subprocess.run([PY, "-c", _SUBCLASS_SCRIPT], cwd=ROOT, env=_env(pure),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["build"] == ("pure" if pure else "compiled")
    assert got["asked"] > 0  # the overriding night was asked
    assert got["said"] == 0 and got["ambushes"] == 0 and got["beaten"] == 0
    assert {"NoAmbushManiac", "QuietCommissar", "LazyThug"} <= set(got["types"])
