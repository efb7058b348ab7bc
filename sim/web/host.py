"""Hosting a game on the page: the players and each turn's requests as form values, turned
into the `resolve` schema (docs/resolve.md), with the choices the engine's legal lists
allow (sim.engine.legal) and the engine's own message for anything it refuses.

The game is a `resolve` dict; a turn being entered is a draft of form values. Nothing here
decides a rule: the day's removals and the night's choices come from
`sim.play.resolve.ScriptedGame` and `sim.engine.legal`, the result from `sim.play.resolve.resolve`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sim.engine.legal import legal_actions, legal_orders, legal_votes
from sim.game.errors import IllegalRequest, InputError, MafiaSimError
from sim.game.messages import Msg
from sim.game.requests import Ambush, Protect, RaiseArmy
from sim.game.roles import Clan, Role, Shown
from sim.game.rules import Composition, RuleSet
from sim.game.talk import Channel
from sim.play.driver import ACTING
from sim.play.resolve import ScriptedGame, parse_game, resolve
from sim.web.forms import MAX_PLAYERS, RULES, rule_kind

#: the most turns a hosted game (or a loaded file) may hold
MAX_TURNS = 100
#: the largest game file the page reads
MAX_FILE_BYTES = 512 * 1024
MAX_NAME = 40
#: the most statements one day takes on the page
MAX_SAYS = 100
ROLE_KEYS = [r.key for r in Role]
CLAN_KEYS = ["yakuza", "triad"]
#: the night key of the `resolve` schema for each acting role
NIGHT_KEY = {Role.KAMIKAZE: "kamikaze", Role.THUG: "thug", Role.MANIAC: "maniac",
             Role.NINJA: "ninja", Role.DOCTOR: "doctor", Role.NECROMANCER: "necromancer",
             Role.COMMISSAR: "commissar", Role.SERGEANT: "commissar"}


def field_text(form: Mapping[str, Any], name: str, limit: int = MAX_NAME) -> str:
    v = form.get(name, "")
    return v[:limit] if isinstance(v, str) else ""


# -- the players ------------------------------------------------------------------------------
@dataclass
class PlayerRow:
    name: str = ""
    role: str = "civilian"
    clan: str = ""
    gender: str = ""


def standard_rows(n: int) -> list[PlayerRow]:
    """The standard table for n players as rows, names left to the host."""
    comp = Composition.standard(n)
    return [PlayerRow("", s.role.key, s.clan.key if s.clan is not Clan.NONE else "", "")
            for s in comp.seats]


def rows_from_form(form: Mapping[str, Any]) -> list[PlayerRow]:
    try:
        count = int(field_text(form, "count", 4))
    except ValueError:
        count = 0
    rows = []
    for i in range(max(0, min(count, MAX_PLAYERS))):
        # one character past the limit is kept, so that a long name is refused with the
        # browser's own message (name_too_long), not cut without a word
        rows.append(PlayerRow(field_text(form, f"name_{i}", MAX_NAME + 1).strip(),
                              field_text(form, f"role_{i}"), field_text(form, f"clan_{i}"),
                              field_text(form, f"gender_{i}")))
    return rows


def rows_from_game(game: Mapping[str, Any]) -> list[PlayerRow]:
    return [PlayerRow(str(p.get("name", "")), str(p.get("role", "")), str(p.get("clan", "")),
                      str(p.get("gender") or "")) for p in game.get("players", [])]


def rules_from_form(form: Mapping[str, Any]) -> dict[str, object]:
    """The rule options that differ from the defaults, as the schema's `rules`."""
    out: dict[str, object] = {}
    default = RuleSet()
    for name in RULES:
        if rule_kind(name) == "bool":
            value: object = field_text(form, name) in ("on", "true")
        else:
            value = field_text(form, name) or str(getattr(default, name))
        out[name] = value
    rules = RuleSet().replace(out)  # an InputError names the option
    return {k: v for k, v in rules.as_dict().items() if v != getattr(default, k)}


def new_game(rows: list[PlayerRow], rules: Mapping[str, object]) -> dict[str, Any]:
    """A game of these players (the schema's `players`), checked as `resolve` checks it."""
    if len(rows) > MAX_PLAYERS:
        raise InputError("at most {MAX_PLAYERS} players", MAX_PLAYERS=MAX_PLAYERS)
    players = []
    for r in rows:
        p: dict[str, Any] = {"name": r.name, "role": r.role}
        if r.clan:
            p["clan"] = r.clan
        if r.gender:
            p["gender"] = r.gender
        players.append(p)
    game: dict[str, Any] = {"players": players, "rules": dict(rules), "turns": []}
    if not rules:
        del game["rules"]
    ScriptedGame(game)  # the schema's checks, D2.1 included
    return game


