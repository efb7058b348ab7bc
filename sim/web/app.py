"""The page for hosts: a Starlette app with server-side templates and htmx for partial
updates. Every answer comes from the functions the command line uses; this module reads
forms, keeps each browser's page state, and renders.

Safety: every form value is read with a bound and a message (never a trace, never a 500
for bad input); request bodies are limited to MAX_BODY; a POST from another site (its
Origin differs) is refused, and so is a request whose Host is not this machine when the
server listens on the loopback address (DNS rebinding); no form field names code to import.
"""

from __future__ import annotations

import contextlib
import csv
import html
import importlib.resources
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import numpy as np
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sim.analysis.compare import paired_compare, same_by_construction
from sim.analysis.odds import odds
from sim.engine.newspaper import GENDERS, ROLE_EN, ROLE_RU, causes_text
from sim.game.errors import InputError, MafiaSimError
from sim.game.messages import Msg, as_msg
from sim.game.roles import WINNER_KEYS, Cause, Role
from sim.game.rules import Composition, RuleSet
from sim.play.resolve import resolve
from sim.play.runner import RunResult, Tally, run
from sim.play.setup import Setup, build_setup, shipped_mixture
from sim.play.stats import share_interval
from sim.web import host
from sim.web.forms import (
    COUNTS,
    MAX_GAMES,
    MAX_PLAYERS,
    RULES,
    TableForm,
    rule_kind,
    whole,
)
from sim.web.i18n import LANGS, composition_words, page_msg, translator, words_of
from sim.web.live import Live, Registry
from sim.web.store import FORMAT, GameStore, StoredGame, StoreError

HERE = Path(__file__).resolve().parent
#: the largest request body (a game file is at most host.MAX_FILE_BYTES)
MAX_BODY = 1024 * 1024
#: page sessions kept (the oldest is forgotten)
MAX_SESSIONS = 64
#: days the browser keeps its page id (the `sid` cookie), to come back to its game
SID_DAYS = 365
ODDS_GAMES = 2000
MAX_ODDS_GAMES = 5000
#: the committed recommendations, shipped inside the package (sim/data; results/ links to it)
RECOMMENDED = importlib.resources.files("sim.data") / "recommended.csv"
#: each camp's best gain and NashConv on the standard tables (scripts/nash_conv.py)
NASH_CONV = importlib.resources.files("sim.data") / "nash_conv.csv"
SHOWN_CAMPS = ["town", "yakuza", "triad", "maniac", "draw"]


@dataclass
class PageState:
    """What one browser's pages hold between requests."""

    table: TableForm = field(default_factory=TableForm.standard)
    arm_a: TableForm = field(default_factory=TableForm.standard)
    arm_b: TableForm = field(default_factory=TableForm.standard)
    rows: list[host.PlayerRow] = field(default_factory=lambda: host.standard_rows(12))
    host_rules: dict[str, object] = field(default_factory=dict)
    game: dict[str, Any] | None = None
    draft: dict[str, str] = field(default_factory=dict)
    #: the messages shown (sim.game.messages.Msg, worded in the reader's language), "" none
    players_error: Msg | str = ""
    row_errors: dict[int, Msg] = field(default_factory=dict)
    odds_error: Msg | str = ""
    message: Msg | str = ""
    #: the stored game this page hosts (sim.web.store) and the revision it shows
    game_id: str | None = None
    revision: int = 0

    def say(self, message: str | Msg | Exception = "", **values: object) -> None:
        """The host tab's message: a key of the page's words (sim.web.i18n) with its values,
        or a message (an engine refusal, an error carrying one); "" clears it."""
        self.message = page_msg(message, **values) if isinstance(message, str) and message \
            else (as_msg(message) if message else "")


class Sessions:
    def __init__(self) -> None:
        self.states: OrderedDict[str, PageState] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, sid: str, fresh: Callable[[PageState], None] | None = None) -> PageState:
        """The page state of browser `sid`; a new one is first given to `fresh` (which
        brings back the game this browser hosted before a restart)."""
        with self.lock:
            state = self.states.get(sid)
            if state is None:
                state = self.states[sid] = PageState()
                if fresh is not None:
                    fresh(state)
                while len(self.states) > MAX_SESSIONS:
                    self.states.popitem(last=False)
            self.states.move_to_end(sid)
            return state


