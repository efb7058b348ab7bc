"""What each player may ask for, and why a request is illegal: every rule of legality, once.

Each rule is written once, as a function of the facts it needs (`blast_fault`,
`heal_fault`, `ballot_fault`, ...), which returns the rule a request breaks (rule id and
reason) or None. Two kinds of caller ask them, each with its own facts:

- the host, on the true state: `vote_fault`, `order_fault`, `action_fault` (the engine
  checks every request with them, `sim.engine.game.Game.cast_vote` and the rest, and a
  game file through `night_fault`); the `legal_*` listings here are the candidates with no
  fault, which the page offers a host;
- a player, on his view: `PlayerView.legal_votes`, `legal_actions` and `legal_orders`
  (sim.engine.view), what the host would accept from him; a player knows every fact his
  own requests depend on (his clan and its VSB, his own uses and protects, what is public),
  and the Army's conditions are the host's answer (P12.7).

No action at all is always legal and is not listed.
"""

from __future__ import annotations

from collections.abc import Collection, Container
from typing import Final

from sim.engine.state import GameState
from sim.game.messages import Msg, msg, nmsg
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
    Vote,
)
from sim.game.roles import ARMY_CAUSES, Clan, Role
from sim.game.rules import RuleSet

Fault = tuple[str, Msg]  # (rule id, why: a message, sim.game.messages)

#: The roles that may send each kind of action.
ACTION_ROLES: Final[dict[type, tuple[Role, ...]]] = {
    Blast: (Role.KAMIKAZE,),
    Beat: (Role.THUG,),
    Kill: (Role.MANIAC,),
    Ambush: (Role.MANIAC,),
    Strike: (Role.NINJA,),
    Heal: (Role.DOCTOR,),
    Protect: (Role.NECROMANCER,),
    RaiseArmy: (Role.NECROMANCER,),
    Check: (Role.COMMISSAR, Role.SERGEANT),
}


# -- each rule once, on the facts it needs ------------------------------------------------------
# `alive` and `names` are the table's (public); the rest are the actor's own facts.
def present_fault(seat: int, alive: list[bool], absent: Container[int],
                  names: tuple[str, ...]) -> Fault | None:
    """The actor is here to ask (P3.2): alive, and posted this turn (R16.1)."""
    if seat in absent:
        return ("P3.2", msg("{player} posted nothing this turn (R16.1)", player=names[seat]))
    if not alive[seat]:
        return ("P3.2", msg("{player} is dead", player=names[seat]))
    return None


def living_target_fault(target: int, alive: list[bool],
                        names: tuple[str, ...]) -> Fault | None:
    """A request names a living player (P3.1)."""
    if not 0 <= target < len(alive):
        return ("P3.1", msg("no player at seat {seat}", seat=target))
    if not alive[target]:
        return ("P3.1", msg("{player} is dead", player=names[target]))
    return None


def ballot_fault(turn: int, voter: int, target: int, alive: list[bool],
                 absent: Container[int], beaten_today: Container[int],
                 voted: Container[int], names: tuple[str, ...]) -> Fault | None:
    """Why `voter` may not vote against `target` now (R3.1, R5, P5.1, P5.2)."""
    if turn == 0:
        return ("R3.1", Msg("turn 0 has no vote"))
    fault = present_fault(voter, alive, absent, names)
    if fault:
        return fault
    if voter in beaten_today:
        return ("R5.5", msg("{player} was beaten by the thug last night and cannot vote",
                             player=names[voter]))
    if voter in voted:
        return ("R5.1", msg("{player} has already voted this turn", player=names[voter]))
    if voter == target:
        return ("P5.1", Msg("a player cannot vote for himself"))
    return living_target_fault(target, alive, names)


def night_turn_fault(turn: int, role: Role) -> Fault | None:
    """On turn 0 only the maniac acts (R6.2, R3.1)."""
    if turn == 0 and role is not Role.MANIAC:
        return ("R6.2", Msg("on turn 0 only the maniac's requests are accepted"))
    return None


