"""Every rule id cited in code, messages and docs resolves in docs/rules.md.

docs/rules.md is the project's rules reference: a section heading per R section
(`## R7 Commissar and sergeant`) and one bold entry per rule (`- **R7.3** ...`). A cited
id is `R7.3`, `D4.1` or `P15.1`, or a whole section (`R14`).
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "rules.md"

#: Where ids are cited: the code (messages and comments) and the user-facing docs.
SOURCES = [ROOT / "sim", ROOT / "agents", ROOT / "docs" / "resolve.md", ROOT / "README.md"]

#: A cited id: R, D or P, a section number and an optional rule number, standing alone (not
#: inside a word, a number or a dotted name such as `x.R7`). Only R sections are cited
#: bare (`R14`): a bare `P1` is a player's name (`P1=yakuza`), not a rule.
CITED = re.compile(r"(?<![\w.])(?:([RDP])(\d{1,2})\.(\d{1,2})|(R)(\d{1,2}))(?![\w]|\.\d)")

ENTRY = re.compile(r"^- \*\*([RDP]\d{1,2}\.\d{1,2})\*\*", re.M)
SECTION = re.compile(r"^## (R\d{1,2}) ", re.M)

#: Citations that do not name a rule and wait for a fix in a file being edited elsewhere:
#: (file relative to the root, text): citations known not to be rule ids (none now: the
#: engine's "R4.5" became "R4 step 5").
KNOWN_MISCITED: set[tuple[str, str]] = set()


def ident(m: re.Match[str]) -> str:
    kind, sec, rule, rkind, rsec = m.groups()
    return f"{kind}{sec}.{rule}" if kind else f"{rkind}{rsec}"


def reference_ids() -> tuple[set[str], set[str], list[str]]:
    text = REFERENCE.read_text(encoding="utf-8")
    entries = ENTRY.findall(text)
    return set(entries), set(SECTION.findall(text)), entries


def resolves(cited: str, entries: set[str], sections: set[str]) -> bool:
    if "." in cited:
        return cited in entries
    return "R" + cited[1:] in sections  # D and P rules sit in the R section of their topic


def source_files() -> list[Path]:
    out: list[Path] = []
    for src in SOURCES:
        out += sorted(src.rglob("*.py")) if src.is_dir() else [src]
    return out


def citations(path: Path) -> list[tuple[int, str]]:
    found = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        found += [(n, ident(m)) for m in CITED.finditer(line)]
    return found


def test_the_reference_has_every_section_and_no_id_twice():
    entries, sections, listed = reference_ids()
    assert sections == {f"R{i}" for i in range(1, 18)}
    assert len(listed) == len(entries), sorted({x for x in listed if listed.count(x) > 1})
    for i in range(1, 18):  # every R section has its R rules
        assert any(e.startswith(f"R{i}.") for e in entries), f"R{i} has no rule"


def test_the_scan_finds_ids_and_nothing_else():
    text = "[R8.4] (D2.1, P15.1) R14 and R17.1-R17.3; P1=yakuza x.R7 v2.1 R4.1.2 HR2 3D1.2"
    found = [ident(m) for m in CITED.finditer(text)]
    assert found == ["R8.4", "D2.1", "P15.1", "R14", "R17.1", "R17.3"]


def test_every_cited_rule_id_resolves_in_docs_rules_md():
    entries, sections, _ = reference_ids()
    files = source_files()
    assert len(files) > 20  # the scan sees the code
    missing = []
    n_cited = 0
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for line, cited in citations(path):
            n_cited += 1
            if (rel, cited) in KNOWN_MISCITED:
                continue
            if not resolves(cited, entries, sections):
                missing.append(f"{rel}:{line}: {cited}")
    assert n_cited > 200
    assert not missing, "ids not in docs/rules.md:\n" + "\n".join(missing)


def test_the_reference_cites_only_its_own_ids():
    entries, sections, _ = reference_ids()
    bad = [f"docs/rules.md:{n}: {c}" for n, c in citations(REFERENCE)
           if not resolves(c, entries, sections)]
    assert not bad, "\n".join(bad)


def test_known_miscitations_are_not_rule_ids():
    entries, sections, _ = reference_ids()
    for _, cited in KNOWN_MISCITED:
        assert not resolves(cited, entries, sections)