def row_of_error(message: str) -> int | None:
    """The player row an InputError about `players[i]` is about."""
    m = re.match(r"players\[(\d+)\]", message)
    return int(m.group(1)) if m else None


# -- reading a game file ----------------------------------------------------------------------
def load_game_text(data: bytes, where: str = "the file") -> dict[str, Any]:
    """A game file's bytes as a game dict, checked by playing it (InputError otherwise)."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError("{where} is larger than {value} KB",
                         where=where, value=MAX_FILE_BYTES // 1024)
    game = parse_game(data, where)
    check_size(game)
    resolve(game)  # every turn played: a bad file or an illegal request is refused here
    return game


def check_size(game: Mapping[str, Any]) -> None:
    players, turns = game.get("players"), game.get("turns", [])
    if isinstance(players, list) and len(players) > MAX_PLAYERS:
        raise InputError("{count} players: the page hosts at most {MAX_PLAYERS}",
                         count=len(players), MAX_PLAYERS=MAX_PLAYERS)
    if isinstance(turns, list) and len(turns) > MAX_TURNS:
        raise InputError("{count} turns: the page hosts at most {MAX_TURNS}",
                         count=len(turns), MAX_TURNS=MAX_TURNS)


# -- the turn being entered -------------------------------------------------------------------
@dataclass
class Choice:
    value: str
    label: str


@dataclass
class VoteRow:
    index: int
    voter: str
    target: str
    voters: list[Choice]
    targets: list[Choice]
    error: Msg | str = ""


@dataclass
class SayRow:
    """One statement of the day's talk (R2.7): who says it, what (a claim, an announced
    check, an accusation, a defence), about whom, the role or result, and on which channel."""

    index: int
    by: str
    kind: str
    target: str
    value: str
    channel: str
    to: str
    speakers: list[Choice]
    targets: list[Choice]
    error: Msg | str = ""

    @property
    def needs_target(self) -> bool:
        return self.kind in ("check", "accuse", "defend")

    @property
    def needs_value(self) -> bool:
        return self.kind in ("claim", "check")


#: the statements a host enters, and where they may be said (R2.7; sim.game.talk)
SAY_KINDS = ("claim", "check", "accuse", "defend")
SAY_CHANNELS = tuple(c.value for c in Channel)
#: what a claim may name (a role) and a check announce (what a check shows, R7.2)
CLAIM_VALUES = tuple(r.key for r in Role)
CHECK_VALUES = tuple(x.value for x in Shown)


@dataclass
class NightRow:
    """One request control: a clan's order, a player's action, or the necromancer's."""

    kind: str  # "order", "action" or "necro"
    control: str  # the form name (prefix) of its controls
    who: str  # the clan of an order, else the player's name
    role: str = ""  # the player's role key
    options: list[Choice] = field(default_factory=list)  # action; order: targets
    value: str = ""
    shooters: list[Choice] = field(default_factory=list)  # order
    shooter: str = ""
    senders: list[Choice] = field(default_factory=list)  # order
    by: str = ""
    modes: list[Choice] = field(default_factory=list)  # necro: protect / army
    mode: str = ""
    first: list[Choice] = field(default_factory=list)  # necro: the two players
    second: list[Choice] = field(default_factory=list)
    a: str = ""
    b: str = ""
    error: Msg | str = ""


@dataclass
class AttritionWarning:
    """A player the rules will act on when the day is resolved as entered (issue 25: the
    host is told before, not after): `rule` R16.1 (marked as having posted nothing: he
    leaves at step 1) or R16.2 (no vote entered: `count` is his turns without a vote once
    this one counts, and `leaves` whether he goes missing at step 7)."""

    player: str
    rule: str
    count: int = 0
    leaves: bool = False


