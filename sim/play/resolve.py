"""The host's oracle: play a fully scripted game given as a dict (the `resolve` schema,
docs/resolve.md) and return what happened as a dict."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.random import Generator

from sim.engine.game import Game
from sim.engine.newspaper import GENDERS, render
from sim.engine.report import TurnReport
from sim.game.errors import InputError
from sim.game.messages import Msg, msg
from sim.game.requests import (
    Action,
    Ambush,
    Beat,
    Blast,
    Check,
    ClanOrder,
    Heal,
    Kill,
    NightRequests,
    Protect,
    RaiseArmy,
    Strike,
    TurnInput,
    Vote,
)
from sim.game.roles import Clan, Role
from sim.game.rules import Composition, RuleSet, Seat, json_rule_hint
from sim.game.talk import Channel, Statement, StatementKind
from sim.play.setup import check_playable

TURN_KEYS = {"votes", "absent", "removed", "passive", "night", "statements", "note", "coin"}
NIGHT_KEYS = {
    "yakuza", "triad", "kamikaze", "thug", "maniac", "ninja", "doctor", "necromancer",
    "commissar", "sergeant",
}
ACTOR_ROLE = {
    "kamikaze": Role.KAMIKAZE, "thug": Role.THUG, "maniac": Role.MANIAC, "ninja": Role.NINJA,
    "doctor": Role.DOCTOR, "necromancer": Role.NECROMANCER, "sergeant": Role.SERGEANT,
}


def _at(where: str | Msg, template: str, **values: object) -> Msg:
    """A place in a game file, as a message: `where` one step further (`turns[2]` and
    `{at}.votes[{i}]` make `turns[2].votes[0]`; the Russian catalog says «ход 2, голос 1»)."""
    return Msg(template, {"at": where, **values})


def load_game_file(path: str | Path) -> dict[str, Any]:
    """Read a GAME.json; a malformed file is an InputError naming the line."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise InputError("cannot read {p}: {strerror}", p=p, strerror=e.strerror) from None
    return parse_game(data, str(p))


