"""Answers built on the runner: paired comparisons, sweeps, recommendations, odds from a
position, and skill calibration."""

from __future__ import annotations

import contextlib
import hashlib
import io
import itertools
import json
import math
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from sim.game.errors import InputError, MafiaSimError
from sim.game.roles import Clan, Role, Winner
from sim.game.rules import Composition, RuleSet, Seat
from sim.play.runner import run
from sim.play.setup import Setup, build_setup, check_playable, check_run
from sim.play.stats import (
    mcnemar_p,
    paired_diff_interval,
    share_interval,
    unpaired_diff_interval,
    z_of,
)
from sim.play.streams import game_streams

CAMPS = [w.key for w in Winner]


# -- paired comparison on common random numbers ---------------------------------------------
def paired_compare(winners_a: np.ndarray, winners_b: np.ndarray, *, identical: bool = False
                   ) -> dict[str, dict[str, float]]:
    """Per camp: share in A and B, B - A with its paired 95% interval (Tango's score
    interval, sim.play.stats.paired_diff_interval) and McNemar's p-value (mid-p when the
    discordant games are few), and the unpaired interval half-width (Newcombe's hybrid
    score) for reference. Game i of both arms used the same seed. `identical`: the arms are
    the same by construction, so every difference is exactly 0 with no uncertainty."""
    if len(winners_a) != len(winners_b):
        raise MafiaSimError("paired comparison needs the same games in both arms")
    n = len(winners_a)
    out = {}
    for w in Winner:
        a = winners_a == w
        b = winners_b == w
        b_only = int(np.count_nonzero(b & ~a))
        a_only = int(np.count_nonzero(a & ~b))
        wins_a, wins_b = int(np.count_nonzero(a)), int(np.count_nonzero(b))
        pa, pb = (wins_a / n, wins_b / n) if n else (0.0, 0.0)
        if identical and b_only == a_only == 0:
            diff, low, high, p = 0.0, 0.0, 0.0, 1.0
        else:
            diff, low, high = paired_diff_interval(b_only, a_only, n)
            p = mcnemar_p(b_only, a_only)
        _, ulow, uhigh = unpaired_diff_interval(wins_b, wins_a, n, n)
        out[w.key] = {
            "a": pa, "b": pb, "diff": diff, "low": low, "high": high, "p_value": p,
            "b_only": b_only, "a_only": a_only,
            "half_width_paired": (high - low) / 2, "half_width_unpaired": (uhigh - ulow) / 2,
        }
    return out


def same_by_construction(a: Setup, b: Setup) -> bool:
    """Whether two arms play the same games by construction (same table, rules, agents)."""
    return a.describe() == b.describe() and a.on_illegal == b.on_illegal


def compare(a: Setup, b: Setup, *, games: int, seed: int, jobs: int = 1,
            **kw: Any) -> dict[str, Any]:
    ra = run(a, games=games, seed=seed, jobs=jobs, keep_rows=True, **kw)
    rb = run(b, games=games, seed=seed, jobs=jobs, keep_rows=True, **kw)
    assert ra.rows is not None and rb.rows is not None
    camps = paired_compare(ra.rows[:, 1], rb.rows[:, 1], identical=same_by_construction(a, b))
    return {"games": games, "seed": seed, "a": a.describe(), "b": b.describe(), "camps": camps,
            "seconds": ra.seconds + rb.seconds}


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
        if info is not None:
            if info.get("sweep_hash") != digest:
                raise InputError(f"{where} changed since the sweep in {out} was started: use a "
                                 "new --out directory (finished cells would be mixed otherwise)")
            if not resume:
                raise InputError(f"{out} already holds this sweep: add --resume to continue it")
        else:
            info = {"sweep_hash": digest, "spec": spec, "cells": [c.cell_id for c in cells]}
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


# -- recommendations ------------------------------------------------------------------------
DEFAULT_TARGET = {"town": 0.5, "yakuza": 0.2, "triad": 0.2, "maniac": 0.1}