def blast_fault(seat: int, target: int, used: bool, vsb: int, alive: list[bool],
                names: tuple[str, ...]) -> Fault | None:
    """The kamikaze's blast (R13.1, D13.1); `vsb`: his clan's VSB (-1: none)."""
    if used:
        return ("R13.1", Msg("the kamikaze blows up once a game"))
    if target == seat:
        return ("D13.1", Msg("the kamikaze cannot target himself"))
    fault = living_target_fault(target, alive, names)
    if fault:
        return fault
    if target == vsb:
        return ("D13.1", Msg("the kamikaze cannot target his own clan's VSB"))
    return None


def beat_fault(seat: int, target: int, shoots: bool, beaten_ever: list[bool], vsb: int,
               alive: list[bool], names: tuple[str, ...]) -> Fault | None:
    """The thug's beating (R10.1-R10.3); `shoots`: he is his clan's shooter tonight."""
    if shoots:
        return ("R10.3", Msg("the thug is his clan's shooter tonight: he beats or "
                                   "shoots, not both (P10.2)"))
    if target == seat:
        return ("P10.1", Msg("the thug cannot beat himself"))
    fault = living_target_fault(target, alive, names)
    if fault:
        return fault
    if beaten_ever[target]:
        return ("R10.2", msg("{player} was already beaten this game", player=names[target]))
    if target == vsb:
        return ("R10.2", Msg("the thug cannot beat his own clan's VSB"))
    return None


def kill_fault(seat: int, target: int, alive: list[bool],
               names: tuple[str, ...]) -> Fault | None:
    """The maniac's kill (R9.1, R9.5)."""
    if target == seat:
        return ("R9.5", Msg("the maniac cannot kill himself"))
    return living_target_fault(target, alive, names)


def ambush_fault(rules: RuleSet, used: bool) -> Fault | None:
    """The maniac's ambush (R9.3)."""
    if not rules.maniac_ambush:
        return ("R9.3", Msg("the ambush is off in this rule set (maniac_ambush)"))
    if used:
        return ("R9.3", Msg("the maniac sits in ambush once a game"))
    return None


def strike_fault(seat: int, target: int, alive: list[bool],
                 names: tuple[str, ...]) -> Fault | None:
    """The ninja's strike (R11.1, P11.1)."""
    if target == seat:
        return ("P11.1", Msg("the ninja cannot strike himself"))
    return living_target_fault(target, alive, names)


def heal_fault(seat: int, target: int, last_heal: int, rules: RuleSet, alive: list[bool],
               names: tuple[str, ...]) -> Fault | None:
    """The doctor's heal (R8.3, R8.4, and their options)."""
    if target == seat and not rules.doctor_self_heal:
        return ("R8.4", Msg("the doctor cannot heal himself"))
    if target == last_heal and not rules.doctor_repeat_heal:
        return ("R8.3", msg("the doctor healed {player} last turn", player=names[target]))
    return living_target_fault(target, alive, names)


def protect_fault(seat: int, targets: tuple[int, ...], turn: int, left: int,
                  held: Container[int], alive: list[bool],
                  names: tuple[str, ...]) -> Fault | None:
    """The necromancer's protects (D12.1, R12.1, R12.2, P12.1); `left`: his protects left,
    `held`: who holds a protect already."""
    if turn not in (1, 2):
        return ("D12.1", Msg("protects are handed out on turns 1 and 2 only"))
    if not targets:
        return ("R12.1", Msg("a protect names a player"))
    if len(targets) > left:
        return ("R12.1", nmsg("the necromancer has {n} protect left",
                              "the necromancer has {n} protects left", left))
    if len(set(targets)) != len(targets):
        return ("P12.1", Msg("two protects on one player"))
    for t in targets:
        if t == seat:
            return ("R12.2", Msg("the necromancer cannot protect himself"))
        fault = living_target_fault(t, alive, names)
        if fault:
            return fault
        if t in held:
            return ("P12.1", msg("{player} already holds a protect", player=names[t]))
    return None


