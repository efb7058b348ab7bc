"""The message catalogs: what needs a translation, and bringing each catalog up to date.

    python scripts/catalogs.py            # add new messages to every catalog, mark old ones
    python scripts/catalogs.py --check    # exit 1 when a catalog lacks a translation

The messages are found by Babel's extractor in the modules whose words reach the page (the
game's definitions, the engine, `resolve`'s game files, the page itself) under the keywords
of sim.game.messages (`msg`, `nmsg`, `Msg`, `N_`), the errors' constructors
(`InputError("...", ...)`) and `_at` (a place in a game file); the page's own words come from
sim.web.i18n.PAGE, each under its key as msgctxt; the words used as values (role, clan,
cause and rule option keys) from sim.game.i18n.value_words. docs/i18n.md says how to add a
language.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_file  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from sim.game.i18n import DOMAIN, LANGS, value_words  # noqa: E402
from sim.web.i18n import PAGE  # noqa: E402

#: the sources whose messages can reach the page (the command line's own stay English)
SOURCES = ["sim/game", "sim/engine", "sim/play/resolve.py", "sim/play/mixture.py",
           "sim/web"]
KEYWORDS = {"msg": None, "Msg": None, "N_": None, "nmsg": (1, 2), "_at": (2,),
            "InputError": None, "MafiaSimError": None}


def template_catalog() -> Catalog:
    """Every message that needs a translation, as an empty catalog (the .pot)."""
    cat = Catalog(domain=DOMAIN, project="mafia-sim", fuzzy=False)
    files: list[Path] = []
    for src in SOURCES:
        p = ROOT / src
        files += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    for f in files:
        if f.name == "params.py":  # the agents' parameters: the command line's, English
            continue
        for lineno, message, _comments, context in extract_from_file(
                "python", str(f), keywords=KEYWORDS):
            if isinstance(message, tuple) and not message[0]:
                continue
            if isinstance(message, tuple) and len(message) == 1:
                message = message[0]
            if not message:
                continue
            cat.add(message, locations=[(str(f.relative_to(ROOT)), lineno)], context=context)
    for word in value_words():
        cat.add(word, locations=[("sim/game/i18n.py", 0)])
    for key, text in PAGE.items():
        cat.add(text, context=key, locations=[("sim/web/i18n.py", 0)])
    return cat


def catalog_file(lang: str) -> Path:
    return ROOT / "sim" / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def missing(lang: str) -> list[str]:
    """The messages the language's catalog has no translation for."""
    with catalog_file(lang).open("rb") as f:
        have = read_po(f, locale=lang)
    out = []
    for m in template_catalog():
        if not m.id:
            continue
        got = have.get(m.id, context=m.context)
        strings = got.string if got is not None else ""
        if got is None or not (all(strings) if isinstance(strings, tuple) else strings):
            out.append(f"{m.context + ': ' if m.context else ''}{m.id}")
    return out


def update(lang: str) -> None:
    path = catalog_file(lang)
    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    cat.update(template_catalog(), no_fuzzy_matching=True)
    with path.open("wb") as f:
        write_po(f, cat, width=100, omit_header=False, include_previous=False,
                 ignore_obsolete=True, include_lineno=False)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="list what lacks a translation")
    args = ap.parse_args()
    bad = 0
    for lang in LANGS:
        if lang == "en":
            continue
        if not args.check:
            update(lang)
        gaps = missing(lang)
        for g in gaps:
            print(f"{lang}: no translation: {g}")
        bad += len(gaps)
    return 1 if args.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
