"""Messages as data: an English template and its values, worded per language at the edge.

Every error mafia-sim raises on purpose, and every word the page shows, is a `Msg`: the English
template (`str.format` syntax) is its id in the message catalogs (`sim/locale/<lang>/
LC_MESSAGES/mafia_sim.po`, gettext's convention of the source text as the id), and its values
(players, counts, rule ids, other `Msg`s) stay apart from the words until a front end renders
it in one language (`sim.game.i18n.Words`). The command line prints English (`str(msg)`); the
page renders the same message in the reader's language. A template is formatted only when it
has values, so a message with none may hold literal braces.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any


class Msg:
    """One message: `text` is the English template (the catalogs' msgid); with `plural` the
    message has plural forms chosen by the whole number in `values[count]`. Immutable by
    convention (a plain class with slots: the engine makes one for every refused candidate
    of a legal list, so it must cost no more than the f-string it replaced)."""

    __slots__ = ("context", "count", "plural", "text", "values")

    def __init__(self, text: str, values: Mapping[str, Any] | None = None,
                 plural: str | None = None, count: str = "n", context: str | None = None):
        self.text = text
        self.values: Mapping[str, Any] = values if values is not None else {}
        self.plural = plural
        self.count = count
        #: gettext's msgctxt: the page's words carry their key, so that one English word
        #: ("Players") may be two Russian ones (Игроков, Игроки)
        self.context = context

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.text, self.plural, dict(self.values)) == (
            other.text, other.plural, dict(other.values))

    def __hash__(self) -> int:
        return hash((self.text, self.plural))

    def __repr__(self) -> str:
        return f"Msg({self.text!r}, {dict(self.values)!r})"

    def english(self) -> str:
        return self.render(_choose_english, format)

    def render(self, template_of: Any, number: Any) -> str:
        """The message in one language: `template_of(msg)` gives the template to fill (the
        translation, plural form chosen), `number(value, spec)` formats a number; values that
        are messages (or errors carrying one) are rendered the same way."""
        template = template_of(self)
        if not self.values:
            return template
        values = {k: _value(v, template_of, number) for k, v in self.values.items()}
        try:
            return _Formatter(number).vformat(template, (), values)
        except (KeyError, IndexError, ValueError):
            # a translation that names a value the message lacks (a catalog's slip, which
            # tests/test_i18n.py looks for): the English template, not a failed page
            return _Formatter(number).vformat(_choose_english(self), (), values)

    def __str__(self) -> str:
        return self.english()


def msg(text: str, /, **values: Any) -> Msg:
    """A message with its values (the catalogs' extraction keyword)."""
    return Msg(text, values)


def nmsg(singular: str, plural: str, n: int, /, **values: Any) -> Msg:
    """A message with plural forms, chosen by `n` (also a value under the name `n`)."""
    return Msg(singular, {"n": n, **values}, plural, "n")


def N_(text: str) -> str:
    """Marks a literal for the catalogs without making a message (a table of templates)."""
    return text


def as_msg(x: object) -> Msg:
    """A message from a message, an error carrying one, or any other object (its str)."""
    if isinstance(x, Msg):
        return x
    carried = getattr(x, "msg", None)
    if isinstance(carried, Msg):
        return carried
    return Msg(str(x))


def _choose_english(m: Msg) -> str:
    if m.plural is not None and m.values.get(m.count) != 1:
        return m.plural
    return m.text


def _value(v: Any, template_of: Any, number: Any) -> Any:
    if isinstance(v, Msg):
        return v.render(template_of, number)
    carried = getattr(v, "msg", None)
    if isinstance(carried, Msg) and isinstance(v, BaseException):
        return carried.render(template_of, number)
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, Msg) for x in v):
        return "; ".join(x.render(template_of, number) for x in v)
    return v


class _Formatter(string.Formatter):
    """str.format with numbers formatted by the language (`{share:.1f}` is 62.5 in English,
    62,5 in Russian); conversions (!r, !s) and other specs as str.format does them."""

    def __init__(self, number: Any):
        super().__init__()
        self.number = number

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(self.number(value, format_spec))
        return super().format_field(value, format_spec)