@dataclass
class Editor:
    """Everything the page shows to enter turn `turn`."""

    turn: int
    names: list[str]
    living: list[int]
    votes: list[VoteRow] = field(default_factory=list)
    new_vote: VoteRow | None = None
    #: the day's talk, in order, and the row for the next statement
    says: list[SayRow] = field(default_factory=list)
    new_say: SayRow | None = None
    lists: dict[str, set[int]] = field(default_factory=dict)
    night: list[NightRow] = field(default_factory=list)
    day_error: Msg | str = ""
    day_ends: bool = False
    #: who the attrition rules will act on if the day is resolved as entered (R16.1, R16.2)
    warnings: list[AttritionWarning] = field(default_factory=list)
    error: Msg | str = ""
    turn_dict: dict[str, Any] = field(default_factory=dict)


def _seat(text: str, n: int) -> int | None:
    t = text.strip()
    if not t.isascii() or not t.isdigit() or len(t) > 4:
        return None
    v = int(t)
    return v if 0 <= v < n else None


def _vote_row(st: Any, names: list[str], living: list[int], absent: set[int] | frozenset[int],
              voted: set[int], index: int, voter: int | None, target: int | None) -> VoteRow:
    """A vote row: the voters who may still vote, the targets his vote may name (R5, P5.1)."""
    voters = [s for s in living if legal_votes(st, s, absent, voted)]
    row = VoteRow(index, "" if voter is None else str(voter),
                  "" if target is None else str(target),
                  [Choice(str(s), names[s]) for s in voters], [])
    if voter is not None:
        row.targets = [Choice(str(v.target), names[v.target])
                       for v in legal_votes(st, voter, absent, voted)]
        if str(voter) not in [c.value for c in row.voters]:  # shown, and refused below
            row.voters.append(Choice(str(voter), names[voter]))
        if target is not None and str(target) not in [c.value for c in row.targets]:
            row.targets.append(Choice(str(target), names[target]))
    return row


def attrition_warnings(st: Any, names: list[str], living: list[int], absent: set[int],
                       voted: set[int]) -> list[AttritionWarning]:
    """R16.1 for the players marked as having posted nothing, R16.2 for the living with no
    vote entered; the beaten are excused (D10.4), and with `abstention_limit` 0 the rule is
    off (D16.2)."""
    out = [AttritionWarning(names[s], "R16.1") for s in sorted(absent)]
    limit = st.rules.abstention_limit
    if limit:
        for s in living:
            if s in voted or s in absent or s in st.beaten_today:
                continue
            count = st.abstentions[s] + 1
            out.append(AttritionWarning(names[s], "R16.2", count, count >= limit))
    return out