def parse_game(data: bytes, where: str | Msg) -> dict[str, Any]:
    """A game file's bytes as a dict (not yet checked against the schema: `resolve` does);
    malformed JSON is an InputError naming `where` and the line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("{where}: not UTF-8 text", where=where) from None
    try:
        game = json.loads(text)
    except RecursionError:
        raise InputError("{where}: the JSON is nested too deeply", where=where) from None
    except json.JSONDecodeError as e:
        raise InputError("{where}: malformed JSON at line {lineno}, column {colno}: {msg}",
                         where=where, lineno=e.lineno, colno=e.colno, msg=e.msg) from None
    except ValueError:  # an integer over Python's 4,300-digit limit
        raise InputError("{where}: the JSON holds an integer of more than 4,300 digits",
                         where=where) \
            from None
    if not isinstance(game, dict):
        raise InputError("{where}: the top level must be an object with 'players' and 'turns'",
                         where=where)
    return game


#: the statement kinds and channels a game file may name (sim.game.talk)
_KINDS = [k.value for k in StatementKind]
_CHANNELS = [c.value for c in Channel]


def _or(words: list[str]) -> str:
    """`a, b or c`."""
    return f"{', '.join(words[:-1])} or {words[-1]}"


def _names(keys: set[str]) -> str:
    """Unknown keys as the user wrote them, quoted so odd characters show."""
    return ", ".join(k if k.isidentifier() else repr(k) for k in sorted(keys))


class _Parser:
    """Turns the schema's names into seats, with an InputError naming every problem."""

    statements: list[Statement]

    def __init__(self, game: Mapping[str, Any]):
        if not isinstance(game, Mapping):
            raise InputError("the game must be an object with 'players' and 'turns'")
        top = {"players", "rules", "dons", "turns", "seed", "chance", "note"}
        unknown = set(game) - top
        if unknown:
            raise InputError("unknown top-level field(s): {names} (fields: {items})",
                             names=_names(unknown), items=', '.join(sorted(top)))
        players = game.get("players")
        if not isinstance(players, list) or not players:
            raise InputError("'players' must be a non-empty list of {name, role[, clan, gender]}")
        seats: list[Seat] = []
        names: list[str] = []
        #: each player's grammatical gender for the Russian newspaper: "m", "f" or None
        self.genders: list[str | None] = []
        for i, p in enumerate(players):
            where = msg("players[{i}]", i=i, n=i + 1)
            if not isinstance(p, Mapping):
                raise InputError("{where}: a player is an object {{name, role[, clan, gender]}}",
                                 where=where)
            extra = set(p) - {"name", "role", "clan", "gender"}
            if extra:
                raise InputError("{where}: unknown field(s) {names} (fields: name, role, clan, "
                                 "gender)", where=where, names=_names(extra))
            name = p.get("name")
            if not isinstance(name, str) or not name.strip():
                raise InputError("{where}: 'name' must be a non-empty string", where=where)
            if not name.isprintable():
                raise InputError("{where}: the name {name!r} holds a control character (a newline, "
                                 "tab, ...): names are one printable line", where=where, name=name)
            if not isinstance(p.get("role"), str):
                raise InputError("{where} ({name}): 'role' must be a string",
                                 where=where, name=name)
            try:
                role = Role.parse(p["role"])
            except ValueError as e:
                raise InputError("{where} ({name}): {e}", where=where, name=name, e=e) from None
            clan = Clan.NONE
            if "clan" in p:
                if not isinstance(p["clan"], str):
                    raise InputError("{where} ({name}): 'clan' must be yakuza or triad",
                                     where=where, name=name)
                try:
                    clan = Clan.parse(p["clan"])
                except ValueError as e:
                    raise InputError("{where} ({name}): {e}", where=where, name=name, e=e) from None
            if role is Role.KAMIKAZE and clan is Clan.NONE:
                clan = Clan.YAKUZA
            if role is Role.THUG and clan is Clan.NONE:
                clan = Clan.TRIAD
            if role in (Role.MAFIOSO, Role.VSB) and clan is Clan.NONE:
                raise InputError("{where} ({name}): a {role} needs 'clan': yakuza or triad",
                                 where=where, name=name, role=role.key)
            gender = p.get("gender")
            if gender is not None and gender not in GENDERS:
                raise InputError('{where} ({name}): \'gender\' must be "m" or "f" (or left out '
                                 'when unknown), got {gender!r}',
                                 where=where, name=name, gender=gender)
            seats.append(Seat(role, clan))
            names.append(name)
            self.genders.append(gender)
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise InputError("duplicate player name(s): {items}", items=', '.join(dup))
        rules_in = game.get("rules", {})
        if not isinstance(rules_in, Mapping):
            raise InputError("'rules' must be an object of rule names and values")
        self.rules = RuleSet().replace(rules_in)
        self.comp = Composition(tuple(seats), tuple(names))
        self.comp.validate(self.rules, json_rule_hint)
        if seats:
            check_playable(self.comp)  # P2.2, as every front end reads it
        self.seat_of = {n: i for i, n in enumerate(names)}
        self.names = names
        dons_in = game.get("dons", {})
        if not isinstance(dons_in, Mapping):
            raise InputError("'dons' must be an object {\"yakuza\": name, \"triad\": name}")
        self.dons: dict[Clan, int] = {}
        for k, v in dons_in.items():
            try:
                clan = Clan.parse(str(k))
            except ValueError as e:
                raise InputError("dons: {e}", e=e) from None
            self.dons[clan] = self.seat(v, "dons")
        seed = game.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InputError("'seed' must be a non-negative integer, got {seed!r}", seed=seed)
        self.seed = seed
        chance = game.get("chance", "seed")
        if chance not in ("seed", "script"):
            raise InputError('\'chance\' must be "seed" or "script", got {chance!r}', chance=chance)
        #: "script": the host's chance events are written in the turns (rejected votes,
        #: the duel coin) and the seed is not used
        self.scripted = chance == "script"
        turns = game.get("turns", [])
        if not isinstance(turns, list):
            raise InputError("'turns' must be a list of turn objects")
        self.turns = turns

    def seat(self, name: object, where: str | Msg) -> int:
        if not isinstance(name, str):
            raise InputError("{where}: a player is named by a string, got {name!r}",
                             where=where, name=name)
        if name not in self.seat_of:
            raise InputError("{where}: unknown player {name!r}", where=where, name=name)
        return self.seat_of[name]

    def seats(self, names: object, where: str | Msg) -> frozenset[int]:
        if not isinstance(names, list):
            raise InputError("{where}: expected a list of player names", where=where)
        return frozenset(self.seat(n, where) for n in names)

    def actor(self, game: Game, key: str, req: Mapping[str, Any], where: str | Msg) -> int:
        """The seat acting for a night key: `by` if given, else the one holder of the role."""
        if "by" in req:
            return self.seat(req["by"], _at(where, "{at}.by"))
        st = game.st
        if key == "commissar":
            holders = [s for s in range(st.n) if st.badge[s] and st.alive[s]]
            if not holders:
                holders = [s for s in range(st.n) if st.badge[s]]
                holders += [s for s in st.seats_by_role[Role.SERGEANT] if s not in holders]
            if not holders:
                raise InputError("{where}: there is no commissar in this game", where=where)
            return holders[0]
        seats = st.seats_by_role[ACTOR_ROLE[key]]
        if not seats:
            raise InputError("{where}: there is no {key} in this game", where=where, key=key)
        living = [s for s in seats if st.alive[s]]
        if len(seats) > 1 and len(living) != 1:
            raise InputError("{where}: several players are {key}: say which with 'by'",
                             where=where, key=key)
        return living[0] if living else seats[0]

    def turn_input(self, game: Game, t: int, turn: object) -> TurnInput:
        where = msg("turns[{t}]", t=t)
        if not isinstance(turn, Mapping):
            raise InputError("{where}: a turn is an object", where=where)
        unknown = set(turn) - TURN_KEYS
        if unknown:
            raise InputError("{where}: unknown field(s) {names} (fields: {items})",
                             where=where, names=_names(unknown),
                             items=', '.join(sorted(TURN_KEYS)))
        votes: list[Vote] = []
        raw_votes = turn.get("votes", [])
        if not isinstance(raw_votes, list):
            raise InputError("{where}.votes: expected a list of [voter, target] pairs", where=where)
        #: with chance "script": per vote cast, whether the host rejected it (D5.2)
        self.rejected: list[bool] = []
        for i, pair in enumerate(raw_votes):
            w = _at(where, "{at}.votes[{i}]", i=i, n=i + 1)
            if (isinstance(pair, list) and len(pair) == 3 and pair[2] == "rejected"
                    and self.scripted):
                pair = pair[:2]
                self.rejected.append(True)
            elif isinstance(pair, list) and len(pair) == 3:
                raise InputError('{w}: a third element is "rejected", and only with "chance": '
                                 '"script"', w=w)
            else:
                self.rejected.append(False)
            if not isinstance(pair, list) or len(pair) != 2:
                raise InputError("{w}: a vote is a pair [voter, target]", w=w)
            votes.append(Vote(self.seat(pair[0], w), self.seat(pair[1], w)))
        self.coin = -1
        if "coin" in turn:
            if not self.scripted:
                raise InputError('{where}.coin: only with "chance": "script"', where=where)
            self.coin = self.seat(turn["coin"], _at(where, "{at}.coin"))
        night = NightRequests()
        raw_night = turn.get("night", {})
        if not isinstance(raw_night, Mapping):
            raise InputError("{where}.night: expected an object of requests", where=where)
        unknown = set(raw_night) - NIGHT_KEYS
        if unknown:
            raise InputError("{where}.night: unknown request(s) {names} (requests: {items})",
                             where=where, names=_names(unknown),
                             items=', '.join(sorted(NIGHT_KEYS)))
        items = [(_at(where, "{at}.night.{key}", key=Msg(key)), key, req)
                 for key, req in raw_night.items()
                 if not isinstance(req, list) or key in ("yakuza", "triad")]
        for key, reqs in raw_night.items():  # several players of one role: a list
            if isinstance(reqs, list) and key not in ("yakuza", "triad"):
                items += [(_at(where, "{at}.night.{key}[{i}]", key=Msg(key), i=i, n=i + 1), key, r)
                          for i, r in enumerate(reqs)]
        for w, key, req in items:
            if not isinstance(req, Mapping):
                raise InputError("{w}: a request is an object", w=w)
            if key in ("yakuza", "triad"):
                self._order(game, Clan.parse(key), req, night, w)
                continue
            seat = self.actor(game, key, req, w)
            action = self._action(key, req, w)
            if seat in night.actions:
                raise InputError("{w}: {player} already has a request this night",
                                 w=w, player=self.names[seat])
            night.actions[seat] = action
        self.statements = self._statements(turn.get("statements", []), t, where)
        return TurnInput(
            votes=votes,
            night=night,
            absent=self.seats(turn.get("absent", []), _at(where, "{at}.absent")),
            removed=self.seats(turn.get("removed", []), _at(where, "{at}.removed")),
            passive=self.seats(turn.get("passive", []), _at(where, "{at}.passive")),
        )

    def _statements(self, raw: object, t: int, where: str | Msg) -> list[Statement]:
        if not isinstance(raw, list):
            raise InputError("{where}.statements: expected a list of statements", where=where)
        out = []
        for i, item in enumerate(raw):
            w = _at(where, "{at}.statements[{i}]", i=i, n=i + 1)
            if not isinstance(item, Mapping):
                raise InputError("{w}: a statement is an object {{by, kind, ...}}", w=w)
            allowed = {"by", "kind", "target", "value", "channel", "to"}
            extra = set(item) - allowed
            if extra:
                raise InputError("{w}: unknown field(s) {names} (fields: {items})",
                                 w=w, names=_names(extra), items=', '.join(sorted(allowed)))
            kind = item.get("kind")
            if kind not in _KINDS:
                raise InputError("{w}: kind must be {choices}", w=w, choices=_or(_KINDS))
            channel = item.get("channel", Channel.PUBLIC.value)
            if channel not in _CHANNELS:
                raise InputError("{w}: channel must be {choices}", w=w, choices=_or(_CHANNELS))
            value = item.get("value", "")
            if not isinstance(value, str):
                raise InputError("{w}: value must be a string", w=w)
            out.append(Statement(
                t, self.seat(item.get("by"), _at(w, "{at}.by")), kind,
                self.seat(item["target"], _at(w, "{at}.target")) if "target" in item else -1,
                value, channel, self.seat(item["to"], _at(w, "{at}.to")) if "to" in item else -1))
        return out

    def _order(
        self, game: Game, clan: Clan, req: Mapping[str, Any], night: NightRequests, w: str | Msg
    ) -> None:
        extra = set(req) - {"target", "shooter", "by"}
        if extra:
            raise InputError("{w}: unknown field(s) {names} (fields: by, shooter, target)",
                             w=w, names=_names(extra))
        if "target" not in req:
            raise InputError("{w}: a clan order needs 'target'", w=w)
        target = self.seat(req["target"], _at(w, "{at}.target"))
        by = self.seat(req["by"], _at(w, "{at}.by")) if "by" in req else -1
        if "shooter" in req:
            shooter = self.seat(req["shooter"], _at(w, "{at}.shooter"))
        elif by >= 0:
            shooter = by  # R14.4: the member who sends it shoots
        else:
            raise InputError("{w}: a clan order needs 'shooter'", w=w)
        if by < 0 and game.st.don[clan] < 0:
            by = shooter  # no Don (D2.2): the sender is the shooter (R14.4)
        night.orders[clan] = ClanOrder(clan, target, shooter, by)

    def _action(self, key: str, req: Mapping[str, Any], w: str | Msg) -> Action:
        fields = set(req) - {"by"}
        if key == "maniac" and req.get("ambush") is True:
            if fields - {"ambush"}:
                raise InputError("{w}: the ambush takes no target", w=w)
            return Ambush()
        if key == "necromancer":
            if fields == {"protect"}:
                return Protect(tuple(self._list(req["protect"], _at(w, "{at}.protect"))))
            if fields == {"army"}:
                return RaiseArmy(tuple(self._list(req["army"], _at(w, "{at}.army"))))
            raise InputError('{w}: the necromancer sends {{"protect": [...]}} or '
                             '{{"army": [a, b]}}', w=w)
        if fields != {"target"}:
            raise InputError('{w}: expected {{"target": name}}', w=w)
        target = self.seat(req["target"], _at(w, "{at}.target"))
        kinds: dict[str, type] = {
            "kamikaze": Blast, "thug": Beat, "maniac": Kill, "ninja": Strike, "doctor": Heal,
            "commissar": Check, "sergeant": Check,
        }
        return kinds[key](target)

    def _list(self, names: object, w: str | Msg) -> list[int]:
        if not isinstance(names, list):
            raise InputError("{w}: expected a list of player names", w=w)
        return [self.seat(n, w) for n in names]