def create_app(jobs: int = 1, allowed_hosts: set[str] | None = None,
               data: Path | None = None) -> Starlette:
    """The app. `jobs`: worker processes of a live run after its first round.
    `allowed_hosts`: the Host names accepted (None: any, for a server on another address).
    `data`: the folder of the hosted games' database (sim.web.store); None keeps them in
    memory only (`mafia-sim serve` always gives one)."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True,
                      lstrip_blocks=True)
    sessions = Sessions()
    live = Registry()
    store = GameStore(data) if data is not None else None

    def page(request: Request, template: str, status: int = 200,
             **context: Any) -> HTMLResponse:
        lang = request.cookies.get("lang", "ru")
        lang = lang if lang in LANGS else "ru"
        t = translator(lang)
        words = words_of(lang)

        def num(v: float, spec: str = "") -> str:  # 10,000 and 62.5 in English, 10 000, 62,5
            return words.number(v, spec)

        def pct(share: float, digits: int = 1) -> str:  # 62.5% in English, 62,5 % in Russian
            return words.percent(share, digits)

        def ivl(low: float, high: float, points: bool = False) -> str:
            """An interval: shares as percents, or differences in points (signed); Russian
            separates the bounds with a semicolon, its decimal mark being the comma."""
            lo, hi = ((num(low * 100, "+.1f"), num(high * 100, "+.1f")) if points
                      else (pct(low), pct(high)))
            return f"[{lo}; {hi}]" if lang == "ru" else f"[{lo}, {hi}]"

        def m(x: object) -> str:  # a message or an error in the page's language
            return words(x) if x else ""

        def when(ts: float) -> str:  # a stored game's last turn, as each language dates
            return time.strftime("%d.%m.%Y %H:%M" if lang == "ru" else "%Y-%m-%d %H:%M",
                                 time.localtime(ts))

        def comp_words(roles: str) -> str:  # a table as a host writes it
            try:
                return composition_words(build_setup(None, roles=roles).comp, lang)
            except InputError:
                return roles

        def rule_diff_words(diff: list[tuple[str, object, object]]) -> str:
            def value(v: object) -> str:
                if isinstance(v, bool):
                    return words(Msg("true")) if v else words(Msg("false"))
                return num(v) if isinstance(v, (int, float)) else str(v)
            return "; ".join(t("arm_rule", rule=t("rule_" + k), a=value(a), b=value(b))
                             for k, a, b in diff)

        def cause_words(keys: list[str]) -> str:  # a death's causes as the newspaper words them
            return causes_text([Cause[k.upper()] for k in keys], lang)
        html = env.get_template(template).render(
            t=t, lang=lang, path=request.url.path, camps=SHOWN_CAMPS, counts=COUNTS,
            rules=RULES, rule_kind=rule_kind, max_players=MAX_PLAYERS, max_games=MAX_GAMES,
            max_turns=host.MAX_TURNS, max_name=host.MAX_NAME, max_kb=host.MAX_FILE_BYTES // 1024,
            default_rules=RuleSet().as_dict(), role_names=role_names(lang), num=num,
            pct=pct, ivl=ivl, m=m,
            cause_words=cause_words, when=when, comp_words=comp_words,
            rule_diff_words=rule_diff_words,
            **context)
        response = HTMLResponse(html, status_code=status)
        if "sid" not in request.cookies or request.state.sid != request.cookies.get("sid"):
            # kept a year: the same browser comes back to its game after a restart
            response.set_cookie("sid", request.state.sid, httponly=True, samesite="strict",
                                max_age=SID_DAYS * 86400)
        return response

    def state_of(request: Request) -> PageState:
        sid = request.state.sid

        def fresh(state: PageState) -> None:
            if store is None:
                return
            got = store.latest_of(sid)
            if got is not None:
                restore(state, got)

        return sessions.get(sid, fresh)

    def restore(state: PageState, got: StoredGame) -> None:
        state.game, state.draft = got.game, dict(got.draft)
        state.game_id, state.revision = got.id, got.revision
        state.rows = host.rows_from_game(got.game)

    def stored(request: Request, state: PageState, name: str = "") -> None:
        """Store the page's new game (a new row of the database)."""
        if store is None or state.game is None:
            state.game_id, state.revision = None, 0
            return
        got = store.create(request.state.sid, state.game, name)
        state.game_id, state.revision = got.id, got.revision

    def save_turn(request: Request, state: PageState, before: dict[str, Any]) -> None:
        """Store the game after a turn was resolved or undone (one transaction); a page
        that had not seen the stored game's last change gets it back instead."""
        if store is None or state.game_id is None or state.game is None:
            state.revision += 1
            return
        try:
            state.revision = store.save(state.game_id, state.revision, state.game, {},
                                        request.state.sid)
        except StoreError as e:
            state.game = before
            with contextlib.suppress(StoreError):
                restore(state, store.load(state.game_id))
            state.say(e)

    async def form_of(request: Request) -> dict[str, Any]:
        try:
            form = await request.form(max_files=1, max_fields=2000)
        except Exception as e:  # a malformed body is the sender's mistake
            raise InputError("the form could not be read: {name}", name=type(e).__name__) from None
        return {k: v for k, v in form.multi_items()}

    # -- pick a table -------------------------------------------------------------------------
    def start_table(request: Request, form: TableForm) -> None:
        setup, games, seed = form.read()
        if setup is None:
            live.cancel(request.state.sid)
            return

        def play(start: int, n: int, jobs_now: int) -> np.ndarray:
            r = run(setup, games=n, seed=seed, jobs=jobs_now, start=start, keep_rows=True)
            assert r.rows is not None
            return r.rows

        live.start(request.state.sid, Live("table", play, games, jobs,
                                           {"setup": setup, "seed": seed}))

    def table_results(request: Request) -> dict[str, Any]:
        run_ = live.get(request.state.sid)
        if run_ is None or run_.kind != "table":
            return {"run": None}
        parts, done = run_.poll()
        tally = Tally()
        for rows in parts:
            tally.add(rows)
        summary = RunResult(run_.context["setup"], run_.context["seed"], tally,
                            time.monotonic() - run_.started, "web").summary() if done else None
        return {"run": run_, "summary": summary, "done": done,
                "n": run_.context["setup"].comp.n,
                "nc": nash_conv_of(run_.context["setup"]) if done else None}

    async def table_page(request: Request) -> Response:
        state = state_of(request)
        start_table(request, state.table)
        return page(request, "table.html", form=state.table, rec=recommendation(state.table),
                    **table_results(request))

    async def table_post(request: Request) -> Response:
        state = state_of(request)
        data = await form_of(request)
        form = TableForm.from_form(data)
        if data.get("action") == "standard":
            try:
                n = whole(data.get("players", ""), 12, MAX_PLAYERS)
                form.set_composition(Composition.standard(n))
            except InputError as e:
                form.errors = {"players": e.msg}
                return page(request, "_table.html", form=form, rec=None, run=None,
                            players_value=str(data.get("players", ""))[:20])
        elif data.get("action") == "use" and isinstance(data.get("roles"), str):
            try:
                form.set_composition(build_setup(None, roles=data["roles"][:400]).comp)
            except InputError as e:
                form.errors = {"total": e.msg}
        state.table = form
        start_table(request, form)
        return page(request, "_table.html", form=form, rec=recommendation(form),
                    **table_results(request))

    async def table_live(request: Request) -> Response:
        return page(request, "_results.html", **table_results(request))

    async def live_cancel(request: Request) -> Response:
        live.cancel(request.state.sid, request.query_params.get("run"))
        return Response(status_code=204)

    # -- compare ------------------------------------------------------------------------------
    def compare_results(request: Request) -> dict[str, Any]:
        run_ = live.get(request.state.sid)
        if run_ is None or run_.kind != "compare":
            return {"run": None}
        parts, done = run_.poll()
        if not done:
            return {"run": run_, "camps_diff": None, "done": 0}
        a = np.concatenate([p[0] for p in parts])
        b = np.concatenate([p[1] for p in parts])
        diff = paired_compare(a, b, identical=run_.context["identical"])
        arms: dict[str, list[dict[str, Any]]] = {}
        for arm in ("a", "b"):
            arms[arm] = []
            for c in SHOWN_CAMPS:
                share = diff[c][arm]
                lo, hi = share_interval(round(share * done), done)
                arms[arm].append({"camp": c, "share": share, "low": lo, "high": hi})
        return {"run": run_, "camps_diff": diff, "done": done, "arms": arms,
                "rule_diff": run_.context.get("rule_diff", [])}

    async def compare_page(request: Request) -> Response:
        state = state_of(request)
        return page(request, "compare.html", a=state.arm_a, b=state.arm_b,
                    **compare_results(request))

    async def compare_post(request: Request) -> Response:
        state = state_of(request)
        data = await form_of(request)
        a, b = TableForm.from_form(data, "a_"), TableForm.from_form(data, "b_")
        if data.get("action") == "copy":
            b = TableForm.from_form(data, "a_")
        state.arm_a, state.arm_b = a, b
        sa, games, seed = a.read()
        sb, _, _ = b.read()
        b.errors.pop("games", None)
        b.errors.pop("seed", None)
        if sa is not None and sb is not None and data.get("action") == "compare":
            setup_a: Setup = sa
            setup_b: Setup = sb

            def play(start: int, n: int, jobs_now: int) -> tuple[np.ndarray, np.ndarray]:
                ra = run(setup_a, games=n, seed=seed, jobs=jobs_now, start=start,
                         keep_rows=True)
                rb = run(setup_b, games=n, seed=seed, jobs=jobs_now, start=start,
                         keep_rows=True)
                assert ra.rows is not None and rb.rows is not None
                return ra.rows[:, 1], rb.rows[:, 1]

            live.start(request.state.sid, Live(
                "compare", play, games, jobs,
                {"identical": same_by_construction(setup_a, setup_b),
                 "rule_diff": rule_diff(setup_a.rules, setup_b.rules)}))
        return page(request, "_compare.html", a=a, b=b, **compare_results(request))

    async def compare_live(request: Request) -> Response:
        return page(request, "_compare_results.html", **compare_results(request))

    # -- host a game --------------------------------------------------------------------------
    def host_context(state: PageState) -> dict[str, Any]:
        ctx: dict[str, Any] = {"state": state, "genders": GENDERS,
                               "roles_list": host.ROLE_KEYS, "clans": host.CLAN_KEYS,
                               "stored_games": store.games() if store is not None else None,
                               "say_kinds": host.SAY_KINDS, "say_channels": host.SAY_CHANNELS,
                               "claim_values": host.CLAIM_VALUES,
                               "check_values": host.CHECK_VALUES, "store_format": FORMAT}
        if state.game is None:
            return ctx
        result = resolve(state.game)
        ctx["result"] = result
        ctx["names"] = [p["name"] for p in state.game["players"]]
        ctx["editor"] = host.editor(state.game, state.draft)
        return ctx

    async def host_page(request: Request) -> Response:
        return page(request, "host.html", **host_context(state_of(request)))

    async def host_players(request: Request) -> Response:
        state = state_of(request)
        data = await form_of(request)
        rows = host.rows_from_form(data)
        action = str(data.get("action", ""))[:20]
        state.players_error, state.row_errors = "", {}
        state.say()  # an earlier message (a file that did not load) does not stay beside new ones
        try:
            state.host_rules = host.rules_from_form(data)
        except InputError as e:
            state.players_error = e.msg
        if action == "add" and len(rows) < MAX_PLAYERS:
            rows.append(host.PlayerRow())
        elif action.startswith("remove_"):
            try:
                del rows[int(action[7:])]
            except (ValueError, IndexError):
                pass
        elif action == "standard":
            try:
                n = whole(data.get("players", ""), 12, MAX_PLAYERS)
                old = [r.name for r in rows]
                rows = host.standard_rows(n)
                for r, name in zip(rows, old, strict=False):
                    r.name = name
            except InputError as e:
                state.players_error = e.msg
        state.rows = rows
        if action == "start" and not state.players_error:
            for i, r in enumerate(rows):
                if len(r.name) > host.MAX_NAME:
                    state.row_errors[i] = page_msg("name_too_long", n=host.MAX_NAME)
        if action == "start" and not state.players_error and not state.row_errors:
            try:
                state.game = host.new_game(rows, state.host_rules)
                state.draft = {}
                stored(request, state)
            except MafiaSimError as e:
                row = host.row_of_error(str(e))
                if row is not None:
                    state.row_errors[row] = e.msg
                else:
                    state.players_error = e.msg
        return page(request, "_host.html", **host_context(state))

    async def host_turn(request: Request) -> Response:
        state = state_of(request)
        data = await form_of(request)
        action = str(data.get("action", ""))[:20]
        state.say()
        if action == "new":  # the game stays stored: the list of games brings it back
            live.cancel(request.state.sid)
            state.game, state.draft, state.game_id = None, {}, None
            return page(request, "_host.html", **host_context(state))
        if state.game is None:
            return page(request, "_host.html", **host_context(state))
        draft = {k: v[:40] for k, v in data.items() if isinstance(v, str)}
        if action == "pop_vote":
            try:
                k = int(draft.get("votes", "0")) - 1
            except ValueError:
                k = -1
            draft.pop(f"voter_{k}", None)
            draft.pop(f"target_{k}", None)
        shown = draft.pop("revision", None)
        if action in ("undo", "resolve") and shown is not None and shown != str(state.revision):
            # the form came from a page that had not seen the game's last change
            state.say("page_stale")
            return page(request, "_host.html", **host_context(state))
        before = state.game
        if action == "undo":
            turns = state.game.get("turns", [])
            if turns:
                state.game = {**state.game, "turns": turns[:-1]}
                state.draft = {}
                save_turn(request, state, before)
            return page(request, "_host.html", **host_context(state))
        state.draft = draft
        if action == "resolve":
            ed = host.editor(state.game, draft)
            if ed is not None and not (ed.error or ed.day_error
                                       or any(r.error for r in ed.votes)
                                       or any(r.error for r in ed.night)):
                try:
                    state.game = host.commit(state.game, ed.turn_dict)
                    state.draft = {}
                    save_turn(request, state, before)
                except MafiaSimError as e:
                    state.say(e)
        elif store is not None and state.game_id is not None:
            store.save_draft(state.game_id, state.draft)
        return page(request, "_host.html", **host_context(state))

    async def host_save(request: Request) -> Response:
        state = state_of(request)
        if state.game is None:
            return page(request, "error.html", status=400, message=page_msg("no_game_to_save"))
        body = json.dumps(state.game, ensure_ascii=False, indent=1) + "\n"
        return Response(body, media_type="application/json", headers={
            "Content-Disposition": 'attachment; filename="game.json"'})

    async def host_load(request: Request) -> Response:
        state = state_of(request)
        data = await form_of(request)
        upload = data.get("file")
        if not isinstance(upload, UploadFile):
            state.say("choose_file")
        else:
            raw = await upload.read(host.MAX_FILE_BYTES + 1)
            try:
                name = str(upload.filename or "the file")[:80]
                state.game = host.load_game_text(raw, name)
                state.draft = {}
                state.say()
                state.rows = host.rows_from_game(state.game)
                stored(request, state, name.removesuffix(".json"))
            except MafiaSimError as e:
                state.say(e)
        if request.headers.get("hx-request"):
            return page(request, "_host.html", **host_context(state))
        return RedirectResponse("/host", status_code=303)

    # -- the stored games ---------------------------------------------------------------------
    def game_id_of(request: Request) -> str:
        gid = str(request.path_params.get("gid", ""))
        if store is None or not (len(gid) == 16 and gid.isalnum()):
            raise StoreError("game_missing")
        return gid

    async def games_action(request: Request) -> Response:
        state = state_of(request)
        gid = game_id_of(request)
        data = await form_of(request)
        action = request.path_params["action"]
        assert store is not None
        state.say()
        try:
            if action == "resume":
                got = store.load(gid)
                store.take(gid, request.state.sid)
                live.cancel(request.state.sid)
                restore(state, got)
            elif action == "rename":
                store.rename(gid, str(data.get("name", ""))[:200])
            elif action == "delete":
                store.delete(gid)
                if state.game_id == gid:
                    state.game, state.draft, state.game_id = None, {}, None
            else:
                raise StoreError("game_missing")
        except StoreError as e:
            state.say(e)
        if request.headers.get("hx-request"):
            return page(request, "_host.html", **host_context(state))
        return RedirectResponse("/host", status_code=303)

    async def games_download(request: Request) -> Response:
        got = store.load(game_id_of(request)) if store is not None else None
        assert got is not None
        body = json.dumps(got.game, ensure_ascii=False, indent=1) + "\n"
        # the game's own name (Cyrillic is the rule) by RFC 6266's filename*, an ASCII one
        # for browsers that do not read it
        name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in got.name)[:40]
        return Response(body, media_type="application/json", headers={
            "Content-Disposition": "attachment; filename=\"game.json\"; "
                                   f"filename*=UTF-8''{quote(name or 'game')}.json"})

    def odds_results(request: Request) -> dict[str, Any]:
        run_ = live.get(request.state.sid)
        if run_ is None or run_.kind != "odds":
            return {"run": None}
        parts, done = run_.poll()
        wins = np.sum(parts, axis=0) if parts else np.zeros(len(WINNER_KEYS), np.int64)
        camps = {}
        for i, camp in enumerate(WINNER_KEYS):
            lo, hi = share_interval(int(wins[i]), done)
            camps[camp] = {"share": wins[i] / done if done else 0.0, "low": lo, "high": hi}
        return {"run": run_, "odds": camps if done else None, "done": done}

    async def host_odds(request: Request) -> Response:
        state = state_of(request)
        data = await form_of(request)
        state.odds_error = ""
        if state.game is None:
            state.odds_error = page_msg("enter_players_first")
            return page(request, "_odds.html", state=state, run=None)
        try:
            games = whole(data.get("odds_games", str(ODDS_GAMES)), 200, MAX_ODDS_GAMES)
        except InputError as e:
            state.odds_error = page_msg("odds_games", error=e)
            return page(request, "_odds.html", state=state, run=None)
        game = state.game
        if resolve(game)["outcome"]["winner"]:
            state.odds_error = page_msg("nothing_to_play")
            return page(request, "_odds.html", state=state, run=None)
        setup = build_setup(None)  # the default agents, as `mafia-sim odds` plays them

        def play(start: int, n: int, jobs_now: int) -> np.ndarray:
            res = odds(game, setup, games=n, seed=0, jobs=jobs_now, start=start)
            return np.array([res["camps"][c]["wins"] for c in WINNER_KEYS])

        live.start(request.state.sid, Live("odds", play, games, jobs))
        return page(request, "_odds.html", state=state, **odds_results(request))

    async def odds_live(request: Request) -> Response:
        return page(request, "_odds.html", state=state_of(request), **odds_results(request))

    # -- language, errors -----------------------------------------------------------------------
    async def set_lang(request: Request) -> Response:
        lang = request.path_params["lang"]
        target = request.query_params.get("next", "/")
        if not target.startswith("/") or target.startswith("//") or "\\" in target:
            target = "/"
        response = RedirectResponse(target[:200], status_code=303)
        if lang in LANGS:
            response.set_cookie("lang", lang, samesite="strict")
        return response

    routes = [
        Route("/", table_page),
        Route("/table", table_post, methods=["POST"]),
        Route("/table/live", table_live),
        Route("/live/cancel", live_cancel, methods=["POST"]),
        Route("/compare", compare_page),
        Route("/compare", compare_post, methods=["POST"]),
        Route("/compare/live", compare_live),
        Route("/host", host_page),
        Route("/host/players", host_players, methods=["POST"]),
        Route("/host/turn", host_turn, methods=["POST"]),
        Route("/host/save", host_save, methods=["POST", "GET"]),
        Route("/host/load", host_load, methods=["POST"]),
        Route("/host/games/{gid}/{action:str}", games_action, methods=["POST"]),
        Route("/host/games/{gid}.json", games_download),
        Route("/host/odds", host_odds, methods=["POST"]),
        Route("/host/odds/live", odds_live),
        Route("/lang/{lang}", set_lang),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        message = page_msg("not_found") if status == 404 else page_msg(
            {405: "not_allowed", 413: "too_large"}.get(status, "not_accepted"), status=status,
            kb=host.MAX_FILE_BYTES // 1024)
        return page(request, "error.html", status=status, message=message)

    async def bad_input(request: Request, exc: Exception) -> Response:
        # a bad value that reached the library: its one-line message, as on the command line
        return page(request, "error.html", status=400, message=as_msg(exc))

    async def crash(request: Request, exc: Exception) -> Response:
        return page(request, "error.html", status=500,
                    message=page_msg("page_failed", error=type(exc).__name__))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        live.cancel_all()  # a run in progress stops with the server

    app = Starlette(routes=routes, exception_handlers={
        404: not_found, 405: not_found, MafiaSimError: bad_input, Exception: crash},
        lifespan=lifespan)
    app.add_middleware(Guard, allowed_hosts=allowed_hosts)
    app.state.live = live
    app.state.sessions = sessions
    return app


def role_names(lang: str) -> dict[str, str]:
    """Each role's name in the page's language (the newspaper's words)."""
    words = ROLE_RU if lang == "ru" else ROLE_EN
    return {r.key: words[r] for r in Role}


def rule_diff(a: RuleSet, b: RuleSet) -> list[tuple[str, object, object]]:
    """The rule options that differ between two arms: (name, A's value, B's value)."""
    va, vb = a.as_dict(), b.as_dict()
    return [(k, va[k], vb[k]) for k in va if va[k] != vb[k]]


def recommendation(form: TableForm) -> dict[str, Any] | None:
    """The committed recommendation (sim/data/recommended.csv) for the form's table size."""
    n = form.total()
    if n is None:
        return None
    if not 20 <= n <= 30:
        return {"n": n, "row": None, "missing": False}
    if not RECOMMENDED.is_file():
        return {"n": n, "row": None, "missing": True}
    for row in csv.DictReader(RECOMMENDED.read_text(encoding="utf-8").splitlines()):
        if row.get("players") == str(n):
            return {"n": n, "row": row, "missing": False}
    return {"n": n, "row": None, "missing": False}


def nash_conv_of(setup: Setup) -> dict[str, Any]:
    """What the committed measurement (sim/data/nash_conv.csv) says of how far each camp
    could gain by playing differently at this table: its row when the table is a standard
    one with the default rules and agents (no profile given: the shipped mixture, if any),
    else `row` None (measured for those only)."""
    n = setup.comp.n
    out: dict[str, Any] = {"n": n, "row": None}
    if (setup.comp.describe() != Composition.standard(n).describe()
            or setup.rules != RuleSet() or setup.agents.params or setup.profile
            or setup.mixture != shipped_mixture(n) or not NASH_CONV.is_file()):
        return out
    rows = list(csv.DictReader(NASH_CONV.read_text(encoding="utf-8").splitlines()))
    for row in rows:
        if row.get("players") == str(n) and row.get("profile") == "default":
            out["row"] = {k: (float(v) if k.endswith(("_gain", "_low", "_high", "conv"))
                              and v else v) for k, v in row.items()}
            out["camps"] = [c for c in ("town", "yakuza", "triad", "maniac")
                            if row.get(f"{c}_gain")]
    return out


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class Guard:
    """Pure ASGI middleware: the session id, the body limit, the Host and Origin checks."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]],
                 allowed_hosts: set[str] | None = None):
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        host_header = headers.get("host", "")
        hostname = urlsplit("//" + host_header).hostname or ""
        lang, sid = "ru", ""  # the reader's language (for a refusal here) and page id
        for part in headers.get("cookie", "").split(";"):
            k, _, v = part.strip().partition("=")
            if k == "lang" and v in LANGS:
                lang = v
            elif k == "sid" and 16 <= len(v) <= 64 and v.replace("-", "").replace(
                    "_", "").isalnum():
                sid = v
        if self.allowed_hosts is not None and hostname not in self.allowed_hosts:
            await _plain(send, 400, lang, "wrong_address")
            return
        origin = headers.get("origin")
        if scope["method"] not in ("GET", "HEAD") and origin and origin != "null" \
                and urlsplit(origin).netloc != host_header:
            await _plain(send, 403, lang, "other_site")
            return
        scope.setdefault("state", {})["sid"] = sid or secrets.token_urlsafe(18)
        try:
            length = int(headers.get("content-length", "0"))
        except ValueError:
            length = 0
        if length > MAX_BODY:
            await _plain(send, 413, lang, "body_too_large", kb=MAX_BODY // 1024)
            return
        if scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        chunks, total, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return
            body = message.get("body", b"")
            total += len(body)
            if total > MAX_BODY:
                await _plain(send, 413, lang, "body_too_large", kb=MAX_BODY // 1024)
                return
            chunks.append(body)
            more = message.get("more_body", False)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _plain(send: Send, status: int, lang: str, key: str, **values: object) -> None:
    """A refusal before the app (the Guard's): one line in the reader's language."""
    t = translator(lang)
    body = (f"<!doctype html><html lang=\"{lang}\"><meta charset=utf-8>"
            f"<title>{html.escape(t('title'))}</title>"
            f"<p class=\"error\">{html.escape(t(key, **values))}</p>"
            f"<p><a href=\"/\">{html.escape(t('back'))}</a></p></html>").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/html; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