def editor(game: Mapping[str, Any], draft: Mapping[str, Any]) -> Editor | None:
    """The editor of the next turn of `game` with the draft's values (None when the game is
    over). `turn_dict` is the draft as a turn of the schema; errors go beside controls."""
    sg = ScriptedGame(game)
    sg.play()
    g, st, names = sg.game, sg.game.st, sg.parser.names
    if g.over:
        return None
    t = st.turn
    n = st.n
    ed = Editor(t, list(names), [s for s in range(n) if st.alive[s]])
    day: dict[str, Any] = {}
    if t > 0:
        for what in ("absent", "removed", "passive"):
            ed.lists[what] = {s for s in ed.living if draft.get(f"{what}_{s}") in ("on", "1")}
            if ed.lists[what]:
                day[what] = [names[s] for s in sorted(ed.lists[what])]
        absent: set[int] = ed.lists["absent"] - st.beaten_today  # D10.4: the beaten are excused
        said = _says(ed, draft, names, n)
        if said:
            day["statements"] = said
        voted: set[int] = set()
        pairs: list[list[str]] = []
        try:
            count = min(int(str(draft.get("votes", "0"))[:4]), n)
        except ValueError:
            count = 0
        pending: int | None = None  # a voter chosen in the new row, his target not yet
        for i in range(count + 1):
            voter = _seat(str(draft.get(f"voter_{i}", "")), n)
            target = _seat(str(draft.get(f"target_{i}", "")), n)
            if voter is None or target is None:
                if i == count:
                    pending = voter
                continue  # an emptied row drops out
            ed.votes.append(_vote_row(st, names, ed.living, absent, voted, len(ed.votes),
                                      voter, target))
            voted.add(voter)
            pairs.append([names[voter], names[target]])
        ed.new_vote = _vote_row(st, names, ed.living, absent, voted, len(ed.votes), pending,
                                None)
        ed.warnings = attrition_warnings(st, names, ed.living, absent, voted)
        if pairs:
            day["votes"] = pairs
    # the day's removals, then the night's legal lists (P3.1)
    try:
        inp, rep = sg.start_day(t, day)
    except IllegalRequest as e:
        ed.day_error = e.msg
        _place_day_error(ed, e)
        ed.turn_dict = day
        return ed
    except MafiaSimError as e:
        ed.day_error = e.msg
        ed.turn_dict = day
        return ed
    if rep.outcome is not None:
        ed.day_ends = True
        ed.turn_dict = day
        return ed
    absent = set(inp.absent)
    night: dict[str, Any] = {}
    shooters: set[int] = set()
    if t > 0:
        for clan in (Clan.YAKUZA, Clan.TRIAD):
            orders = legal_orders(st, clan, absent)
            if not orders:
                continue
            control = f"order_{clan.key}"
            row: NightRow = NightRow("order", control, clan.key)
            row.options = [Choice(str(s), names[s]) for s in sorted({o.target for o in orders})]
            row.shooters = [Choice(str(s), names[s])
                            for s in sorted({o.shooter for o in orders})]
            row.senders = [Choice(str(s), names[s]) for s in sorted({o.by for o in orders})
                           if s >= 0]
            tgt = _seat(str(draft.get(control + "_target", "")), n)
            sh = _seat(str(draft.get(control + "_shooter", "")), n)
            by = _seat(str(draft.get(control + "_by", "")), n)
            row.value = "" if tgt is None else str(tgt)
            row.shooter = "" if sh is None else str(sh)
            row.by = "" if by is None else str(by)
            if tgt is not None and (sh is not None or by is not None):
                req: dict[str, str] = {"target": names[tgt]}
                if sh is not None:
                    req["shooter"] = names[sh]
                if by is not None:
                    req["by"] = names[by]
                    if sh is None:
                        shooters.add(by)
                if sh is not None:
                    shooters.add(sh)
                night[clan.key] = req
            elif tgt is not None:
                row.error = Msg("name the shooter (R14.1)")
            ed.night.append(row)
    requests: dict[str, list[dict[str, Any]]] = {}
    for s in range(n):
        if st.role[s] not in ACTING or not st.alive[s] or s in absent:
            continue
        legal = legal_actions(st, s, absent, shooters)
        if not legal:
            continue
        who = names[s]
        control = f"act_{s}"
        value = str(draft.get(control, ""))[:12]
        key = NIGHT_KEY[st.role[s]]
        if st.role[s] is Role.NECROMANCER:
            row = NightRow("necro", control, who, st.role[s].key)
            modes = []
            if any(isinstance(a, Protect) for a in legal):
                modes.append(Choice("protect", "protect"))
            if any(isinstance(a, RaiseArmy) for a in legal):
                modes.append(Choice("army", "army"))
            row.modes = modes
            row.mode = value if value in [m.value for m in modes] else ""
            kind = Protect if row.mode != "army" else RaiseArmy
            firsts = sorted({a.targets[0] for a in legal if isinstance(a, kind)})
            seconds = sorted({a.targets[-1] for a in legal if isinstance(a, kind)
                              and len(a.targets) == 2})
            row.first = [Choice(str(x), names[x]) for x in firsts]
            row.second = [Choice(str(x), names[x]) for x in seconds]
            a = _seat(str(draft.get(control + "_a", "")), n)
            b = _seat(str(draft.get(control + "_b", "")), n)
            row.a = "" if a is None else str(a)
            row.b = "" if b is None else str(b)
            chosen = [names[x] for x in (a, b) if x is not None]
            if row.mode and chosen:
                requests.setdefault(key, []).append({"by": names[s], row.mode: chosen})
            ed.night.append(row)
            continue
        row = NightRow("action", control, who, st.role[s].key)
        for act in legal:
            if isinstance(act, Ambush):
                row.options.append(Choice("ambush", "ambush"))
            else:
                target = getattr(act, "target", -1)
                row.options.append(Choice(str(target), names[target]))
        row.value = value if value in [c.value for c in row.options] else ""
        if value and not row.value:  # a choice the rules no longer allow
            target_seat = _seat(value, n)
            if target_seat is not None:
                row.value = value
                row.options.append(Choice(value, names[target_seat]))
        if row.value == "ambush":
            requests.setdefault(key, []).append({"by": names[s], "ambush": True})
        elif row.value:
            requests.setdefault(key, []).append({"by": names[s],
                                                 "target": names[int(row.value)]})
        ed.night.append(row)
    for key, reqs in requests.items():
        night[key] = reqs[0] if len(reqs) == 1 else reqs
    turn = dict(day)
    if night:
        turn["night"] = night
    ed.turn_dict = turn
    # the engine's word on the whole turn: an illegal combination named with its rule
    try:
        resolve({**game, "turns": [*game.get("turns", []), turn]})
    except IllegalRequest as e:
        _place_error(ed, e)
    except MafiaSimError as e:
        ed.error = e.msg
    return ed


