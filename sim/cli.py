"""The `mafia-sim` command line. Every user error is one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from sim.errors import MafiaSimError


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"mafia-sim: error: {message}\n")
        raise SystemExit(2)


def cmd_resolve(args: argparse.Namespace) -> int:
    from sim.resolve import load_game_file, resolve

    result = resolve(load_game_file(args.game))
    if args.newspaper:
        papers = [t["newspaper"][args.newspaper] for t in result["turns"]]
        print("\n\n".join(papers))
    else:
        json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
        print()
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="mafia-sim", description="Rules engine and balance simulator for "
                                               "PEFL forum Mafia.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    r = sub.add_parser("resolve", help="play a scripted game (GAME.json) and print the result")
    r.add_argument("game", help="the game file (docs/resolve.md)")
    r.add_argument("--newspaper", choices=("ru", "en"), help="print the newspapers instead")
    r.set_defaults(func=cmd_resolve)
    from sim import commands

    commands.add_commands(sub)
    from sim import params_command, search_commands

    search_commands.add_commands(sub)
    params_command.add_command(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except MafiaSimError as e:
        sys.stderr.write(f"mafia-sim: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("mafia-sim: interrupted\n")
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
