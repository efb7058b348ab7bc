"""Recommendations: the compositions near the standard table whose win shares come
closest to a target, confirmed on fresh games."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from sim.analysis.sweep import adjust
from sim.game.errors import InputError
from sim.game.roles import Clan, Role, Winner
from sim.game.rules import Composition, RuleSet
from sim.play.runner import run
from sim.play.setup import Setup, parse_roles
from sim.play.stats import (
    share_interval,
)

# -- recommendations ------------------------------------------------------------------------
DEFAULT_TARGET = {"town": 0.5, "yakuza": 0.2, "triad": 0.2, "maniac": 0.1}


#: `recommend`'s check of its tables against each camp's best response (`exploit`'s search):
#: confirming games and selection games a camp
CHECK_GAMES = 2000
CHECK_BUDGET = 12_000
#: a checked table is not recommended when a camp's best response surely gains it more
#: than this share (the lower end of the gain's 95% interval above it): the table is
#: balanced only while that camp blunders (issue 24, point 3)
MAX_GAIN = 0.02


def candidates(n: int, rules: RuleSet | None = None) -> list[Composition]:
    """Compositions near the standard table: each clan one smaller or larger, the maniac,
    ninja, doctor and necromancer in or out (at most one out); civilians fill up. Only
    valid tables (D2.1) are kept.

    Each is the table its text describes (`parse_roles`), seated in the text's order: the
    deal permutes the seats, so a table seated otherwise plays other games from the same
    seed, and `run --roles TEXT` with the seed would not replay what was recommended."""
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
                out.append(parse_roles(comp.describe(), n))
    return out


def distance(shares: Mapping[str, float], target: Mapping[str, float]) -> float:
    return math.sqrt(sum((shares.get(k, 0.0) - v) ** 2 for k, v in target.items()))


def recommend(base: Setup, n: int, target: Mapping[str, float], *, games: int = 400,
              rounds: int = 4, keep: int = 10, seed: int = 0, jobs: int = 1,
              confirm: int = 3, confirm_games: int | None = None, boot: int = 2000,
              check: int = 1, check_games: int = CHECK_GAMES, check_budget: int = CHECK_BUDGET,
              max_gain: float = MAX_GAIN, check_seed: int | None = None,
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
    `confirmed` true), then the rest with their selection figures.

    The confirmed tables are then played, closest first, against each camp's best response
    (`exploit`'s search: `check_budget` selection games a camp, `check_games` confirming
    games) until `check` of them hold: a table balanced only because a camp blunders is no
    recommendation. Each checked row gets `exploit` (each camp's gain with its interval,
    the largest gain and NashConv) and `exploitable`: whether some camp surely gains more
    than `max_gain` (the lower end of its gain's interval above it). An exploitable row
    moves below the confirmed rows that are not, and the first checked row that holds is
    `recommended` (none is when every confirmed row is exploitable). With `check` 0
    nothing is checked and the closest confirmed row is `recommended`. The check plays
    `check_seed` (default: `seed`)."""
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
        for i, row in enumerate(confirmed):
            row["closest"] = i == 0
        setups = {comp.describe(): setup for comp, setup in top}
        held = 0
        for row in confirmed:
            if held >= check:
                break
            row["exploit"] = exploit_check(setups[row["composition"]],
                                           seed=seed if check_seed is None else check_seed,
                                           games=check_games, budget=check_budget,
                                           jobs=jobs, log=log)
            row["exploitable"] = exploitable(row["exploit"]["largest"]["low"], max_gain)
            if row["exploitable"]:
                if log:
                    big = row["exploit"]["largest"]
                    log(f"not recommended: {row['composition']} (the {big['camp']} gain "
                        f"{100 * big['gain']:+.1f} points, surely above {100 * max_gain:g})")
            else:
                held += 1
        # a table balanced only while a camp blunders goes below those that hold (stable:
        # each part stays in order of distance)
        confirmed.sort(key=lambda r: bool(r.get("exploitable")))
        for row in confirmed:
            row["recommended"] = False
        if confirmed and not confirmed[0].get("exploitable"):
            confirmed[0]["recommended"] = True
    rest = [dict(selection[c.describe()], confirmed=False) for c, _ in pool[len(top):]]
    rest.sort(key=lambda r: r["distance"])
    return confirmed + rest


def exploitable(largest_low: float, max_gain: float = MAX_GAIN) -> bool:
    """Whether a checked table is balanced only while a camp blunders: the lower end of
    the largest gain's interval above `max_gain` (the camp surely gains more)."""
    return bool(largest_low > max_gain)


def exploit_check(setup: Setup, *, seed: int, games: int, budget: int, jobs: int,
                  log: Any = None) -> dict[str, Any]:
    """Each camp's best gain against the setup's agents (`exploit`), the largest of them
    and NashConv, for a recommended table."""
    from sim.analysis.search import exploitability, nash_conv

    if log:
        log(f"checking {setup.comp.describe()} with exploit ({budget:,} selection and "
            f"{games:,} confirming games a camp)")
    brs = exploitability(setup, seed=seed, games=games, budget=budget, jobs=jobs)
    camp, top = max(brs.items(), key=lambda kv: kv[1].gain)
    return {"gains": {c: {"gain": br.gain, "low": br.low, "high": br.high,
                          "deviation": dict(br.deviation), "tried": br.tried}
                      for c, br in brs.items()},
            "largest": {"camp": camp, "gain": top.gain, "low": top.low, "high": top.high},
            **nash_conv(brs)}


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
