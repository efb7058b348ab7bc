"""The `mafia-sim` command line. Every user error is one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Sequence

from sim.game.errors import MafiaSimError


class _Formatter(argparse.HelpFormatter):
    """Help that never breaks a word (a long composition example stays whole)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        text = " ".join(text.split())
        return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in
                         textwrap.wrap(" ".join(text.split()), width - len(indent),
                                       break_long_words=False, break_on_hyphens=False))


class _CommandList(_Formatter):
    """The program's help: one line per command."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=20, width=100)
        self._action_max_length = 16  # room for the longest command name


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit status 2, and never takes an
    abbreviation of a flag for the flag (`--game` is not `--games`)."""

    def __init__(self, *args: object, **kw: object) -> None:
        kw.setdefault("allow_abbrev", False)
        kw.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kw)  # type: ignore[arg-type]

    def error(self, message: str) -> None:  # type: ignore[override]
        message = " ".join(message.split())  # one line whatever the input held
        command = self.prog.partition(" ")[2]
        where = f"{command}: " if command else ""
        sys.stderr.write(f"mafia-sim: error: {where}{message}\n")
        raise SystemExit(2)


def cmd_resolve(args: argparse.Namespace) -> int:
    from sim.play.resolve import load_game_file, resolve

    result = resolve(load_game_file(args.game))
    if args.newspaper:
        papers = [t["newspaper"][args.newspaper] for t in result["turns"]]
        print("\n\n".join(papers))
    else:
        json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
        print()
    return 0


def version_text() -> str:
    """`mafia-sim 0.1.0, compiled (mypyc, 20 modules), Python 3.11.7`."""
    import platform

    from sim import __version__, _native

    return f"mafia-sim {__version__}, {_native.describe()}, Python {platform.python_version()}"


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="mafia-sim", formatter_class=_CommandList,
                description="Rules engine and balance simulator for PEFL forum Mafia. Run "
                            "`mafia-sim COMMAND --help` for the flags of a command.")
    p.add_argument("--version", action="version", version=version_text(),
                   help="the version, and which build runs: compiled (mypyc) or pure Python")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title="commands",
                           parser_class=_Parser)
    r = sub.add_parser("resolve", help="play a scripted game (GAME.json) and print the result")
    r.add_argument("game", help="the game file (docs/resolve.md)")
    r.add_argument("--newspaper", choices=("ru", "en"),
                   help="print the newspapers in this language instead of the JSON result "
                        "(default: the JSON result)")
    r.set_defaults(func=cmd_resolve)
    from sim.cli import analysis_commands, commands, params_command, search_commands, serve

    commands.add_commands(sub)
    analysis_commands.add_commands(sub)
    search_commands.add_commands(sub)
    params_command.add_command(sub)
    serve.add_command(sub)
    # every command's own --help opens with its one-line description
    for action in sub._choices_actions:
        sp = sub.choices[action.dest]
        if sp.description is None:
            sp.description = (action.help or "").replace("%%", "%")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    # Agent classes named as mypkg.mod:Cls import from the current directory, as `python -m`.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        sys.stderr.write("\nmafia-sim: error: name a command\n")
        return 2
    try:
        return int(args.func(args))
    except MafiaSimError as e:
        sys.stderr.write(f"mafia-sim: {one_line(str(e))}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("mafia-sim: interrupted\n")
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def one_line(text: str) -> str:
    """A message as one line: control characters (a newline in a player name) escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