def candidates(n: int, rules: RuleSet | None = None) -> list[Composition]:
    """Compositions near the standard table: each clan one smaller or larger, the maniac,
    ninja, doctor and necromancer in or out (at most one out); civilians fill up. Only
    valid tables (D2.1) are kept."""
    rules = rules or RuleSet()
    std = Composition.standard(n)
    ys, ts = std.clan_size(Clan.YAKUZA), std.clan_size(Clan.TRIAD)
    out = []
    for dy, dt in itertools.product((-1, 0, 1), repeat=2):
        for flags in itertools.product((0, 1), repeat=4):
            if flags.count(0) > 1:
                continue  # at most one of these roles left out
            roles = dict(zip((Role.MANIAC, Role.NINJA, Role.DOCTOR, Role.NECROMANCER), flags,
                             strict=True))
            try:
                comp = adjust(std, n, {Clan.YAKUZA: ys + dy, Clan.TRIAD: ts + dt}, roles)
            except InputError:
                continue
            if not comp.problems(rules):
                out.append(comp)
    return out


def distance(shares: Mapping[str, float], target: Mapping[str, float]) -> float:
    return math.sqrt(sum((shares.get(k, 0.0) - v) ** 2 for k, v in target.items()))


def recommend(base: Setup, n: int, target: Mapping[str, float], *, games: int = 400,
              rounds: int = 4, keep: int = 10, seed: int = 0, jobs: int = 1,
              confirm: int = 3, confirm_games: int | None = None, boot: int = 2000,
              log: Any = None) -> list[dict[str, Any]]:
    """Successive halving over `candidates(n)`: every candidate plays `games`, the closer half
    goes on with twice the games (continuing the same seed stream), until `keep` are left
    or `rounds` are done.

    The shares a candidate was selected on are optimistic for the winner (the winner's
    curse), so the `confirm` best then play `confirm_games` fresh games (default: as many as
    the selection gave them), the same fresh games for each (game indices after every one
    used in the selection), and are ranked on those alone. Each confirmed row says whether
    it is within noise of the best: whether a paired bootstrap of the fresh games (`boot`
    resamples) leaves its distance to the target no worse than the best's in at least
    2.5% of resamples. Returns the ranked table: the confirmed candidates first (with
    `confirmed` true), then the rest with their selection figures."""
    pool = [(c, replace(base, comp=c)) for c in candidates(n, base.rules)]
    state: dict[str, dict[str, Any]] = {}
    played = 0
    for r in range(rounds):
        size = games * (2 ** r)
        for comp, setup in pool:
            key = comp.describe()
            st = state.setdefault(key, {"comp": comp, "winners": np.zeros(len(Winner), int),
                                        "games": 0})
            res = run(setup, games=size, seed=seed, jobs=jobs, start=st["games"])
            st["winners"] += res.tally.winners
            st["games"] += res.tally.games
            played += res.tally.games
        def score(item: tuple[Composition, Setup]) -> float:
            st = state[item[0].describe()]
            return distance({w.key: st["winners"][w] / st["games"] for w in Winner}, target)
        pool.sort(key=score)
        if log:
            log(f"round {r + 1}: {len(pool)} candidates, {size} more games each")
        if len(pool) <= keep:
            break
        pool = pool[: max(keep, len(pool) // 2)]

    def row_of(comp: Composition, winners: np.ndarray, g: int) -> dict[str, Any]:
        shares = {w.key: winners[w] / g for w in Winner}
        row: dict[str, Any] = {"composition": comp.describe(), "games": int(g),
                               "distance": distance(shares, target)}
        for w in Winner:
            lo, hi = share_interval(int(winners[w]), g)
            row[w.key] = {"share": float(shares[w.key]), "low": lo, "high": hi}
        return row

    selection = {comp.describe(): row_of(comp, state[comp.describe()]["winners"],
                                         state[comp.describe()]["games"])
                 for comp, _ in pool}
    top = pool[: max(0, confirm)]
    confirmed: list[dict[str, Any]] = []
    if top:
        fresh_start = max(st["games"] for st in state.values())
        cg = confirm_games or max(state[c.describe()]["games"] for c, _ in top)
        if log:
            log(f"confirming the {len(top)} best on {cg} fresh games each")
        per_game = []
        for comp, setup in top:
            res = run(setup, games=cg, seed=seed, jobs=jobs, start=fresh_start,
                      keep_rows=True)
            assert res.rows is not None
            w = res.rows[:, 1].astype(np.int64)
            per_game.append(w)
            row = row_of(comp, np.bincount(w, minlength=len(Winner)), len(w))
            row["confirmed"] = True
            row["selection"] = {"games": selection[row["composition"]]["games"],
                                "distance": selection[row["composition"]]["distance"]}
            confirmed.append(row)
        order = sorted(range(len(top)), key=lambda i: confirmed[i]["distance"])
        confirmed = [confirmed[i] for i in order]
        per_game = [per_game[i] for i in order]
        worse = _bootstrap_worse_share(per_game, target, boot, seed)
        for row, share_worse in zip(confirmed, worse, strict=True):
            row["within_noise_of_best"] = bool(share_worse < 0.975)
            row["bootstrap_share_worse_than_best"] = share_worse
    rest = [dict(selection[c.describe()], confirmed=False) for c, _ in pool[len(top):]]
    rest.sort(key=lambda r: r["distance"])
    return confirmed + rest


def _bootstrap_worse_share(per_game: list[np.ndarray], target: Mapping[str, float],
                           boot: int, seed: int) -> list[float]:
    """For each candidate (the first is the best), the share of paired bootstrap resamples
    of the common fresh games in which its distance to the target is larger than the
    best's (0 for the best itself)."""
    g = len(per_game[0])
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0x5EED, 1)))
    # Resample games by their joint outcome across the candidates (at most 6^k patterns).
    joint = np.stack(per_game, axis=1)  # g x candidates
    patterns, freq = np.unique(joint, axis=0, return_counts=True)
    draws = rng.multinomial(g, freq / g, size=boot)  # boot x patterns
    camps = [w for w in Winner if w.key in target]
    tvec = np.array([target[w.key] for w in camps])
    dists = []
    for i in range(len(per_game)):
        onehot = np.stack([(patterns[:, i] == c).astype(float) for c in camps], axis=1)
        shares = draws @ onehot / g  # boot x camps
        dists.append(np.sqrt(((shares - tvec) ** 2).sum(axis=1)))
    return [float(np.mean(d > dists[0])) for d in dists]


