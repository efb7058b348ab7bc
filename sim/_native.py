"""Which build runs: the compiled one (mypyc) or the pure-Python one, from the same source.

`pip install` compiles the hot modules (`NATIVE_SOURCES` in setup.py) with mypyc where it
can, into a folder of its own beside the packages, `mafia_sim_native/`, with a manifest of
the SHA-256 of every source it compiled. Nothing compiled sits next to a `.py` file, so it
never shadows a source. `install()` (run by `import sim`, before any compiled module is
imported) puts a finder in front of the import system that loads the compiled modules only
when every recorded source is unchanged and the Python is the one they were built for;
otherwise everything runs pure. So after editing a source of an editable install the pure
code runs until `pip install -e .` (or `bash scripts/test.sh`) rebuilds.

`MAFIA_SIM_PURE=1` in the environment runs the pure build even when a compiled one is
installed (tests, benchmarks; at install time it skips compiling). `BUILD` says which
build runs (`compiled` or `pure`) and `REASON` why, as `mafia-sim --version` prints.

This module is never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: where the packages `sim` and `agents` live (the source tree of an editable install)
ROOT = Path(__file__).resolve().parent.parent
#: the compiled build's folder and its manifest (written by setup.py)
NATIVE = ROOT / "mafia_sim_native"
MANIFEST = NATIVE / "manifest.json"
#: the environment switch to the pure build
PURE_ENV = "MAFIA_SIM_PURE"

BUILD = "pure"
REASON = "not installed yet"
#: module name -> compiled file, for the modules the compiled build loads
_FILES: dict[str, Path] = {}


def pure_requested() -> bool:
    return os.environ.get(PURE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class _Finder(importlib.abc.MetaPathFinder):
    """Loads the compiled modules of the manifest from their own folder."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        f = self.files.get(fullname)
        if f is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(f))
        return importlib.util.spec_from_file_location(fullname, f, loader=loader)


def check() -> tuple[dict[str, Path], str]:
    """The compiled modules to load (empty: run pure) and why."""
    if pure_requested():
        return {}, f"{PURE_ENV}=1"
    if not MANIFEST.is_file():
        return {}, "no compiled build installed (no C compiler or mypyc when installing, " \
                   f"or {PURE_ENV}=1 then)"
    try:
        man = json.loads(MANIFEST.read_text(encoding="utf-8"))
        suffix = man["ext_suffix"]
        modules: dict[str, dict[str, str]] = man["modules"]
        lib: str = man["lib"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}, f"the compiled build's manifest {MANIFEST} is unreadable"
    if suffix != sysconfig.get_config_var("EXT_SUFFIX"):
        return {}, f"the compiled build is for another Python ({suffix})"
    files: dict[str, Path] = {}
    stale: list[str] = []
    for name, entry in modules.items():
        src = ROOT / entry["source"]
        f = NATIVE / entry["file"]
        if not f.is_file():
            return {}, f"the compiled build is incomplete ({f.name} is missing)"
        try:
            if source_hash(src) != entry["sha256"]:
                stale.append(entry["source"])
        except OSError:
            stale.append(entry["source"])
        files[name] = f
    if stale:
        return {}, (f"the compiled build is stale: {', '.join(stale)} changed since it was "
                    "built (pip install -e . rebuilds it)")
    lib_file = NATIVE / man["lib_file"]
    if not lib_file.is_file():
        return {}, f"the compiled build is incomplete ({lib_file.name} is missing)"
    files[lib] = lib_file
    return files, f"mypyc, {len(modules)} modules"


def install() -> None:
    """Decide the build once per process, before any compiled module is imported."""
    global BUILD, REASON
    if _FILES or any(isinstance(f, _Finder) for f in sys.meta_path):
        return
    files, REASON = check()
    if not files:
        BUILD = "pure"
        return
    loaded = [name for name in files if name in sys.modules]
    if loaded:  # pragma: no cover - only if something imported them by hand first
        BUILD, REASON = "pure", f"{', '.join(loaded)} imported before the compiled build"
        return
    _FILES.update(files)
    sys.meta_path.insert(0, _Finder(files))
    BUILD = "compiled"


def describe() -> str:
    """`compiled (mypyc, 20 modules)` or `pure Python (why)`."""
    if BUILD == "compiled":
        return f"compiled ({REASON})"
    return f"pure Python ({REASON})"


def is_compiled(module: ModuleType) -> bool:
    """Whether a module was loaded from the compiled build."""
    return str(getattr(module, "__file__", "")).endswith(
        str(sysconfig.get_config_var("EXT_SUFFIX")))