def army_targets_fault(seat: int, targets: tuple[int, ...], alive: list[bool],
                       names: tuple[str, ...]) -> Fault | None:
    """The Army's two victims (P12.3); whether it may rise at all is army_fault's."""
    if len(targets) != 2 or targets[0] == targets[1]:
        return ("P12.3", Msg("the Army kills two different players"))
    for t in targets:
        if t == seat:
            return ("P12.3", Msg("the Army's targets are players other than the necromancer"))
        fault = living_target_fault(t, alive, names)
        if fault:
            return fault
    return None


def check_fault(seat: int, target: int, badge: bool, alive: list[bool],
                names: tuple[str, ...]) -> Fault | None:
    """The commissar's (or the sergeant's, after R7.5) check (R7.1, P7.1)."""
    if not badge:
        return ("R7.5", Msg("the sergeant checks only from the turn after the commissar died"))
    if target == seat:
        return ("P7.1", Msg("the commissar cannot check himself"))
    return living_target_fault(target, alive, names)



# -- votes ------------------------------------------------------------------------------------
def vote_fault(
    st: GameState, voter: int, target: int, absent: Collection[int], voted: Collection[int]
) -> Fault | None:
    """Why `voter` may not vote against `target` now (ballot_fault, on the state)."""
    return ballot_fault(st.turn, voter, target, st.alive, absent, st.beaten_today, voted,
                        st.names)


def legal_votes(
    st: GameState, voter: int, absent: Collection[int] = (), voted: Collection[int] = ()
) -> list[Vote]:
    return [
        Vote(voter, t) for t in range(st.n) if vote_fault(st, voter, t, absent, voted) is None
    ]


# -- clan orders ------------------------------------------------------------------------------
def clan_order_fault(order: ClanOrder, turn: int, members: tuple[int, ...], vsb: int,
                     dons: list[int], alive: list[bool], absent: Container[int],
                     names: tuple[str, ...],
                     senders_left: Container[int] = ()) -> Fault | None:
    """Why a clan's order may not stand (R14, D14.1, R6.2), on the facts its members know:
    the clan's `members` and `vsb`, and `dons`, the seats that count as its Don for this
    order (the first is the Don when it was sent: an order with `by` -1 comes from him, and
    R14.3 binds him alone). A sender in `senders_left` left the game at steps 1-3 after
    sending it, and his order stands (P14.3)."""
    clan = order.clan
    if clan is Clan.NONE:
        return ("R14.1", Msg("an order needs a clan"))
    if turn == 0:
        return ("R6.2", Msg("on turn 0 only the maniac's requests are accepted"))
    living = [m for m in members if alive[m]]
    if not living:
        return ("R14.1", msg("the {clan} has no living member", clan=Msg(clan.key)))
    n = len(alive)
    by = order.by if order.by >= 0 else (dons[0] if dons else -1)
    if by < 0:
        return ("R14.4", msg("the {clan} has no Don: the order must name who sends it",
                               clan=Msg(clan.key)))
    if not 0 <= by < n or by not in members:
        name = names[by] if 0 <= by < n else str(by)
        return ("R14.1", msg("{player} is not a {clan} member", player=name, clan=Msg(clan.key)))
    fault = present_fault(by, alive, absent, names)
    if fault and not (by in senders_left and by not in absent):
        return fault
    is_don = by in dons
    if not is_don and order.shooter != by:
        return (
            "R14.4",
            msg("the order of {player}, not the Don, makes him the shooter, not {shooter}",
                player=names[by], shooter=names[order.shooter]),
        )
    shooter = order.shooter
    if not 0 <= shooter < n or shooter not in members:
        name = names[shooter] if 0 <= shooter < n else str(shooter)
        return ("R14.1", msg("the shooter {player} is not a {clan} member", player=name,
                               clan=Msg(clan.key)))
    fault = present_fault(shooter, alive, absent, names)
    if fault:
        return fault
    if dons and by == dons[0] and shooter == by and len(living) > 1:
        return ("R14.3", Msg("the Don is not the shooter while another clan member is alive"))
    fault = living_target_fault(order.target, alive, names)
    if fault:
        return fault
    if order.target in members:
        return ("R14.2", msg("a clan cannot shoot its own member {player}",
                               player=names[order.target]))
    if order.target == vsb:
        return ("R14.2", msg("a clan cannot kill its own VSB {player}", player=names[order.target]))
    return None