def parse_target(text: str | None) -> dict[str, float]:
    if not text:
        return dict(DEFAULT_TARGET)
    out: dict[str, float] = {}
    for item in text.split(","):
        k, _, v = item.partition("=")
        k = k.strip()
        if k not in ("town", "yakuza", "triad", "maniac", "draw"):
            raise InputError(f"--target: unknown camp {k!r} (town, yakuza, triad, maniac, draw)")
        try:
            if not v.strip().isascii():
                raise ValueError(v)  # float() would read non-ASCII digits
            out[k] = float(v)
        except ValueError:
            raise InputError(f"--target {k}: {v!r} is not a number") from None
        if not 0 <= out[k] <= 1:  # nan fails this too
            raise InputError(f"--target {k}: a share is between 0 and 1")
    if abs(sum(out.values()) - 1) > 0.02:
        raise InputError(f"--target shares add up to {sum(out.values()):.2f}, not 1")
    return out


# -- odds from a position -------------------------------------------------------------------
def odds_batch(game: Mapping[str, Any], setup: Setup, seed: int, start: int,
               stop: int) -> np.ndarray:
    from sim.engine.game import Game
    from sim.play.driver import Driver
    from sim.play.resolve import _Parser

    out = np.zeros(len(Winner), dtype=np.int64)
    for i in range(start, stop):
        parser = _Parser(game)
        g = Game(parser.comp, parser.rules, np.random.default_rng(parser.seed), parser.dons)
        for t, raw in enumerate(parser.turns):
            g.play_turn(parser.turn_input(g, t, raw))
        if g.over:
            assert g.outcome is not None
            out[g.outcome.winner] += 1
            continue
        driver = Driver(parser.comp, parser.rules, setup.agents, setup.on_illegal)
        # the rest is played with game i's streams (its host stream becomes g.rng)
        driver.finish(g, game_streams(seed, i, parser.comp.n))
        assert g.outcome is not None
        out[g.outcome.winner] += 1
    return out


