"""One played game, written out so that a person can audit it.

`game_log(game, lang)` prints every turn in full, in English or Russian: the day's statements
and claims (private channels marked as such), the votes in the order cast, every night
request (and every role that sent none), and the host's resolution with the newspaper.
`game_json(game)` writes the same game in the `resolve` schema (docs/resolve.md), with the
host's chance written out (`"chance": "script"`), so that `sim.play.resolve.resolve` of it plays
the same game to the same end.

The Russian log, like the newspaper without a known gender (sim.engine.newspaper.CAUSE_RU), uses
no gendered past-tense verb for a player: a simulated player has no grammatical gender, so
actions are in the present tense ("проверяет", "избивает") and deaths are noun phrases
("жертва маньяка").

Both read only what a game played with `record=True` keeps: the engine's log and the
turn reports.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sim.engine.game import Game
from sim.engine.newspaper import (
    CLAN_EN,
    CLAN_GEN_RU,
    CLAN_RU,
    ROLE_EN,
    ROLE_RU,
    causes_text,
    render,
    role_label,
)
from sim.engine.report import Death, TurnReport
from sim.game.requests import (
    Action,
    Ambush,
    Beat,
    Blast,
    Check,
    ClanOrder,
    Heal,
    Kill,
    Protect,
    RaiseArmy,
    Strike,
)
from sim.game.roles import Cause, Clan, Reason, Role, Shown
from sim.game.rules import RuleSet

#: Roles with a night request of their own, in the order the log lists them.
NIGHT_ROLES = (Role.KAMIKAZE, Role.THUG, Role.MANIAC, Role.NINJA, Role.DOCTOR,
               Role.NECROMANCER, Role.COMMISSAR, Role.SERGEANT)
#: The `resolve` schema's night key of each acting role.
NIGHT_KEY = {Role.KAMIKAZE: "kamikaze", Role.THUG: "thug", Role.MANIAC: "maniac",
             Role.NINJA: "ninja", Role.DOCTOR: "doctor", Role.NECROMANCER: "necromancer",
             Role.COMMISSAR: "commissar", Role.SERGEANT: "sergeant"}


def _events(game: Game) -> dict[int, list[tuple[Any, ...]]]:
    """The engine's log grouped by turn, in the order logged."""
    by_turn: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for ev in game.log:
        by_turn[int(ev[1])].append(ev)  # type: ignore[call-overload]
    return by_turn


def _check_required(game: Game) -> None:
    if not game.record or len(game.reports) == 0:
        raise ValueError("a game log needs a game played with record=True")


# -- the resolve schema ----------------------------------------------------------------------
def game_json(game: Game) -> dict[str, Any]:
    """The game in the `resolve` schema (docs/resolve.md), with `"chance": "script"`."""
    _check_required(game)
    st = game.st
    names = st.names
    players: list[dict[str, Any]] = []
    for s in range(st.n):
        p: dict[str, Any] = {"name": names[s], "role": st.role[s].key}
        if st.clan[s] is not Clan.NONE:
            p["clan"] = st.clan[s].key
        players.append(p)
    default = RuleSet().as_dict()
    rules = {k: v for k, v in game.rules.as_dict().items() if v != default[k]}
    events = _events(game)
    dons = {ev[2]: names[ev[3]] for ev in events.get(0, []) if ev[0] == "don" and ev[3] >= 0}
    turns = [_turn_json(game, rep, events.get(rep.turn, [])) for rep in game.reports]
    out: dict[str, Any] = {"players": players}
    if rules:
        out["rules"] = rules
    if dons:
        out["dons"] = dons
    out["chance"] = "script"
    out["turns"] = turns
    return out


