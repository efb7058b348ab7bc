"""Sweeps: a grid of setups (SWEEP.toml) played cell by cell into a tidy table,
resumable, each finished cell kept (a crash or Ctrl-C loses none); and building a
composition from a cell's settings (`adjust`, also used by `recommend`)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import itertools
import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from agents.registry import defaults_digest
from sim.game.errors import InputError, MafiaSimError
from sim.game.roles import Clan, Role, Winner
from sim.game.rules import Composition, Seat
from sim.play.runner import run
from sim.play.setup import Setup, build_setup, check_playable, check_run, params_file_path

CAMPS = [w.key for w in Winner]


# -- building compositions from a cell's settings ------------------------------------------
CLAN_SPECIAL = {Clan.YAKUZA: Role.KAMIKAZE, Clan.TRIAD: Role.THUG}


def adjust(comp: Composition, players: int | None = None, clan_sizes: Mapping[Clan, int] | None
           = None, role_counts: Mapping[Role, int] | None = None,
           vsbs: Mapping[Clan, int] | None = None) -> Composition:
    """A composition with clan sizes (members incl. their special), role counts and VSBs
    changed; civilians fill up to `players` (default: the same count)."""
    n = players if players is not None else comp.n
    counts: dict[tuple[Role, Clan], int] = {}
    for s in comp.seats:
        counts[(s.role, s.clan)] = counts.get((s.role, s.clan), 0) + 1
    for role, k in (role_counts or {}).items():
        if role in (Role.MAFIOSO, Role.VSB, Role.CIVILIAN):
            raise InputError(f"role.{role.key}: set clan sizes or let civilians fill up")
        clan = Clan.YAKUZA if role is Role.KAMIKAZE else Clan.TRIAD if role is Role.THUG \
            else Clan.NONE
        counts[(role, clan)] = k
    for clan, k in (vsbs or {}).items():
        counts[(Role.VSB, clan)] = k
    for clan, size in (clan_sizes or {}).items():
        special = counts.get((CLAN_SPECIAL[clan], clan), 0)
        plain = size - special
        if plain < 0:
            raise InputError(f"clan.{clan.key} = {size} is smaller than its special roles")
        counts[(Role.MAFIOSO, clan)] = plain
        if size == 0:
            counts[(CLAN_SPECIAL[clan], clan)] = 0
            counts[(Role.VSB, clan)] = 0
    counts[(Role.CIVILIAN, Clan.NONE)] = 0
    others = sum(counts.values())
    civ = n - others
    if civ < 0:
        raise InputError(f"{others} non-civilian roles do not fit in {n} players")
    counts[(Role.CIVILIAN, Clan.NONE)] = civ
    seats: list[Seat] = []
    for (role, clan), k in sorted(counts.items()):
        seats += [Seat(role, clan)] * k
    return Composition(tuple(seats))


# -- sweeps ---------------------------------------------------------------------------------
SWEEP_KEYS = {"name", "description", "base", "grid", "cells", "run"}


@dataclass
class Cell:
    key: dict[str, Any]
    setup: Setup

    @property
    def cell_id(self) -> str:
        return hashlib.sha256(json.dumps(self.key, sort_keys=True).encode()).hexdigest()[:12]


def sweep_cells(spec: Mapping[str, Any], where: str = "sweep") -> list[Cell]:
    unknown = set(spec) - SWEEP_KEYS
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                         f"(keys: {', '.join(sorted(SWEEP_KEYS))})")
    for top, kind, what in (("name", str, "a string"), ("description", str, "a string"),
                            ("base", Mapping, "a table"), ("run", Mapping, "a table")):
        if top in spec and not isinstance(spec[top], kind):
            raise InputError(f"{where}: {top} must be {what}, got {spec[top]!r}")
    check_run(spec.get("run", {}), where)
    base = dict(spec.get("base", {}))
    grid = spec.get("grid", {})
    if not isinstance(grid, Mapping):
        raise InputError(f"{where}: [grid] must be a table of lists")
    for k, v in grid.items():
        if not isinstance(v, list) or not v:
            raise InputError(f"{where}: grid.{k} must be a non-empty list")
    extra = spec.get("cells", [{}])
    if not isinstance(extra, list) or not all(isinstance(c, Mapping) for c in extra):
        raise InputError(f"{where}: [[cells]] must be a list of tables")
    names = list(grid)
    out = []
    for values in itertools.product(*(grid[k] for k in names)):
        for more in extra:
            key = {**dict(zip(names, values, strict=True)), **dict(more)}
            try:
                setup = cell_setup(base, key, where)
            except InputError as e:
                raise InputError(f"cell {json.dumps(key, default=str)}: {e}") from None
            out.append(Cell(key, setup))
    return out


def cell_setup(base: Mapping[str, Any], key: Mapping[str, Any], where: str) -> Setup:
    """Build one cell's Setup from the base setup and the cell's settings."""
    b = {k: v for k, v in base.items() if k != "run"}
    rules = dict(b.pop("rules", {}))
    agents = b.pop("agents", {})
    agents = {"set": agents} if isinstance(agents, str) else dict(agents)
    params = dict(agents.get("params", {}))
    roles_over = dict(agents.get("roles", {}))
    clan_sizes: dict[Clan, int] = {}
    role_counts: dict[Role, int] = {}
    vsbs: dict[Clan, int] = {}
    players = b.get("players")
    for k, v in key.items():
        head, _, name = k.partition(".")
        if k == "players":
            players = v
            b["players"] = v
        elif k == "roles":
            b["roles"] = v
        elif k == "agents":
            agents["set"] = v
        elif k == "label":
            continue
        elif head == "rule" and name:
            rules[name] = v
        elif head == "param" and name:
            params[name] = v
        elif head == "agent" and name:
            roles_over[name] = v
        elif head == "clan" and name:
            try:
                clan_sizes[Clan.parse(name)] = int(v)
            except (ValueError, TypeError, OverflowError) as e:
                raise InputError(f"{where}: {k}: {e}") from None
        elif head == "role" and name:
            try:
                role_counts[Role.parse(name)] = int(v)
            except (ValueError, TypeError, OverflowError) as e:
                raise InputError(f"{where}: {k}: {e}") from None
        elif head == "vsb" and name:
            try:
                vsbs[Clan.parse(name)] = int(v)
            except (ValueError, TypeError, OverflowError) as e:
                raise InputError(f"{where}: {k}: {e}") from None
        else:
            raise InputError(f"{where}: unknown cell setting {k!r} (players, roles, agents, "
                             "label, rule.NAME, param.NAME, agent.ROLE, clan.CLAN, role.ROLE, "
                             "vsb.CLAN)")
    agents["params"] = params
    agents["roles"] = roles_over
    b["rules"] = rules
    b["agents"] = agents
    if clan_sizes or role_counts or vsbs:
        setup = build_setup({**b, "rules": {**rules, "require_vsb": False}}, where=where)
        comp = adjust(setup.comp, players, clan_sizes, role_counts, vsbs)
        ruleset = setup.rules.replace({"require_vsb": rules.get("require_vsb", True)})
        comp.validate(ruleset, lambda k, v: f'"rule.{k}" = {v} in the cell, or {k} = {v} under '
                      "[base.rules]")
        check_playable(comp)
        return replace(setup, comp=comp, rules=ruleset)
    return build_setup(b, where=where)


def sweep_hash(spec: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()


def params_files(spec: Mapping[str, Any], where: str) -> dict[str, str]:
    """The parameter file the sweep's base names ([base.agents] params_file, or the one
    `--params` puts there), by its path as given, with a digest of its bytes: what a
    resumed sweep checks. The path is found where build_setup finds it
    (`params_file_path`: beside the sweep file); a file that cannot be read is left to
    build_setup's own error."""
    agents = dict(spec.get("base", {})).get("agents", {})
    given = agents.get("params_file") if isinstance(agents, Mapping) else None
    if not isinstance(given, str) or not given:
        return {}
    try:
        data = params_file_path(given, where).read_bytes()
        return {given: hashlib.sha256(data).hexdigest()[:16]}
    except OSError:
        return {}


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def run_sweep(spec: Mapping[str, Any], out: Path, *, resume: bool = False,
              jobs: int | None = None, quiet: bool = True, where: str = "sweep",
              log: Any = None, games: int | None = None,
              precision: float | None = None) -> Any:
    """Run every cell of a sweep into `out/`; each finished cell is written at once and
    atomically, with its checksum in the manifest, and `resume` skips the cells already
    there once their checksum and contents check out (a damaged cell is played again).
    `games` or `precision` replace the file's [run] choice (and count as a different sweep).
    A lock on `out/.lock` keeps a second sweep out of the same directory. Returns the tidy
    DataFrame."""
    import pandas as pd

    if games is not None or precision is not None:
        run_over = {k: v for k, v in dict(spec.get("run", {})).items()
                    if k not in ("games", "precision")}
        run_over.update({"games": games} if games is not None else {"precision": precision})
        spec = {**spec, "run": run_over}
    cells = sweep_cells(spec, where)
    run_cfg = dict(spec.get("run", {}))
    if out.exists() and not out.is_dir():
        raise InputError(f"{out} is a file: a sweep writes into a directory")
    digest = sweep_hash(spec)
    try:
        (out / "cells").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot create {out}/cells: {e.strerror or e}") from None
    with _sweep_lock(out):
        manifest = out / "manifest.json"
        info = _read_manifest(manifest, out)
        # what the agents play by default (their declared parameters and the shipped
        # profile and mixture): the spec names none of it, yet every cell's games depend on it
        defaults = {name: defaults_digest(name)
                    for name in sorted({c.setup.agents.name for c in cells})}
        # nor does it hold the parameter file it names (`--params`, [base.agents]
        # params_file), only its path: a file edited between the start and --resume would
        # mix two plays in one table as silently
        files = params_files(spec, where)
        if info is not None:
            if info.get("sweep_hash") != digest:
                raise InputError(f"{where} changed since the sweep in {out} was started: use a "
                                 "new --out directory (finished cells would be mixed otherwise)")
            if not resume:
                raise InputError(f"{out} already holds this sweep: add --resume to continue it")
            # a manifest from before the defaults were recorded adopts today's
            if info.setdefault("agents_defaults", defaults) != defaults:
                raise InputError(
                    f"the agents' defaults (a parameter's declared default, or the shipped "
                    f"profile or mixture of agents/profiles/heuristic.toml) changed since the "
                    f"sweep in {out} was started: its finished cells were played under the "
                    f"old ones; use a new --out directory")
            # a manifest from before the files were recorded adopts today's
            for name, sha in info.setdefault("params_files", files).items():
                if files.get(name) != sha:
                    raise InputError(
                        f"the parameter file {name} changed since the sweep in {out} was "
                        f"started: its finished cells were played under the old one; use a "
                        f"new --out directory")
        else:
            info = {"sweep_hash": digest, "spec": spec, "cells": [c.cell_id for c in cells],
                    "agents_defaults": defaults, "params_files": files}
        # a manifest written before checksums were recorded: its cells are adopted when
        # their files agree with each other, and their checksums recorded from then on
        legacy = "finished" not in info or bool(info.get("adopting"))
        finished: dict[str, str] = dict(info.get("finished", {}))
        info["finished"] = finished
        if legacy:
            info["adopting"] = True
        _atomic_write(manifest, json.dumps(info, indent=2, default=str).encode())
        n_games = run_cfg.get("games")
        prec = run_cfg.get("precision")
        if n_games is None and prec is None:
            n_games = 10_000
        seed = int(run_cfg.get("seed", 0))
        n_jobs = jobs if jobs is not None else int(run_cfg.get("jobs", 1))
        rows = []
        for k, cell in enumerate(cells):
            path = out / "cells" / f"{cell.cell_id}.json"
            label = f"[{k + 1}/{len(cells)}] {cell.key}"
            summary = None
            if path.exists():
                summary, problem, digest = _check_cell(out, cell.cell_id,
                                                       finished.get(cell.cell_id), legacy)
                if summary is not None and cell.cell_id not in finished:
                    finished[cell.cell_id] = digest
                    _atomic_write(manifest, json.dumps(info, indent=2, default=str).encode())
                if summary is None:
                    if log:
                        log(f"{label}: the finished cell is damaged ({problem}): playing it "
                            "again")
                elif log:
                    log(f"{label}: done before, skipped")
            if summary is None:
                try:
                    result = run(cell.setup, games=n_games, precision=prec, seed=seed,
                                 jobs=n_jobs, keep_rows=True, progress=not quiet,
                                 max_games=int(run_cfg.get("max_games", 10_000_000)))
                except MafiaSimError as e:
                    raise MafiaSimError(f"sweep cell {label}: {e}") from None
                if result.interrupted:
                    raise KeyboardInterrupt
                summary = result.summary()
                summary["cell"] = cell.key
                summary["cell_id"] = cell.cell_id
                assert result.rows is not None
                npy = out / "cells" / f"{cell.cell_id}.winners.npy"
                buf = io.BytesIO()
                np.save(buf, result.rows[:, 1].astype(np.int8))
                _atomic_write(npy, buf.getvalue())
                text = json.dumps(summary, indent=2).encode()
                _atomic_write(path, text)
                finished[cell.cell_id] = _cell_digest(text, buf.getvalue())
                _atomic_write(manifest, json.dumps(info, indent=2, default=str).encode())
                if log:
                    town = summary["camps"]["town"]["share"]
                    log(f"{label}: {summary['games']} games, town {town:.1%}")
            rows += tidy_rows(summary)
        if info.pop("adopting", None):
            _atomic_write(manifest, json.dumps(info, indent=2, default=str).encode())
        df = pd.DataFrame(rows)
        try:
            df.to_csv(out / "results.csv", index=False)
            df.to_parquet(out / "results.parquet", index=False)
        except OSError as e:
            raise InputError(f"cannot write the results into {out}: {e.strerror or e}") \
                from None
    return df