def order_fault(
    st: GameState,
    order: ClanOrder,
    absent: Collection[int] = (),
    senders_left: Collection[int] = (),
    dons: Collection[int] | None = None,
) -> Fault | None:
    """Why a clan's order may not stand (clan_order_fault, on the state). `dons`: the seats
    that count as the clan's Don for this order (default the current Don; at night the host
    also accepts the Don of the start of the turn, P14.3)."""
    clan = order.clan
    if clan is Clan.NONE:
        return ("R14.1", Msg("an order needs a clan"))
    don_seats = [d for d in ([st.don[clan]] if dons is None else dons) if d >= 0]
    return clan_order_fault(order, st.turn, st.members[clan], st.vsb_of[clan], don_seats,
                            st.alive, absent, st.names, senders_left)


def legal_orders(st: GameState, clan: Clan, absent: Collection[int] = ()) -> list[ClanOrder]:
    """Every order the clan may send: by the Don, and by each member as the shooter himself
    (accepted when the Don is silent, R14.4)."""
    living = [m for m in st.members[clan] if st.alive[m] and m not in absent]
    # The Don's orders, and (R14.4, should he be silent) each member's own.
    senders = ([-1] if st.don[clan] >= 0 else []) + [m for m in living if m != st.don[clan]]
    out = []
    for by in senders:
        for shooter in living if by < 0 else [by]:
            for target in range(st.n):
                order = ClanOrder(clan, target, shooter, by)
                if order_fault(st, order, absent) is None:
                    out.append(order)
    return out


# -- a player's own actions -------------------------------------------------------------------
def army_fault(st: GameState, necro: int) -> Fault | None:
    """Why the Army of Darkness cannot be raised now (R12.5, R12.6, D12.3, D12.4)."""
    if st.army_used:
        return ("R12.5", Msg("the Army is raised once a game"))
    if not st.heroes:
        return ("D12.4", Msg("there is no positive hero in this game"))
    for h in st.heroes:
        if st.alive[h]:
            return ("R12.5", msg("the positive hero {player} is alive", player=st.names[h]))
    for h in st.heroes:
        cause = st.cause[h]
        if cause not in ARMY_CAUSES:
            rule = "R12.6" if cause is not None and cause.key == "hanged" else "D12.3"
            how = Msg(cause.key if cause is not None else "unknown")
            return (rule, msg("the positive hero {player} died of {cause}, not at the hands "
                              "of the mafia or the maniac", player=st.names[h], cause=how))
    others = st.n_alive - (1 if st.alive[necro] else 0)
    if others < st.rules.army_min_living:
        return ("R12.6", nmsg("only {n} living player besides the necromancer (needs {needs})",
                              "only {n} living players besides the necromancer (needs {needs})",
                              others, needs=st.rules.army_min_living))
    return None


