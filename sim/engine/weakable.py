"""An anchor for weak references to a compiled object.

A class compiled by mypyc has no `__weakref__` slot. `sim.engine.view.PublicRecord` is compiled
(its attributes are read on every decision) yet agents.town keeps its tables in a registry
keyed weakly on it, so the record holds an `Anchor`: a plain Python object that nothing
else holds, so it lives exactly as long as the record, and weak references go to it. This
module is never compiled (setup.py `NATIVE_SOURCES`): that is the point.
"""

from __future__ import annotations


class Anchor:
    """A weakly referable stand-in for the object that holds it (and nothing else)."""

    __slots__ = ("__weakref__",)