def turn_dict(game: Game, rep: TurnReport,
              genders: list[str | None] | None = None,
              statements: list[Statement] | None = None) -> dict[str, Any]:
    names = game.st.names
    return {
        "turn": rep.turn,
        "hanged": names[rep.hanged] if rep.hanged >= 0 else None,
        "deaths": [
            {"player": names[d.seat], "cause": d.cause.key,
             "causes": [c.key for c in d.causes], "step": d.step}
            for d in rep.deaths
        ],
        "beaten": [names[v] for v in rep.beaten],
        "checks": [
            {"by": names[c.by], "target": names[c.target], "result": c.result,
             "thug": names[c.thug] if c.thug >= 0 else None,
             "seen_by": [names[s] for s in c.seen_by]}
            for c in rep.checks
        ],
        "protects_fired": [names[s] for s in rep.protects_fired],
        "vest_spent": rep.vest_spent,
        "army_raised": rep.army_raised,
        "newspaper": {"ru": render(game.st, rep, "ru", genders),
                      "en": render(game.st, rep, "en")},
        # the day's talk as the file gave it, in order, and in words (the turn's record:
        # the host's newspaper reports the night, not the thread's talk)
        "statements": [statement_dict(names, x) for x in statements or []],
        "talk": {lang: [talk_line(game, x, lang) for x in statements or []]
                 for lang in ("ru", "en")},
    }