def _cell_digest(summary: bytes, winners: bytes) -> str:
    h = hashlib.sha256(summary)
    h.update(winners)
    return h.hexdigest()


def _read_manifest(path: Path, out: Path) -> dict[str, Any] | None:
    """The manifest of a sweep directory (None when there is none); a damaged one is an
    InputError, never a traceback."""
    if not path.exists():
        return None
    try:
        info = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise InputError(f"{path} is damaged ({type(e).__name__}): which sweep {out} holds "
                         "is unknown; use a new --out directory") from None
    if not isinstance(info, dict) or not isinstance(info.get("sweep_hash"), str) or \
            not isinstance(info.get("finished", {}), dict):
        raise InputError(f"{path} is damaged (not a sweep manifest): use a new --out "
                         "directory")
    return info


def _check_cell(out: Path, cell_id: str, digest: str | None, legacy: bool = False
                ) -> tuple[dict[str, Any] | None, str, str]:
    """A finished cell's summary when its files are whole and agree with the manifest's
    checksum (not asked of a `legacy` manifest, which has none) and with each other; else
    None and what is wrong. Also the checksum of the files as they are."""
    path = out / "cells" / f"{cell_id}.json"
    npy = out / "cells" / f"{cell_id}.winners.npy"
    try:
        text = path.read_bytes()
        raw = npy.read_bytes()
    except OSError as e:
        return None, f"{Path(e.filename or path).name}: {e.strerror}", ""
    actual = _cell_digest(text, raw)
    if digest is None and not legacy:
        return None, "no checksum in the manifest", actual
    if digest is not None and actual != digest:
        return None, "checksum differs from the manifest", actual
    try:
        summary = json.loads(text)
        winners = np.load(io.BytesIO(raw))
        games = int(summary["games"])
        wins = [int(summary["camps"][w.key]["wins"]) for w in Winner]
    except (ValueError, KeyError, TypeError, OSError) as e:
        return None, f"unreadable ({type(e).__name__})", actual
    if games < 1 or len(winners) != games or \
            np.bincount(winners, minlength=len(Winner))[: len(Winner)].tolist() != wins:
        return None, "its win counts disagree with its games", actual
    return summary, "", actual


@contextlib.contextmanager
def _sweep_lock(out: Path) -> Any:
    """Hold `out/.lock` while a sweep writes into `out`; the system frees it when the
    process ends, even by kill -9. A second sweep is refused with the first one's pid."""
    import fcntl

    lock = out / ".lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 200).decode(errors="replace").strip() or "unknown"
            raise InputError(f"another sweep is writing into {out} ({holder}): wait for it "
                             "or use another --out") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}"
                 .encode())
        yield
    finally:
        os.close(fd)


def tidy_rows(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for camp in CAMPS:
        c = summary["camps"][camp]
        out.append({"cell_id": summary.get("cell_id", ""), **summary.get("cell", {}),
                    "composition": summary["setup"]["composition"],
                    "players": summary["setup"]["players"], "camp": camp,
                    "games": summary["games"], "wins": c["wins"], "share": c["share"],
                    "low": c["low"], "high": c["high"],
                    "turns_mean": summary["turns"]["mean"],
                    "duel_share": summary["duel_share"],
                    **{f"ends_{r}": k / summary["games"]
                       for r, k in summary.get("reasons", {}).items()},
                    **{f"wins_by_{r}": k for r, k in
                       summary.get("wins_by_reason", {}).get(camp, {}).items()}})
    return out
