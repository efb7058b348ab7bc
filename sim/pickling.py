"""Pickling the dataclasses of the compiled modules the same way in both builds.

A compiled (mypyc) class is rebuilt by pickle through its `__new__`, which runs `__init__`
with no arguments, and a frozen one refuses the attributes set afterwards. Registered here,
a dataclass pickles as its class and its field values, in field order, and is rebuilt by
calling the class with them: the same in the pure build, where it costs nothing new.
(Agents pickle by `agents.base.Agent.__reduce__`.)
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