def odds(game: Mapping[str, Any], setup: Setup, *, games: int = 2000, seed: int = 0,
         jobs: int = 1, start: int = 0) -> dict[str, Any]:
    """The chance each camp wins from the position the scripted game reached: continuations
    `start` .. `start + games - 1` of the seed's stream (so a page can play them in rounds
    and add them up)."""
    import joblib

    from sim.play.resolve import resolve

    resolve(game)  # validates the script, with its one-line errors
    size = max(50, games // (max(1, jobs) * 4))
    spans = [(a, min(start + games, a + size)) for a in range(start, start + games, size)]
    if jobs == 1:
        parts = [odds_batch(game, setup, seed, a, b) for a, b in spans]
    else:
        parts = joblib.Parallel(n_jobs=jobs)(
            joblib.delayed(odds_batch)(game, setup, seed, a, b) for a, b in spans)
    wins = np.sum(parts, axis=0)
    camps = {}
    for w in Winner:
        lo, hi = share_interval(int(wins[w]), games)
        camps[w.key] = {"wins": int(wins[w]), "share": float(wins[w]) / games,
                        "low": lo, "high": hi}
    return {"games": games, "seed": seed, "camps": camps}


# -- calibration ----------------------------------------------------------------------------
def calibrate(base: Setup, *, param: str = "town_skill", target: float = 0.5,
              lo: float = 0.0, hi: float = 2.0, points: int = 9, games: int = 2000,
              seed: int = 0, jobs: int = 1, camp: str = "town") -> dict[str, Any]:
    """The value of `param` at which `camp` wins `target` of the games, with its 95% interval.

    Each grid point plays its own games (game indices k * games ... (k + 1) * games - 1 of
    the seed's stream), so the points are independent as the fit assumes. The fit
    (:func:`fit_calibration`) is a binomial logistic regression with a curvature term,
    its interval widened by the fit's dispersion when the curve does not fit the grid."""
    base.agents.with_params({param: lo})  # an unknown name or a value out of range fails here
    if not 0 < target < 1:
        raise InputError("calibrate: --target must be between 0 and 1")
    if points < 2 or hi <= lo:
        raise InputError("calibrate: need at least 2 points and a range lo < hi")
    winner = Winner[camp.upper()]
    xs = np.linspace(lo, hi, points)
    wins = np.zeros(points)
    for k, x in enumerate(xs):
        params = {**base.agents.params, param: float(x)}
        agents = replace(base.agents, params=params)
        res = run(replace(base, agents=agents), games=games, seed=seed, jobs=jobs,
                  start=k * games)
        wins[k] = res.tally.winners[winner]
    n = np.full(points, games, dtype=float)
    grid = [{"value": float(x), "share": float(w / games)} for x, w in zip(xs, wins, strict=True)]
    result: dict[str, Any] = {"param": param, "camp": camp, "target": target, "grid": grid,
                              "value": None}
    shares = wins / games
    if not shares.min() <= target <= shares.max():
        k = int(shares.argmin() if target < shares.min() else shares.argmax())
        result["note"] = (f"{camp} never wins {target:.0%} for {param} in [{lo}, {hi}]: its "
                          f"share runs from {shares.min():.1%} to {shares.max():.1%}, the "
                          f"nearest at {param} = {xs[k]:.3g}")
        return result
    fit = fit_calibration(xs, wins, n, target)
    result["fit"] = fit["fit"]
    result["interpolated"] = fit["interpolated"]
    if fit["value"] is None:
        result["note"] = f"{camp}'s share does not cross {target:.0%} on the fitted curve"
        return result
    result.update(value=fit["value"], low=fit["low"], high=fit["high"])
    if fit.get("note"):
        result["note"] = fit["note"]
    return result


def fit_calibration(x: np.ndarray, wins: np.ndarray, n: np.ndarray, target: float,
                    conf: float = 0.95, window: int = 4) -> dict[str, Any]:
    """Solve a fitted curve of the win share against `x` for `target`, with an interval.

    The fit is local: a binomial logistic regression logit(share) = c0 + c1 u,
    u = (x - centre) / scale, by maximum likelihood on the `window` grid points nearest the
    first crossing of the target (the two around it and their neighbours), so a curve that
    bends far from the target does not pull the answer. The interval is the set of x at
    which the fitted logit is within z standard errors of logit(target) (inverse
    prediction, Fieller's form), the standard errors scaled by the dispersion
    max(1, X^2 / df) from the local fit's Pearson X^2: a line that misfits the points gives
    a wider interval rather than a falsely narrow one. Also returned: the value interpolated
    linearly between the two grid points around the target, as a check."""
    z = z_of(conf)
    x = np.asarray(x, dtype=float)
    wins = np.asarray(wins, dtype=float)
    n = np.asarray(n, dtype=float)
    share = wins / n
    interp = _interpolate(x, share, target)
    out: dict[str, Any] = {"interpolated": interp, "value": None}
    # the window: the grid points nearest the crossing
    at = interp if interp is not None else float(x[np.argmin(np.abs(share - target))])
    order = np.argsort(np.abs(x - at), kind="stable")
    use = np.sort(order[: max(2, min(window, len(x)))])
    xw, ww, nw = x[use], wins[use], n[use]
    centre, scale = (xw.max() + xw.min()) / 2, max((xw.max() - xw.min()) / 2, 1e-12)
    X = np.column_stack([np.ones(len(xw)), (xw - centre) / scale])
    beta, cov = _logistic_fit(X, ww, nw)
    p = 1 / (1 + np.exp(-(X @ beta)))
    dof = len(xw) - X.shape[1]
    x2 = float(np.sum((ww - nw * p) ** 2 / np.maximum(nw * p * (1 - p), 1e-300)))
    dispersion = max(1.0, x2 / dof) if dof > 0 else 1.0
    out["fit"] = {"model": "logit(share) = c0 + c1*u, u = (value - centre) / scale, on the "
                           "grid points nearest the target",
                  "points": [float(v) for v in xw], "coef": [float(b) for b in beta],
                  "centre": float(centre), "scale": float(scale), "pearson_x2": x2,
                  "df": dof, "dispersion": dispersion}
    if abs(beta[1]) < 1e-12:
        return out
    lt = math.log(target / (1 - target))
    u0 = (lt - beta[0]) / beta[1]
    x0 = float(centre + scale * u0)
    if not x.min() <= x0 <= x.max():
        return out
    fine = np.linspace(x.min(), x.max(), 4001)
    uf = (fine - centre) / scale
    Xf = np.column_stack([np.ones_like(uf), uf])
    eta = Xf @ beta - lt
    se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", Xf, cov, Xf), 0.0) * dispersion)
    inside = np.abs(eta) <= z * se
    i = int(np.clip(np.searchsorted(fine, x0), 1, len(fine) - 1))
    lo_i, hi_i = i, i - 1
    while lo_i > 0 and inside[lo_i - 1]:
        lo_i -= 1
    while hi_i < len(fine) - 1 and inside[hi_i + 1]:
        hi_i += 1
    low = float(min(fine[lo_i], x0))
    high = float(max(fine[hi_i], x0))
    out.update(value=x0, low=low, high=high)
    if (lo_i == 0 and inside[0]) or (hi_i == len(fine) - 1 and inside[-1]):
        out["note"] = ("the interval reaches the edge of the range searched: widen --range "
                       "or play more games per point")
    return out


def _interpolate(x: np.ndarray, share: np.ndarray, target: float) -> float | None:
    """The first crossing of `target` by the grid shares, interpolated linearly."""
    for k in range(len(x) - 1):
        a, b = share[k] - target, share[k + 1] - target
        if a == 0:
            return float(x[k])
        if a * b < 0:
            return float(x[k] + (x[k + 1] - x[k]) * a / (a - b))
    return float(x[-1]) if share[-1] == target else None


def _logistic_fit(X: np.ndarray, wins: np.ndarray, n: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Binomial logistic regression of wins out of n on the columns of X by Newton's
    method; returns the coefficients and their covariance (inverse information)."""
    k = X.shape[1]
    beta = np.zeros(k)
    ridge = 1e-10 * np.eye(k)
    info = np.eye(k)
    for _ in range(100):
        p = 1 / (1 + np.exp(-(X @ beta)))
        grad = X.T @ (wins - n * p)
        w = n * p * (1 - p)
        info = X.T @ (X * w[:, None])
        step = np.linalg.solve(info + ridge, grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta, np.linalg.inv(info + ridge)
