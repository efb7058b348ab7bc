"""What each player may ask for, and why a request is illegal.

The `*_fault` functions are the single source of truth: they return the rule a request
breaks (rule id and reason) or None. Validation raises on a fault; the `legal_*` listings are
the candidates with no fault, which is what a random agent draws from. No action at all is
always legal and is not listed.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from sim.engine.state import GameState
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

Fault = tuple[str, str]  # (rule id, why)

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


def _present(st: GameState, seat: int, absent: Collection[int]) -> Fault | None:
    if seat in absent:
        return ("P3.2", f"{st.names[seat]} posted nothing this turn (R16.1)")
    if not st.alive[seat]:
        return ("P3.2", f"{st.names[seat]} is dead")
    return None


def _living_target(st: GameState, target: int) -> Fault | None:
    if not 0 <= target < st.n:
        return ("P3.1", f"no player at seat {target}")
    if not st.alive[target]:
        return ("P3.1", f"{st.names[target]} is dead")
    return None


# -- votes ------------------------------------------------------------------------------------
def vote_fault(
    st: GameState, voter: int, target: int, absent: Collection[int], voted: Collection[int]
) -> Fault | None:
    """Why `voter` may not vote against `target` now (R5, P5.1, P5.2)."""
    if st.turn == 0:
        return ("R3.1", "turn 0 has no vote")
    fault = _present(st, voter, absent)
    if fault:
        return fault
    if voter in st.beaten_today:
        return ("R5.5", f"{st.names[voter]} was beaten by the thug last night and cannot vote")
    if voter in voted:
        return ("R5.1", f"{st.names[voter]} has already voted this turn")
    if voter == target:
        return ("P5.1", "a player cannot vote for himself")
    return _living_target(st, target)


def legal_votes(
    st: GameState, voter: int, absent: Collection[int] = (), voted: Collection[int] = ()
) -> list[Vote]:
    return [
        Vote(voter, t) for t in range(st.n) if vote_fault(st, voter, t, absent, voted) is None
    ]


# -- clan orders ------------------------------------------------------------------------------
def order_fault(
    st: GameState,
    order: ClanOrder,
    absent: Collection[int] = (),
    senders_left: Collection[int] = (),
    dons: Collection[int] | None = None,
) -> Fault | None:
    """Why a clan's order may not stand (R14, D14.1, R6.2).

    `dons`: the seats that count as the clan's Don for this order (default the current Don;
    at night the host also accepts the Don of the start of the turn, P14.3). The first of
    them is the Don when the order was sent: an order with `by` -1 comes from him, and
    R14.3 binds him alone. A sender in `senders_left` left the game at steps 1-3 after
    sending it, and his order stands (P14.3)."""
    clan = order.clan
    if clan is Clan.NONE:
        return ("R14.1", "an order needs a clan")
    if st.turn == 0:
        return ("R6.2", "on turn 0 only the maniac's requests are accepted")
    members = st.members[clan]
    living = [m for m in members if st.alive[m]]
    if not living:
        return ("R14.1", f"the {clan.key} has no living member")
    don_seats = [d for d in ([st.don[clan]] if dons is None else dons) if d >= 0]
    by = order.by if order.by >= 0 else (don_seats[0] if don_seats else -1)
    if by < 0:
        return ("R14.4", f"the {clan.key} has no Don: the order must name who sends it")
    if not 0 <= by < st.n or by not in members:
        name = st.names[by] if 0 <= by < st.n else str(by)
        return ("R14.1", f"{name} is not a {clan.key} member")
    fault = _present(st, by, absent)
    if fault and not (by in senders_left and by not in absent):
        return fault
    is_don = by in don_seats
    if not is_don and order.shooter != by:
        return (
            "R14.4",
            f"the order of {st.names[by]}, not the Don, makes him the shooter, "
            f"not {st.names[order.shooter]}",
        )
    shooter = order.shooter
    if not 0 <= shooter < st.n or shooter not in members:
        name = st.names[shooter] if 0 <= shooter < st.n else str(shooter)
        return ("R14.1", f"the shooter {name} is not a {clan.key} member")
    fault = _present(st, shooter, absent)
    if fault:
        return fault
    if don_seats and by == don_seats[0] and shooter == by and len(living) > 1:
        return ("R14.3", "the Don is not the shooter while another clan member is alive")
    fault = _living_target(st, order.target)
    if fault:
        return fault
    if order.target in members:
        return ("R14.2", f"a clan cannot shoot its own member {st.names[order.target]}")
    if order.target == st.vsb_of[clan]:
        return ("R14.2", f"a clan cannot kill its own VSB {st.names[order.target]}")
    return None


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
        return ("R12.5", "the Army is raised once a game")
    if not st.heroes:
        return ("D12.4", "there is no positive hero in this game")
    for h in st.heroes:
        if st.alive[h]:
            return ("R12.5", f"the positive hero {st.names[h]} is alive")
    for h in st.heroes:
        cause = st.cause[h]
        if cause not in ARMY_CAUSES:
            rule = "R12.6" if cause is not None and cause.key == "hanged" else "D12.3"
            how = cause.key if cause is not None else "unknown"
            return (rule, f"the positive hero {st.names[h]} died of {how}, not at the hands "
                          "of the mafia or the maniac")
    others = st.n_alive - (1 if st.alive[necro] else 0)
    if others < st.rules.army_min_living:
        return ("R12.6", f"only {others} living players besides the necromancer "
                         f"(needs {st.rules.army_min_living})")
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
        return ("R1", f"a {role.key} cannot send this request")
    fault = _present(st, seat, absent)
    if fault:
        return fault
    turn = st.turn
    if turn == 0 and role is not Role.MANIAC:
        return ("R6.2", "on turn 0 only the maniac's requests are accepted")
    rules = st.rules
    if isinstance(action, Blast):
        if st.blast_used[seat]:
            return ("R13.1", "the kamikaze blows up once a game")
        if action.target == seat:
            return ("D13.1", "the kamikaze cannot target himself")
        fault = _living_target(st, action.target)
        if fault:
            return fault
        if action.target == st.vsb_of[st.clan[seat]]:
            return ("D13.1", "the kamikaze cannot target his own clan's VSB")
        return None
    if isinstance(action, Beat):
        if seat in shooters:
            return ("R10.3", "the thug is his clan's shooter tonight: he beats or shoots, "
                             "not both (P10.2)")
        if action.target == seat:
            return ("P10.1", "the thug cannot beat himself")
        fault = _living_target(st, action.target)
        if fault:
            return fault
        if st.beaten_ever[action.target]:
            return ("R10.2", f"{st.names[action.target]} was already beaten this game")
        if action.target == st.vsb_of[st.clan[seat]]:
            return ("R10.2", "the thug cannot beat his own clan's VSB")
        return None
    if isinstance(action, Kill):
        if action.target == seat:
            return ("R9.5", "the maniac cannot kill himself")
        return _living_target(st, action.target)
    if isinstance(action, Ambush):
        if not rules.maniac_ambush:
            return ("R9.3", "the ambush is off in this rule set (maniac_ambush)")
        if st.ambush_used[seat]:
            return ("R9.3", "the maniac sits in ambush once a game")
        return None
    if isinstance(action, Strike):
        if action.target == seat:
            return ("P11.1", "the ninja cannot strike himself")
        return _living_target(st, action.target)
    if isinstance(action, Heal):
        if action.target == seat and not rules.doctor_self_heal:
            return ("R8.4", "the doctor cannot heal himself")
        if action.target == st.last_heal[seat] and not rules.doctor_repeat_heal:
            return ("R8.3", f"the doctor healed {st.names[action.target]} last turn")
        return _living_target(st, action.target)
    if isinstance(action, Protect):
        if turn not in (1, 2):
            return ("D12.1", "protects are handed out on turns 1 and 2 only")
        targets = action.targets
        if not targets:
            return ("R12.1", "a protect names a player")
        if len(targets) > st.protects_left[seat]:
            return ("R12.1", f"the necromancer has {st.protects_left[seat]} protects left")
        if len(set(targets)) != len(targets):
            return ("P12.1", "two protects on one player")
        for t in targets:
            if t == seat:
                return ("R12.2", "the necromancer cannot protect himself")
            fault = _living_target(st, t)
            if fault:
                return fault
            if st.protect_by[t] >= 0:
                return ("P12.1", f"{st.names[t]} already holds a protect")
        return None
    if isinstance(action, RaiseArmy):
        targets = action.targets
        if len(targets) != 2 or targets[0] == targets[1]:
            return ("P12.3", "the Army kills two different players")
        for t in targets:
            if t == seat:
                return ("P12.3", "the Army's targets are players other than the necromancer")
            fault = _living_target(st, t)
            if fault:
                return fault
        return army_fault(st, seat)
    if isinstance(action, Check):
        if not st.badge[seat]:
            return ("R7.5", "the sergeant checks only from the turn after the commissar died")
        if action.target == seat:
            return ("P7.1", "the commissar cannot check himself")
        return _living_target(st, action.target)
    return ("R1", "unknown request")  # pragma: no cover


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
) -> tuple[int, str, Fault] | None:
    """The first fault of a night's requests: (actor seat, request text, fault), else None."""
    names = st.names
    for clan, order in night.orders.items():
        if order.clan is not clan:
            return (order.by, order.text(names), ("R14.1", "order filed under the wrong clan"))
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

