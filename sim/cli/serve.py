"""`mafia-sim serve`: start the page for hosts on this machine."""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import webbrowser
from pathlib import Path

from sim.game.errors import InputError

DEFAULT_PORT = 8050
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def port_int(text: str) -> int:
    t = text.strip()
    if not t.isascii() or not t.isdigit() or not 1 <= int(t) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return int(t)


def add_command(sub: argparse._SubParsersAction) -> None:
    from sim.cli.commands import add_jobs_arg

    p = sub.add_parser("serve", help="start the page for hosts in a local web server "
                                     "(needs the extra mafia-sim[web])")
    p.add_argument("--port", type=port_int, default=DEFAULT_PORT,
                   help=f"the port to listen on (default {DEFAULT_PORT})")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1, this machine only). "
                        "WARNING: any other address, such as 0.0.0.0, exposes the page, and "
                        "the games it plays, to the network")
    p.add_argument("--open", action="store_true",
                   help="open the page in the browser (default: only print its address)")
    add_jobs_arg(p, help="worker processes of a live run after its first round (default 1; "
                         "-1: every core)")
    p.add_argument("--data", metavar="DIR",
                   help="the folder of the hosted games' database, games.sqlite3 (default: "
                        "the user's data folder, ~/.local/share/mafia-sim on Linux)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from sim.web.app import create_app
        from sim.web.store import default_folder
    except ImportError as e:
        raise InputError(f"the page needs the extra web: pip install 'mafia-sim[web]' "
                         f"(missing: {e.name})") from None
    import joblib

    jobs = joblib.cpu_count() if args.jobs == -1 else args.jobs
    try:  # a clear message for a port in use, before the server starts
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((args.host, args.port))
    except OSError as e:
        raise InputError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e} "
                         "(another --port?)") from None
    local = args.host in LOOPBACK
    data = Path(args.data) if args.data else default_folder()
    app = create_app(jobs=jobs, allowed_hosts=LOOPBACK if local else None, data=data)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{args.port}/"
    print(f"mafia-sim: the page for hosts is at {url} (Ctrl-C stops it); games are kept "
          f"in {data / 'games.sqlite3'}", flush=True)
    if not local:
        print(f"mafia-sim: WARNING: listening on {args.host}: the page is open to the network",
              file=sys.stderr, flush=True)
    if args.open:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
