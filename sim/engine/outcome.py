"""The end of the game, read like R17 (one flat function, one comment per check)."""

from __future__ import annotations

from numpy.random import Generator

from sim.engine.state import GameState
from sim.game.roles import CLAN_ROLES, Camp, Reason, Role, Winner


def camp_result(st: GameState) -> tuple[Winner, Reason] | None:
    """Wins checked after every step that removes a player (D4.2); None while the game is on."""
    count = st.alive_count
    total = st.n_alive
    # D17.3: nobody alive is a draw.
    if total == 0:
        return (Winner.DRAW, Reason.NOBODY_ALIVE)
    # R17.5: a mafioso and his own clan's VSB are the last two: Town wins.
    if total == 2 and _vsb_pair(st):
        return (Winner.TOWN, Reason.VSB_PAIR)
    # R17.1 / D17.1: only Town alive (every mafioso and the maniac dead).
    if count[Camp.TOWN] == total:
        return (Winner.TOWN, Reason.CAMP_WIPE)
    # R17.2: only one clan's members alive.
    if count[Camp.YAKUZA] == total:
        return (Winner.YAKUZA, Reason.CAMP_WIPE)
    if count[Camp.TRIAD] == total:
        return (Winner.TRIAD, Reason.CAMP_WIPE)
    # R17.3: the maniac alone.
    if count[Camp.MANIAC] == total:
        return (Winner.MANIAC, Reason.CAMP_WIPE)
    return None


def _vsb_pair(st: GameState) -> bool:
    a, b = st.living()
    for x, y in ((a, b), (b, a)):
        if st.role[x] in CLAN_ROLES and st.role[y] is Role.VSB and st.clan[x] is st.clan[y]:
            return True
    return False


def duel_result(st: GameState, rng: Generator) -> tuple[Winner, Reason] | None:
    """R17.4: after a night, exactly two players of opposing camps remain (P17.1)."""
    if st.n_alive != 2 or not st.rules.duel:
        return None
    a, b = st.living()
    if st.camp[a] is st.camp[b]:
        return None  # pragma: no cover - a camp win already ended the game
    va, vb = st.votes_against[a], st.votes_against[b]
    # Fewer votes against over the whole game wins (R17.4, P17.2).
    if va != vb:
        return (Winner(int(st.camp[a] if va < vb else st.camp[b])), Reason.DUEL_VOTES)
    # Equal: the one against whom a vote was cast first loses (D17.2).
    if va > 0:
        loser_a = st.first_vote_at[a] < st.first_vote_at[b]
        return (Winner(int(st.camp[b] if loser_a else st.camp[a])), Reason.DUEL_FIRST_VOTE)
    # Neither ever got a vote: a fair coin from the game's host stream (D17.2, sim.play.streams).
    a_wins = rng.random() < 0.5
    return (Winner(int(st.camp[a] if a_wins else st.camp[b])), Reason.DUEL_COIN)
