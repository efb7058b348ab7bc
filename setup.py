"""Build of mafia-sim: the pure-Python packages always; where mypyc and a C compiler work,
also the compiled build of the hot modules (`NATIVE_SOURCES`), from the same source.

The compiled modules go into a folder of their own, `mafia_sim_native/` (beside `sim/` and
`agents/`: in site-packages, or in the source tree for an editable install), never next to
a `.py` file, with `manifest.json` recording the SHA-256 of each source compiled.
`sim._native` loads them only while every source still matches (an edited source makes the
whole build pure until the next install) and `MAFIA_SIM_PURE=1` is not set.

- No C compiler (or a failing compile): a warning, and the pure build is installed.
- `MAFIA_SIM_PURE=1 pip install ...`: no compiling at all.
- Editable installs rebuild only when a source, setup.py, mypy or the Python changed (the
  manifest says what the build was made from), so `bash scripts/test.sh` stays quick.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
NATIVE = "mafia_sim_native"
#: the modules compiled: the game loop and the default agents, and the closed sets of
#: sim.game.roles (read from compiled code, a member of an interpreted enum costs 100 ns, through
#: its metaclass's __getattr__; of a compiled one, a load). The rest stays pure: the command
#: line, analysis, the frozen set-up dataclasses of sim.game.rules and sim.game.params.
NATIVE_SOURCES = [
    "sim/game/requests.py",
    "sim/game/roles.py",
    "sim/game/talk.py",
    "sim/engine/game.py",
    "sim/engine/report.py",
    "sim/engine/state.py",
    "sim/engine/view.py",
    "sim/engine/info.py",
    "sim/engine/legal.py",
    "sim/engine/outcome.py",
    "sim/play/driver.py",
    "sim/play/streams.py",
    "sim/play/runner.py",
    "agents/base.py",
    "agents/common.py",
    "agents/town.py",
    "agents/clans.py",
    "agents/maniac.py",
    "agents/uniform.py",
    "agents/random_agents.py",
]
PURE_ENV = "MAFIA_SIM_PURE"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _recipe() -> dict[str, object]:
    """What a compiled build is made from: if all of it matches, it need not be rebuilt."""
    try:
        from mypy.version import __version__ as mypy_version
    except ImportError:
        mypy_version = "none"
    return {
        "mypy": mypy_version,
        "setup": _sha(HERE / "setup.py"),
        "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX"),
        "sources": {src: _sha(HERE / src) for src in NATIVE_SOURCES},
    }


class BinaryDistribution(Distribution):
    """Always has extensions: build_ext decides at build time what to compile."""

    def has_ext_modules(self) -> bool:
        return True


class build_native(build_ext):
    """Compile NATIVE_SOURCES with mypyc into NATIVE/, or leave the build pure."""

    def run(self) -> None:
        if os.environ.get(PURE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
            print(f"mafia-sim: {PURE_ENV} set: installing the pure-Python build only")
            return
        inplace = bool(self.inplace or getattr(self, "editable_mode", False))
        recipe = _recipe()
        out = HERE / NATIVE if inplace else Path(self.build_lib) / NATIVE
        if inplace and self._up_to_date(out, recipe):
            print(f"mafia-sim: the compiled build in {NATIVE}/ is up to date")
            return
        try:
            from mypyc.build import mypycify

            # numpy is a build requirement (pyproject.toml), so mypyc sees its types as
            # mypy does; should a build not see some stubs, a `type: ignore` needed with
            # them goes unused: not an error here (`mypy` itself still checks it).
            exts = mypycify(["--no-warn-unused-ignores", *NATIVE_SOURCES],
                            opt_level="3", debug_level="0",
                            multi_file=True, group_name=NATIVE,
                            target_dir=str(Path(self.build_temp) / "mypyc"))
        except (Exception, SystemExit) as e:  # mypyc missing, or a type error (it exits)
            self._warn(f"mypyc failed ({type(e).__name__}: {e})")
            return
        modules: dict[str, dict[str, str]] = {}
        lib = ""
        for ext in exts:
            if ext.name.endswith("__mypyc"):
                lib = ext.name  # the shared library every module shim imports by this name
            else:
                src = ext.name.replace(".", "/") + ".py"
                modules[ext.name] = {"source": src, "sha256": recipe["sources"][src],  # type: ignore[index]
                                     "file": ext.name.replace(".", "/") + self._suffix()}
            ext.name = f"{NATIVE}.{ext.name}"  # built into NATIVE/, not beside the source
            # what setuptools' finalize_options does for each extension it is given
            ext._full_name = self.get_ext_fullname(ext.name)  # type: ignore[attr-defined]
            self.ext_map[ext._full_name] = ext  # type: ignore[attr-defined]
            ext._links_to_dynamic = ext._needs_stub = False  # type: ignore[attr-defined]
            ext._file_name = self.get_ext_filename(ext._full_name)  # type: ignore[attr-defined]
        self.extensions = exts
        self.parallel = os.cpu_count() or 1
        if inplace and out.exists():
            shutil.rmtree(out)  # a build that fails must not leave an old one half-replaced
        # Built into build_lib; an editable install then gets a copy of the whole folder.
        self.inplace = False
        try:
            super().run()
        except Exception as e:  # no C compiler, or it failed: stay pure
            self._warn(f"compiling failed ({type(e).__name__}: {e})")
            return
        built = Path(self.build_lib) / NATIVE
        manifest = {**recipe, "lib": lib, "lib_file": lib + self._suffix(),
                    "modules": modules}
        (built / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n",
                                             encoding="utf-8")
        if inplace:
            shutil.copytree(built, out)
            print(f"mafia-sim: compiled build written to {out}")

    def get_outputs(self) -> list[str]:
        outs = super().get_outputs()
        man = Path(self.build_lib) / NATIVE / "manifest.json"
        return [*outs, str(man)] if man.exists() else outs

    @staticmethod
    def _suffix() -> str:
        return str(sysconfig.get_config_var("EXT_SUFFIX"))

    @staticmethod
    def _up_to_date(out: Path, recipe: dict[str, object]) -> bool:
        try:
            man = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if any(man.get(k) != v for k, v in recipe.items()):
            return False
        files = [m["file"] for m in man["modules"].values()] + [man["lib_file"]]
        return all((out / f).is_file() for f in files)

    @staticmethod
    def _warn(why: str) -> None:
        sys.stderr.write(f"mafia-sim: WARNING: {why}; installing the pure-Python build\n")


setup(distclass=BinaryDistribution, cmdclass={"build_ext": build_native})