def action_fault(
    st: GameState,
    seat: int,
    action: Action,
    absent: Collection[int] = (),
    shooters: Collection[int] = (),
) -> Fault | None:
    """Why `seat` may not send `action` this turn (`shooters`: tonight's clan shooters)."""
    role = st.role[seat]
    kind = type(action)
    allowed = ACTION_ROLES.get(kind, ())
    if role not in allowed:
        return ("R1", msg("a {role} cannot send this request", role=Msg(role.key)))
    alive, names = st.alive, st.names
    fault = present_fault(seat, alive, absent, names) or night_turn_fault(st.turn, role)
    if fault:
        return fault
    if isinstance(action, Blast):
        return blast_fault(seat, action.target, st.blast_used[seat], st.vsb_of[st.clan[seat]],
                           alive, names)
    if isinstance(action, Beat):
        return beat_fault(seat, action.target, seat in shooters, st.beaten_ever,
                          st.vsb_of[st.clan[seat]], alive, names)
    if isinstance(action, Kill):
        return kill_fault(seat, action.target, alive, names)
    if isinstance(action, Ambush):
        return ambush_fault(st.rules, st.ambush_used[seat])
    if isinstance(action, Strike):
        return strike_fault(seat, action.target, alive, names)
    if isinstance(action, Heal):
        return heal_fault(seat, action.target, st.last_heal[seat], st.rules, alive, names)
    if isinstance(action, Protect):
        holders = [t for t in action.targets if 0 <= t < st.n and st.protect_by[t] >= 0]
        return protect_fault(seat, action.targets, st.turn, st.protects_left[seat], holders,
                             alive, names)
    if isinstance(action, RaiseArmy):
        return army_targets_fault(seat, action.targets, alive, names) or army_fault(st, seat)
    if isinstance(action, Check):
        return check_fault(seat, action.target, st.badge[seat], alive, names)
    return ("R1", Msg("unknown request"))  # pragma: no cover


def candidate_actions(st: GameState, seat: int) -> list[Action]:
    """Every action of the seat's role, legal or not."""
    role = st.role[seat]
    n = st.n
    if role is Role.KAMIKAZE:
        return [Blast(t) for t in range(n)]
    if role is Role.THUG:
        return [Beat(t) for t in range(n)]
    if role is Role.MANIAC:
        return [*(Kill(t) for t in range(n)), Ambush()]
    if role is Role.NINJA:
        return [Strike(t) for t in range(n)]
    if role is Role.DOCTOR:
        return [Heal(t) for t in range(n)]
    if role is Role.NECROMANCER:
        out: list[Action] = [Protect((a,)) for a in range(n)]
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
        out += [Protect(p) for p in pairs]
        out += [RaiseArmy(p) for p in pairs]
        return out
    if role in (Role.COMMISSAR, Role.SERGEANT):
        return [Check(t) for t in range(n)]
    return []


def legal_actions(
    st: GameState, seat: int, absent: Collection[int] = (), shooters: Collection[int] = ()
) -> list[Action]:
    """Every legal action of the seat now (no action is always legal too)."""
    if not st.alive[seat]:
        return []
    return [a for a in candidate_actions(st, seat)
            if action_fault(st, seat, a, absent, shooters) is None]


def night_fault(
    st: GameState,
    night: NightRequests,
    absent: Collection[int] = (),
    senders_left: Collection[int] = (),
    dons: list[list[int]] | None = None,
) -> tuple[int, Msg, Fault] | None:
    """The first fault of a night's requests: (actor seat, request text, fault), else None."""
    names = st.names
    for clan, order in night.orders.items():
        if order.clan is not clan:
            return (order.by, order.text(names), ("R14.1", Msg("order filed under the wrong clan")))
        fault = order_fault(st, order, absent, senders_left,
                            None if dons is None else dons[clan])
        if fault:
            by = st.don[clan] if order.by < 0 else order.by
            if by < 0 and dons is not None and dons[clan]:
                by = dons[clan][0]
            return (by, order.text(names), fault)
    shooters = {order.shooter for order in night.orders.values()}
    for seat, action in night.actions.items():
        fault = action_fault(st, seat, action, absent, shooters)
        if fault:
            return (seat, action.text(names), fault)
    return None

