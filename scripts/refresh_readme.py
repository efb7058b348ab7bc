"""Re-run every `$ mafia-sim ...` example of README.md and put its real output under it.

Run: .venv/bin/python scripts/refresh_readme.py
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = "`" * 3


def main() -> None:
    readme = ROOT / "README.md"
    lines = readme.read_text().split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if not line.startswith("$ mafia-sim "):
            continue
        args = shlex.split(line[2:])
        cmd = [str(ROOT / ".venv" / "bin" / args[0]), *args[1:]]
        if args[1] in ("run", "recommend"):
            cmd.append("--quiet")
        if args[1] == "sweep":  # its default output is runs/<the file's name, else stem>
            import tomllib

            spec = tomllib.loads((ROOT / args[2]).read_text())
            for name in (Path(args[2]).stem, str(spec.get("name", ""))):
                if name:
                    shutil.rmtree(ROOT / "runs" / name, ignore_errors=True)
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
        text = res.stdout.rstrip("\n")
        if args[1] == "sweep":
            text = res.stderr.rstrip("\n") + "\n" + text if res.stderr else text
        while i < len(lines) and lines[i] != FENCE:
            i += 1  # drop the old output
        out.extend(text.split("\n"))
        print("refreshed:", line)
    readme.write_text("\n".join(out))


if __name__ == "__main__":
    main()