def _turn_json(game: Game, rep: TurnReport, events: list[tuple[Any, ...]]) -> dict[str, Any]:
    st = game.st
    names = st.names
    turn: dict[str, Any] = {}
    statements = []
    for ev in events:
        if ev[0] != "say":
            continue
        _, _, s, channel, kind, target, value, to = ev
        item: dict[str, Any] = {"by": names[s], "kind": kind}
        if target >= 0:
            item["target"] = names[target]
        if value:
            item["value"] = value
        if channel != "public":
            item["channel"] = channel
        if to >= 0:
            item["to"] = names[to]
        statements.append(item)
    if statements:
        turn["statements"] = statements
    votes = [[names[ev[2]], names[ev[3]]] + ([] if ev[4] else ["rejected"])
             for ev in events if ev[0] == "vote"]
    if votes:
        turn["votes"] = votes
    # The host's lists (D16.1) as they took effect: who left at step 1, 3 and 7.
    for key, step, cause in (("absent", 1, Cause.MISSING), ("removed", 3, Cause.REMOVED),
                             ("passive", 7, Cause.REMOVED)):
        who = [names[d.seat] for d in rep.deaths if d.step == step and d.cause is cause]
        if who:
            turn[key] = who
    night: dict[str, Any] = {}
    for ev in events:
        if ev[0] != "request":
            continue
        seat, req = ev[2], ev[3]
        if isinstance(req, ClanOrder):
            night[req.clan.key] = {"target": names[req.target], "shooter": names[req.shooter],
                                   "by": names[seat]}
            continue
        key = NIGHT_KEY[st.role[seat]]
        item = {"by": names[seat], **_action_json(req, names)}
        if key not in night:
            night[key] = item
        else:  # several players of one role (allow_duplicate_roles): a list
            if not isinstance(night[key], list):
                night[key] = [night[key]]
            night[key].append(item)
    if night:
        turn["night"] = night
    out = rep.outcome
    if out is not None and out.reason is Reason.DUEL_COIN:
        a, b = st.living()
        turn["coin"] = names[a if st.camp[a] == out.winner else b]
    return turn


def _action_json(action: Action, names: tuple[str, ...]) -> dict[str, Any]:
    if isinstance(action, Ambush):
        return {"ambush": True}
    if isinstance(action, Protect):
        return {"protect": [names[t] for t in action.targets]}
    if isinstance(action, RaiseArmy):
        return {"army": [names[t] for t in action.targets]}
    return {"target": names[action.target]}


# -- the log in words ------------------------------------------------------------------------
T = {
    "roles": ("Роли", "Roles"),
    "dons": ("Доны", "Dons"),
    "rules": ("Правила (отличия от стандарта)", "Rules (changed from the defaults)"),
    "turn0": ("Ход 0 (только ночь: ходит один маньяк)", "Turn 0 (night only: the maniac alone)"),
    "turn": ("Ход {t}", "Turn {t}"),
    "day": ("День", "Day"),
    "talk": ("Заявления:", "Statements:"),
    "no_talk": ("Заявлений нет.", "No statements."),
    "votes": ("Голоса в порядке подачи:", "Votes, in the order cast:"),
    "said_here": ("— здесь:", "— here:"),
    "no_votes": ("Никто не голосовал.", "Nobody voted."),
    "rejected": ("голос не принят ведущим", "rejected by the host"),
    "tally": ("Итог голосования", "Tally"),
    "night": ("Ночные заявки", "Night requests"),
    "day_host": ("Ведущий (шаги 1-3):", "The host (steps 1-3):"),
    "no_night": ("Ночи не было: игра окончилась днём.", "No night: the game ended by day."),
    "resolution": ("Решение ведущего (шаги 4-8):", "The host's resolution (steps 4-8):"),
    "nothing": ("никто не погиб", "nobody died"),
    "no_action": ("нет заявки", "no action"),
    "no_order": ("нет заказа", "no order"),
    "order": ("Заказ {clan} (отдал {by}): стреляет {shooter}, цель {target}",
              "{clan} order (sent by {by}): {shooter} shoots {target}"),
    "step": ("шаг {k}", "step {k}"),
    "votes_n": ("голосов: {n}", "{n} votes"),
    "beaten": ("{g} избивает {v}", "{v} beaten by the thug {g}"),
    "check": ("{c} проверяет {t}: {r}", "{c} checked {t}: {r}"),
    "check_ambush": ("{c} идёт с проверкой к {t} и попадает в засаду",
                     "{c} checked {t} and met the ambush"),
    "check_thug": ("; проверяемого этой ночью избивает {g}", "; the target was beaten that night "
                   "by {g}"),
    "seen_by": ("видели: {w}", "seen by {w}"),
    "protect": ("Протект некроманта спасает {x}", "{x} saved by the necromancer's protect"),
    "vest": ("Бронежилет маньяка остановил пулю клана",
             "The maniac's vest stopped a clan's bullet"),
    "army": ("Некромант поднял Армию Тьмы", "The necromancer raised the Army of Darkness"),
    "badge": ("{s} получает значок комиссара со следующего хода",
              "{s} takes the commissar's badge from the next turn"),
    "end": ("Итог: {w} (ход {t}, {r})", "Result: {w} (turn {t}, {r})"),
}
WINNER = {
    "town": ("мирные жители", "Town"), "yakuza": ("Якудза", "the Yakuza"),
    "triad": ("Триада", "the Triad"), "maniac": ("маньяк", "the maniac"),
    "draw": ("ничья", "a draw"), "stalemate": ("лимит ходов", "stalemate"),
}
REASON = {
    "camp_wipe": ("остался один лагерь", "one camp left"),
    "vsb_pair": ("мафиози и его ВСБ остались вдвоём, R17.5",
                 "a mafioso alone with his VSB, R17.5"),
    "duel_votes": ("дуэль: меньше голосов против", "duel: fewer votes against"),
    "duel_first_vote": ("дуэль: первый голос против", "duel: the first vote against"),
    "duel_coin": ("дуэль: жребий ведущего", "duel: the host's coin"),
    "nobody_alive": ("никого не осталось", "nobody left"),
    "turn_limit": ("лимит ходов", "the turn limit"),
}