def statement_dict(names: tuple[str, ...], x: Statement) -> dict[str, Any]:
    """A statement in the game file's schema (`turns[].statements[]`)."""
    out: dict[str, Any] = {"by": names[x.speaker], "kind": x.kind.value}
    if x.target >= 0:
        out["target"] = names[x.target]
    if x.value:
        out["value"] = x.value
    if x.channel is not Channel.PUBLIC:
        out["channel"] = x.channel.value
    if x.to >= 0:
        out["to"] = names[x.to]
    return out


def talk_line(game: Game, x: Statement, lang: str) -> str:
    """A statement in words, as `replay --log` writes it (sim.engine.gamelog)."""
    from sim.engine.gamelog import statement_line

    return statement_line(game, (x.speaker, x.channel.value, x.kind.value, x.target, x.value,
                                 x.to), lang)


class _ScriptedChance:
    """The host's chance read from the script (`"chance": "script"`), in place of a
    generator: the engine's draws are the vote rejections of the day (D5.2), one draw per
    seat, and the duel coin (D17.2)."""

    def __init__(self, parser: _Parser):
        self.parser = parser
        self.game: Game | None = None
        self.draws: np.ndarray | None = None
        self.where: str | Msg = ""
        self.coin_used = False

    def start_turn(self, where: str | Msg, votes: list[Vote]) -> None:
        p = self.parser
        if any(p.rejected) and (self.game is None or self.game.rules.vote_rejection <= 0):
            raise InputError("{where}.votes: a vote is rejected, but the rule vote_rejection is 0: "
                             "the host rejects none (D5.2)", where=where)
        if self.game is not None and self.game.rules.vote_rejection > 0:
            # a voter's draw below the rule's chance rejects his vote, 1.0 never does
            self.draws = np.ones(self.game.st.n)
            for v, r in zip(votes, p.rejected, strict=True):
                if r:
                    self.draws[v.voter] = 0.0
        else:
            self.draws = None
        self.where = where
        self.coin_used = False

    def end_turn(self) -> None:
        if self.parser.coin >= 0 and not self.coin_used:
            raise InputError("{where}.coin: no duel was decided by the coin this turn",
                             where=self.where)

    def random(self, size: int | None = None) -> Any:
        if size is not None:  # the day's vote rejections, one draw per seat (Game._hang)
            assert self.draws is not None and len(self.draws) == size
            return self.draws
        assert self.game is not None
        coin = self.parser.coin
        if coin < 0:
            raise InputError('{where}: the duel is decided by the coin (D17.2): name its winner '
                             'with "coin"', where=self.where)
        a, b = self.game.st.living()
        if coin not in (a, b):
            raise InputError("{where}.coin: {player} is not in the duel",
                             where=self.where, player=self.parser.names[coin])
        self.coin_used = True
        return 0.0 if coin == a else 1.0  # duel_result: a wins on a draw below 0.5


