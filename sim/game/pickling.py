"""Pickling the dataclasses of the compiled modules the same way in both builds.

A compiled (mypyc) class is rebuilt by pickle through its `__new__`, which runs `__init__`
with no arguments, and a frozen one refuses the attributes set afterwards. Registered here,
a dataclass pickles as its class and its field values, in field order, and is rebuilt by
calling the class with them: the same in the pure build, where it costs nothing new.
(Agents pickle by `agents.base.Agent.__reduce__`.)

The dataclasses a game makes by the dozen (statements, deaths, requests, a turn's report)
write their `__init__` out. Compiled, the one `dataclass` generates would run interpreted,
about 0.6 us a call, ten times a written-out one; together they were 6% of a game. A
written-out `__init__` takes the fields in order with the same defaults (None where the
default is a new empty container); a frozen class sets its fields by `object.__setattr__`,
as the generated one does. tests/test_builds.py checks each against its fields.
"""

from __future__ import annotations

import copyreg
import dataclasses
from typing import Any


def _by_fields(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))


def picklable(*classes: type) -> None:
    """Pickle these dataclasses as their field values (copyreg, exact types only)."""
    for cls in classes:
        copyreg.pickle(cls, _by_fields)