def statement_line(game: Game, said: tuple[Any, ...], lang: str) -> str:
    """One statement (speaker, channel, kind, target, value, to) as the log words it."""
    return _Writer(game, lang).said(said)


class _Writer:
    def __init__(self, game: Game, lang: str):
        if lang not in ("ru", "en"):
            raise ValueError(f"log language must be ru or en, not {lang!r}")
        self.game = game
        self.st = game.st
        self.ru = lang == "ru"
        self.lang = lang
        self.lines: list[str] = []

    def t(self, key: str, **kw: object) -> str:
        return T[key][0 if self.ru else 1].format(**kw)

    def who(self, s: int) -> str:
        return f"{self.st.names[s]} ({role_label(self.st, s, self.lang)})"

    def value(self, text: str) -> str:
        """A claimed role or an announced check result, in words."""
        try:
            shown: Shown | None = Shown(text)
        except ValueError:
            shown = None
        if shown is None:  # a claim of a role a check never shows (a VSB, a thug...), or a typo
            try:
                return (ROLE_RU if self.ru else ROLE_EN)[Role.parse(text)]
            except ValueError:
                return text  # what the host could not read stays as written
        role = shown.role
        if role is None:  # a clan member's check shows his clan (R7.2)
            return (CLAN_RU if self.ru else CLAN_EN)[shown.clan]
        if role is Role.VSB:
            if self.ru:
                return f"ВСБ {CLAN_GEN_RU[shown.clan]}"
            return f"VSB of the {CLAN_EN[shown.clan]}"
        return (ROLE_RU if self.ru else ROLE_EN)[role]

    def statement(self, ev: tuple[Any, ...]) -> str:
        return self.said(ev[2:])

    def said(self, ev: tuple[Any, ...]) -> str:
        """(speaker, channel, kind, target, value, to) in words."""
        s, channel, kind, target, value, to = ev
        names = self.st.names
        tgt = names[target] if target >= 0 else "?"
        val = self.value(value) if value else ""
        ru = self.ru
        if kind == "claim":
            what = (f"заявляет: я {val}" if ru else f"claims to be the {val}") if val else \
                ("делает заявление" if ru else "makes a claim")
        elif kind == "check":
            what = (f"объявляет проверку: {tgt} — {val}" if ru
                    else f"announces a check: {tgt} is {val}")
        elif kind == "accuse":
            what = f"обвиняет {tgt}" if ru else f"accuses {tgt}"
        elif kind == "defend":
            what = f"защищает {tgt}" if ru else f"defends {tgt}"
        elif kind == "order":
            what = f"предлагает заказать {tgt}" if ru else f"proposes the clan shoots {tgt}"
        else:
            what = f"{kind} {tgt} {val}".strip()
        if channel == "public":
            where = "публично" if ru else "public"
        elif channel == "clan":
            # "в чате клана Триады": the genitive, as a host says it
            where = (f"лично, в чате клана {CLAN_GEN_RU[self.st.clan[s]]}" if ru
                     else f"private, {CLAN_EN[self.st.clan[s]]} clan channel")
        elif channel == "badge":
            where = ("лично, в чате комиссара и сержанта" if ru
                     else "private, commissar and sergeant channel")
        elif channel == "checked":
            where = f"лично для {names[to]}" if ru else f"private, to {names[to]}"
        else:
            where = channel
        return f"{self.who(s)} [{where}]: {what}."

    def action(self, a: Action) -> str:
        names = self.st.names
        ru = self.ru
        if isinstance(a, Ambush):
            return "садится в засаду" if ru else "sits in ambush"
        if isinstance(a, Protect):
            who = ", ".join(names[t] for t in a.targets)
            return f"даёт протект: {who}" if ru else f"gives protects to {who}"
        if isinstance(a, RaiseArmy):
            who = ", ".join(names[t] for t in a.targets)
            return (f"поднимает Армию Тьмы против {who}" if ru
                    else f"raises the Army of Darkness against {who}")
        tgt = names[a.target]
        verbs = {
            Blast: ("взрывается рядом с {x}", "blows himself up next to {x}"),
            Beat: ("избивает {x}", "beats {x}"),
            Kill: ("убивает {x}", "kills {x}"),
            Strike: ("убивает {x}", "strikes {x}"),
            Heal: ("лечит {x}", "heals {x}"),
            Check: ("проверяет {x}", "checks {x}"),
        }
        return verbs[type(a)][0 if ru else 1].format(x=tgt)

    # -- the whole game ---------------------------------------------------------------------
    def write(self) -> str:
        game, st = self.game, self.st
        out = self.lines
        out.append(f"{self.t('roles')}:")
        for s in range(st.n):
            out.append(f"  {self.who(s)}")
        events = _events(game)
        dons = [self.who(ev[3]) for ev in events.get(0, []) if ev[0] == "don" and ev[3] >= 0]
        if dons:
            out.append(f"{self.t('dons')}: {', '.join(dons)}")
        default = RuleSet().as_dict()
        changed = {k: v for k, v in game.rules.as_dict().items() if v != default[k]}
        if changed:
            out.append(f"{self.t('rules')}: "
                       + ", ".join(f"{k}={v}" for k, v in changed.items()))
        alive = [True] * st.n
        badge = [st.role[s] is Role.COMMISSAR for s in range(st.n)]
        for rep in game.reports:
            self.turn(rep, events.get(rep.turn, []), alive, badge)
        o = game.outcome
        if o is not None:
            out.append("")
            out.append(self.t("end", w=WINNER[o.winner.key][0 if self.ru else 1], t=o.turn,
                              r=REASON[o.reason.key][0 if self.ru else 1]))
        return "\n".join(out)

    def turn(self, rep: TurnReport, events: list[tuple[Any, ...]], alive: list[bool],
             badge: list[bool]) -> None:
        st, out, names = self.st, self.lines, self.st.names
        t = rep.turn
        out.append("")
        out.append(f"=== {self.t('turn0') if t == 0 else self.t('turn', t=t)} ===")
        if t > 0:
            out.append(f"{self.t('day')}.")
            said = [ev for ev in events if ev[0] == "say"]
            # A public statement is printed where it was said among the votes (P5.5: the
            # record keeps how many of the day's accepted votes came before it); the rest
            # (private channels, and public ones said before any vote) come first.
            pub = self.game.public
            at = [k for stmt, k in zip(pub.statements, pub.said_at, strict=False)
                  if stmt.turn == t]
            public = [ev for ev in said if ev[3] == "public"]
            mid: dict[int, list[tuple[Any, ...]]] = {}
            if len(at) == len(public):
                for ev, k in zip(public, at, strict=True):
                    if k > 0:
                        mid.setdefault(k, []).append(ev)
            later = {id(ev) for evs in mid.values() for ev in evs}
            first = [ev for ev in said if id(ev) not in later]
            out.append(f"  {self.t('talk') if first else self.t('no_talk')}")
            for ev in first:
                out.append(f"    {self.statement(ev)}")
            votes = [ev for ev in events if ev[0] == "vote"]
            out.append(f"  {self.t('votes') if votes else self.t('no_votes')}")
            tally: dict[int, int] = {}
            accepted = 0
            for k, ev in enumerate(votes, 1):
                line = f"    {k}. {self.who(ev[2])} -> {self.who(ev[3])}"
                if ev[4]:
                    tally[ev[3]] = tally.get(ev[3], 0) + 1
                    line += f"  [{names[ev[3]]}: {tally[ev[3]]}]"
                    accepted += 1
                else:
                    line += f"  ({self.t('rejected')})"
                out.append(line)
                if ev[4]:
                    for said_ev in mid.pop(accepted, []):
                        out.append(f"       {self.t('said_here')} {self.statement(said_ev)}")
            if tally:
                top = sorted(tally.items(), key=lambda kv: -kv[1])
                out.append(f"  {self.t('tally')}: "
                           + ", ".join(f"{names[s]} {n}" for s, n in top))
        day = [d for d in rep.deaths if d.step <= 3]
        if day:
            out.append(f"  {self.t('day_host')}")
            for d in day:
                out.append(f"    {self.death(rep, d)}")
                alive[d.seat] = False
        requests = {ev[2]: ev[3] for ev in events
                    if ev[0] == "request" and not isinstance(ev[3], ClanOrder)}
        orders = {ev[3].clan: ev[3] for ev in events
                  if ev[0] == "request" and isinstance(ev[3], ClanOrder)}
        # A camp's win with the last removal at steps 1-3 ended the game by day (D4.2).
        day_end = (rep.outcome is not None and bool(rep.deaths)
                   and rep.outcome.reason in (Reason.CAMP_WIPE, Reason.VSB_PAIR,
                                              Reason.NOBODY_ALIVE)
                   and all(d.step <= 3 for d in rep.deaths))
        if day_end:
            out.append(f"{self.t('no_night')}")
            out.append("  " + render(self.st, rep, self.lang).replace("\n", "\n  "))
            return
        else:
            out.append(f"{self.t('night')}:")
            if t > 0:
                for clan in (Clan.YAKUZA, Clan.TRIAD):
                    if not any(alive[m] for m in st.members[clan]):
                        continue
                    cname = (CLAN_RU if self.ru else CLAN_EN)[clan]
                    if clan in orders:
                        o = orders[clan]
                        whose = CLAN_GEN_RU[clan] if self.ru else cname
                        text = self.t("order", clan=whose, by=names[o.by],
                                      shooter=self.who(o.shooter), target=self.who(o.target))
                        out.append(f"  {text}")
                    else:
                        out.append(f"  {cname}: {self.t('no_order')}")
            for role in NIGHT_ROLES:
                if t == 0 and role is not Role.MANIAC:
                    continue  # R3.1
                for s in st.seats_by_role[role]:
                    if s in requests:
                        out.append(f"  {self.who(s)}: {self.action(requests[s])}")
                    elif alive[s] and (role is not Role.SERGEANT or badge[s]):
                        out.append(f"  {self.who(s)}: {self.t('no_action')}")
        for d in rep.deaths:
            alive[d.seat] = False
        self.resolution(rep, events)
        for ev in events:
            if ev[0] == "badge":
                badge[ev[2]] = True

    def death(self, rep: TurnReport, d: Death) -> str:
        causes = causes_text(d.causes, self.lang)
        extra = ""
        if d.cause is Cause.HANGED:
            n = sum(1 for _, target in rep.votes if target == d.seat)
            extra = f" ({self.t('votes_n', n=n)})"
        return f"{self.t('step', k=d.step)}: {self.who(d.seat)}: {causes}{extra}."

    def resolution(self, rep: TurnReport, events: list[tuple[Any, ...]]) -> None:
        out, names = self.lines, self.st.names
        out.append(self.t("resolution"))
        night = [d for d in rep.deaths if d.step > 3]
        if not night:
            out.append(f"  {self.t('nothing')}.")
        for d in night:
            out.append(f"  {self.death(rep, d)}")
        for ev in events:
            if ev[0] == "beaten":
                out.append(f"  {self.t('beaten', v=self.who(ev[2]), g=self.who(ev[3]))}.")
        for c in rep.checks:
            if c.result is None:
                out.append(f"  {self.t('check_ambush', c=self.who(c.by), t=self.who(c.target))}.")
                continue
            line = self.t("check", c=self.who(c.by), t=names[c.target], r=self.value(c.result))
            if c.thug >= 0:
                line += self.t("check_thug", g=self.who(c.thug))
            line += "; " + self.t("seen_by", w=", ".join(names[s] for s in c.seen_by))
            out.append(f"  {line}.")
        for x in rep.protects_fired:
            out.append(f"  {self.t('protect', x=self.who(x))}.")
        if rep.vest_spent:
            out.append(f"  {self.t('vest')}.")
        if rep.army_raised:
            out.append(f"  {self.t('army')}.")
        for ev in events:
            if ev[0] == "badge":
                out.append(f"  {self.t('badge', s=self.who(ev[2]))}.")
        out.append("  " + render(self.st, rep, self.lang).replace("\n", "\n  "))


def game_log(game: Game, lang: str = "en") -> str:
    """Every turn of a game played with record=True, in full, in `lang` (`en` or `ru`)."""
    _check_required(game)
    return _Writer(game, lang).write()
