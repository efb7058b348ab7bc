#!/usr/bin/env python3
"""How the headline findings move when the agents play another profile (issue 24, point 4):
the studies of player count (1), role values (4) and rule options (5), as committed under
the default profile (results/studies/), beside the same studies played under a profile or
mixture file:

    mafia-sim sweep studies/01_player_count.toml --params FILE --out ROOT/studies/01_player_count
    (the same for 04_role_values and 05_rule_options)
    scripts/studies_under.py ROOT --label "the PSRO mixture" > ROOT/README.md

prints a Markdown report: each camp's share by table size under both, and each role's and
rule option's effect (paired 95% intervals, common random numbers within each profile) under
both, with whether the finding holds (the same sign where either is clear of zero).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.analysis.studies import RESULTS, load_study, paired_rows  # noqa: E402

CAMPS = ("town", "yakuza", "triad", "maniac")
NAMES = {"town": "Town", "yakuza": "Yakuza", "triad": "Triad", "maniac": "maniac"}


def pts(r: dict) -> str:
    return f"{100 * r['diff']:+.1f} [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}]"


def holds(a: dict, b: dict) -> str:
    """Whether an effect measured under both profiles tells the same story: the same sign
    where either interval is clear of zero ("yes"), the opposite ("**no**"), or neither
    clear ("(noise)")."""
    clear_a = a["low"] > 0 or a["high"] < 0
    clear_b = b["low"] > 0 or b["high"] < 0
    if not clear_a and not clear_b:
        return "(noise)"
    if (a["diff"] > 0) == (b["diff"] > 0):
        return "yes" if clear_a and clear_b else "same sign"
    return "**no**"


def player_count(out: list[str], other: Path, label: str) -> None:
    a = load_study("01_player_count", quick=False, results=RESULTS, rebuild=False).df
    b = load_study("01_player_count", quick=False, results=other, rebuild=False).df
    out += ["## 1. Who wins by table size", "",
            f"Each camp's share (95% interval) under the default profile, then under {label}.",
            "", "| players | " + " | ".join(f"{NAMES[c]}: default → other" for c in CAMPS)
            + " |", "|---|" + "---|" * len(CAMPS)]
    for n in sorted(a.players.unique()):
        da, db = a[a.players == n].set_index("camp"), b[b.players == n].set_index("camp")
        if db.empty:
            continue
        cells = [f"{100 * da.loc[c, 'share']:.1f}% → {100 * db.loc[c, 'share']:.1f}% "
                 f"[{100 * db.loc[c, 'low']:.1f}, {100 * db.loc[c, 'high']:.1f}]"
                 for c in CAMPS]
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    out.append("")


def effects(out: list[str], other: Path, label: str, name: str, title: str,
            base_label: str, by_players: bool) -> None:
    sa = load_study(name, quick=False, results=RESULTS, rebuild=False)
    sb = load_study(name, quick=False, results=other, rebuild=False)
    out += [f"## {title}", "",
            f"Each camp's change against the {base_label} cell (points, paired 95% interval, "
            f"common random numbers), under the default profile and under {label}; *holds*: "
            "the same sign where either is clear of zero.", "",
            "| cell | camp | default | other | holds |", "|---|---|---|---|---|"]
    groups = sorted(sa.df.players.unique()) if by_players else [None]
    kept = disagree = 0
    for n in groups:
        da = sa.df if n is None else sa.df[sa.df.players == n]
        db = sb.df if n is None else sb.df[sb.df.players == n]
        if db.empty:
            continue
        base_a = da[da.label == base_label].cell_id.iloc[0]
        base_b = db[db.label == base_label].cell_id.iloc[0]
        for lab in [x for x in da.label.unique() if x != base_label]:
            if lab not in set(db.label):
                continue
            ra = paired_rows(sa, base_a, [da[da.label == lab].cell_id.iloc[0]])
            rb = paired_rows(sb, base_b, [db[db.label == lab].cell_id.iloc[0]])
            for c in CAMPS:
                x = next(r for r in ra if r["camp"] == c)
                y = next(r for r in rb if r["camp"] == c)
                h = holds(x, y)
                kept += h in ("yes", "same sign")
                disagree += h == "**no**"
                cell = f"{lab}" + (f", {n} players" if n is not None else "")
                out.append(f"| {cell} | {NAMES[c]} | {pts(x)} | {pts(y)} | {h} |")
    out += ["", f"Of the effects clear of zero under either profile, {kept} keep their sign "
                f"and {disagree} reverse.", ""]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=Path, help="the results root the other profile's studies "
                                           "are under (ROOT/studies/NAME)")
    ap.add_argument("--label", default="the other profile", help="its name in the report")
    args = ap.parse_args()
    out = [f"# The headline studies under {args.label}", "",
           "Every figure here depends on the agents' profiles, the default skill of the table "
           "and the table sizes shown; both sides played the same seeds.", ""]
    done = [p.name for p in (args.root / "studies").iterdir()] if (
        args.root / "studies").is_dir() else []
    if "01_player_count" in done:
        player_count(out, args.root, args.label)
    if "05_rule_options" in done:
        effects(out, args.root, args.label, "05_rule_options", "5. Rule options",
                "default", by_players=False)
    if "04_role_values" in done:
        effects(out, args.root, args.label, "04_role_values",
                "4. What each role is worth (the role replaced by a civilian)", "baseline",
                by_players=True)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