def _says(ed: Editor, draft: Mapping[str, Any], names: list[str], n: int
          ) -> list[dict[str, Any]]:
    """The statement rows of the draft (`says`, `say_by_I`, `say_kind_I`, ...) into `ed`, and
    as the game file's `statements`; a row without a speaker or a kind drops out. Who may
    say what on which channel is the engine's to decide (P5.7: R2.7, R10.4, R16.6): a refused
    statement gets its message beside its row."""
    try:
        count = min(int(str(draft.get("says", "0"))[:3]), MAX_SAYS)
    except ValueError:
        count = 0
    everyone = [Choice(str(s), names[s]) for s in ed.living]
    out: list[dict[str, Any]] = []

    def row(i: int) -> SayRow:
        def pick(key: str, allowed: tuple[str, ...]) -> str:
            v = str(draft.get(f"say_{key}_{i}", ""))[:20]
            return v if v in allowed else ""

        by, target, to = (_seat(str(draft.get(f"say_{k}_{i}", "")), n)
                          for k in ("by", "target", "to"))
        kind = pick("kind", SAY_KINDS)
        value = pick("value", CLAIM_VALUES if kind == "claim" else CHECK_VALUES)
        channel = pick("channel", SAY_CHANNELS) or "public"
        return SayRow(len(ed.says), "" if by is None else str(by), kind,
                      "" if target is None else str(target), value, channel,
                      "" if to is None else str(to), everyone, everyone)

    for i in range(count + 1):
        r = row(i)
        if not (r.by and r.kind):
            if i == count:
                ed.new_say = r
            continue
        ed.says.append(r)
        item: dict[str, Any] = {"by": names[int(r.by)], "kind": r.kind}
        if r.needs_target and r.target:
            item["target"] = names[int(r.target)]
        if r.needs_value and r.value:
            item["value"] = r.value
        if r.channel != "public":
            item["channel"] = r.channel
        if r.channel == "checked" and r.to:
            item["to"] = names[int(r.to)]
        out.append(item)
    if ed.new_say is None:
        ed.new_say = row(count + 1)
    ed.new_say.index = len(ed.says)
    return out


def _place_day_error(ed: Editor, e: IllegalRequest) -> None:
    """Beside the vote the engine refused: the voter's first vote with that target, or his
    second vote for a second vote (R5.1)."""
    if str(e.request) in SAY_KINDS:  # a statement the engine refused (R2.7, R10.4, R16.6)
        said = [r for r in ed.says if ed.names[int(r.by)] == e.player
                and r.kind == str(e.request)]
        if said:
            said[0].error = e.msg
        else:
            ed.day_error = ed.day_error or e.msg
        return
    rows = [r for r in ed.votes if ed.names[int(r.voter)] == e.player
            and str(e.request) == f"vote against {ed.names[int(r.target)]}"]
    if e.rule == "R5.1":
        mine = [r for r in ed.votes if ed.names[int(r.voter)] == e.player]
        rows = mine[1:] or rows
    if rows:
        rows[0].error = e.msg
    else:
        ed.day_error = ed.day_error or e.msg


def _place_error(ed: Editor, e: IllegalRequest) -> None:
    """The engine's message beside the control of the request it refused."""
    if str(e.request).startswith("vote") or str(e.request) in SAY_KINDS:
        _place_day_error(ed, e)
        return
    for row in ed.night:
        if row.kind == "order" and str(e.request).startswith(f"{row.who} order"):
            row.error = e.msg
            return
        if row.kind != "order" and row.who == e.player:
            row.error = e.msg
            return
    ed.error = e.msg


def commit(game: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
    """The game with `turn` added, played to check it (errors as the engine words them)."""
    turns = list(game.get("turns", []))
    if len(turns) >= MAX_TURNS:
        raise InputError("the page hosts at most {MAX_TURNS} turns", MAX_TURNS=MAX_TURNS)
    out = {**game, "turns": [*turns, dict(turn)]}
    resolve(out)
    return out