class ScriptedGame:
    """A scripted game (the `resolve` schema) played turn by turn: what `resolve` and the
    host's page (sim.web) share. `start_day` plays a turn's steps 1-3, so that the night's
    legal requests can be listed from `game.st`; `finish_turn` plays its night."""

    def __init__(self, game: Mapping[str, Any]):
        self.parser = parser = _Parser(game)
        self.script = _ScriptedChance(parser) if parser.scripted else None
        rng = (cast(Generator, self.script) if self.script
               else np.random.default_rng(parser.seed))
        self.game = Game(parser.comp, parser.rules, rng, parser.dons)
        if self.script:
            self.script.game = self.game

    def start_day(self, t: int, raw: object) -> tuple[TurnInput, TurnReport]:
        """Turn t's talk and steps 1-3 (the day's removals)."""
        g = self.game
        if g.over:
            assert g.outcome is not None
            raise InputError("turns[{t}]: the game already ended on turn {turn} (P3.3)",
                             t=t, turn=g.outcome.turn)
        inp = self.parser.turn_input(g, t, raw)
        for stmt in self.parser.statements:  # the day's talk comes before the vote
            g.say(stmt)
        if self.script:
            self.script.start_turn(msg("turns[{t}]", t=t), inp.votes)
        return inp, g.play_day(inp)

    def finish_turn(self, inp: TurnInput, rep: TurnReport) -> dict[str, Any]:
        """The night of the turn `start_day` began; the turn's result as `resolve` gives it."""
        g = self.game
        if rep.outcome is None:
            g.play_night(inp.night)
        else:
            # The day ended the game, so the night never runs; its requests are still
            # checked as they would have been carried out: an illegal request is an error
            # whether or not the game ends before it (R14.1, P3.1).
            g.admit_night(inp.night, inp.absent)
        if self.script:
            self.script.end_turn()
        return turn_dict(g, rep, self.parser.genders, self.parser.statements)

    def play(self) -> list[dict[str, Any]]:
        """Every scripted turn; their results."""
        return [self.finish_turn(*self.start_day(t, raw))
                for t, raw in enumerate(self.parser.turns)]

    def result(self, turns: list[dict[str, Any]]) -> dict[str, Any]:
        g, names = self.game, self.parser.names
        out = g.outcome
        return {
            "turns": turns,
            "alive": [names[s] for s in range(g.st.n) if g.st.alive[s]],
            "outcome": out.as_dict() if out else {"winner": None, "reason": None,
                                                  "turn": None},
        }


def resolve(game: Mapping[str, Any]) -> dict[str, Any]:
    """Play a scripted game (docs/resolve.md) and return the result dict.

    Raises InputError for a malformed game and IllegalRequest for a request the rules forbid.
    """
    sg = ScriptedGame(game)
    return sg.result(sg.play())
