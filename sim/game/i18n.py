"""Messages worded in one language: gettext catalogs (Babel) and CLDR numbers.

The catalogs are `sim/locale/<lang>/LC_MESSAGES/mafia_sim.po`, with the English templates of
`sim.game.messages.Msg` as their ids; English needs no catalog. A catalog is read with Babel and
turned into the standard library's gettext translations (its plural forms from the catalog's
header: Russian has three, 1 игрок, 2 игрока, 5 игроков). Numbers are formatted by Babel from
CLDR: 62,5 and 10 000 in Russian, 62.5 and 10,000 in English. `docs/i18n.md` says how to add a
language.
"""

from __future__ import annotations

import gettext
import io
import re
from functools import cache
from importlib import resources
from typing import Any

from sim.game.messages import Msg, as_msg

#: the languages worded, the first the page's default
LANGS = ("ru", "en")
DOMAIN = "mafia_sim"
_SPEC = re.compile(r"(?P<sign>[+])?(?P<group>,)?(?:\.(?P<digits>\d+))?(?P<kind>[fd%])?")


def catalog_path(lang: str) -> Any:
    return resources.files("sim") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The language's catalog as gettext translations (English: none, the ids are English)."""
    if lang == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


class Words:
    """Messages and numbers in one language: `words(msg)`, `words.number(62.5, ".1f")`,
    `words.percent(0.625)`."""

    def __init__(self, lang: str):
        self.lang = lang if lang in LANGS else LANGS[0]
        self.tr = translations(self.lang)

    def template(self, m: Msg) -> str:
        tr = self.tr
        if m.plural is not None:
            n = m.values.get(m.count, 0)
            n = int(n) if isinstance(n, int) else 0
            if m.context is not None:
                return tr.npgettext(m.context, m.text, m.plural, n)
            return tr.ngettext(m.text, m.plural, n)
        if m.context is not None:
            return tr.pgettext(m.context, m.text)
        return tr.gettext(m.text)

    def __call__(self, x: object) -> str:
        """A message, an error carrying one, or any other object (its str), in the language."""
        return as_msg(x).render(self.template, self.number)

    def number(self, value: float, spec: str = "") -> str:
        """A number as the language writes it, for a str.format spec ('', 'd', ',', '.1f',
        '+.1f', '.1%'): English as str.format writes it (the command line's figures), other
        languages by CLDR through Babel (62,5; 10 000; 62,5 %); other specs as str.format."""
        m = _SPEC.fullmatch(spec)
        if self.lang == "en" or m is None:
            if self.lang == "en" and spec == "" and isinstance(value, int):
                return f"{value:,}"  # 10,000 games
            return format(value, spec)
        from babel.numbers import format_decimal, format_percent

        if m["digits"] is not None:
            digits = int(m["digits"])
        elif isinstance(value, int) or m["kind"] in ("d", "%"):
            digits = 0
        else:
            return format_decimal(value, locale=self.lang)  # as many digits as str() shows
        body = "#,##0" + ("." + "0" * digits if digits else "")
        if m["kind"] == "%":
            pattern = body + "\u00a0%"
            pattern = f"+{pattern};-{pattern}" if m["sign"] else pattern
            return format_percent(value, pattern, locale=self.lang)
        pattern = f"+{body};-{body}" if m["sign"] else body
        return format_decimal(value, pattern, locale=self.lang)

    def percent(self, share: float, digits: int = 1) -> str:
        return self.number(share, f".{digits}%")


def value_words() -> list[str]:
    """The words that messages take as values (`Msg(role.key)`, `Msg(clan.key)`, a cause, a
    rule option's name, true/false): each is a message of its own in the catalogs."""
    from sim.game.roles import Cause, Clan, Role
    from sim.game.rules import RuleSet
    from sim.game.talk import StatementKind

    words = [r.key for r in Role] + [c.key for c in Clan if c is not Clan.NONE]
    words += [c.key for c in Cause] + RuleSet.names() + ["true", "false", "unknown"]
    words += [k.value for k in StatementKind]  # a refused statement's request
    return list(dict.fromkeys(words))
