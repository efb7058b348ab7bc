"""The page's own words, in English: each is the id of its message in the catalogs
(`sim/locale/<lang>/LC_MESSAGES/mafia_sim.po`), under its key as gettext's msgctxt, and is
worded per language by `sim.game.i18n.Words`. A pair is a word with plural forms: the
singular and the plural in English, as many forms as the language has in its catalog (three in
Russian), chosen by the value `n`.

The engine's messages (a D2.1 fault, an illegal request, a game file's error) are not here:
they are messages of their own (sim.game.messages) and go through the same catalogs."""

from __future__ import annotations

from collections.abc import Callable

from sim.game.i18n import LANGS, Words
from sim.game.messages import Msg

__all__ = ["LANGS", "PAGE", "page_msg", "translator", "words_of"]

#: key -> English text, or (singular, plural) for a word with plural forms
PAGE: dict[str, str | tuple[str, str]] = {
    "title": "Mafia: the host's page",
    "nav_table": "Pick a table",
    "nav_compare": "Compare",
    "nav_host": "Host a game",
    "offline": "Everything is computed on this computer; nothing is sent anywhere.",
    "table_intro": "Choose the players and roles: the page plays games with the agents and shows "
                   "each camp's win share with its 95% interval.",
    "players": "Players",
    "standard": "Standard table",
    "roles": "Roles",
    "rules": "Rule options",
    "games": "Games",
    "seed": "Seed",
    "total": "Players in all",
    "run": "Run",
    "results": "Who wins",
    "camp": "Camp",
    "share": "Win share",
    "interval": "95% interval",
    "wins": "Wins",
    "cancelled": "Stopped",
    "stop": "Stop",
    "waiting": "Working…",
    "recommended_none": "Recommendations exist for 20-30 players.",
    "recommended_missing": "results/recommended.csv is not in this installation.",
    "rec_composition": "Recommended table",
    "rec_standard": "Standard table",
    # the agents' profile or mixture a table is played under (issue 24)
    "profile": "Agents' play",
    "profile_pasted": "the profile given",
    "profile_intro": "By default the agents play their shipped profile. A profile file, as "
                     "mafia-sim equilibrate writes (its [params] and a [mixture] of each "
                     "camp's profiles drawn per game), changes how they play: choose the file "
                     "or paste its text; empty the field to go back to the default.",
    "profile_file": "Profile file (.toml)",
    "profile_text": "The profile's text",
    "rec_check": "Checked against each camp's best response (mafia-sim exploit, the talk "
                 "included): the largest gain a camp finds by playing differently is "
                 "{gain} points ({camp}, 95% interval {interval}), NashConv {nc}.",
    "rec_unheld": "No table near the standard one held against each camp's best response: "
                  "this is the closest, and a camp still gains more than 2 points there by "
                  "playing differently, so it is balanced only while that camp blunders.",
    "use_it": "Use this table",
    "fix_first": "Fix the marked fields.",
    "role_civilian": "Civilians",
    "role_commissar": "Commissar",
    "role_sergeant": "Sergeant",
    "role_ninja": "Ninja",
    "role_doctor": "Doctor",
    "role_necromancer": "Necromancer",
    "role_maniac": "Maniac",
    "role_yakuza_mafioso": "Yakuza: mafiosi",
    "role_kamikaze": "Yakuza: kamikaze",
    "role_yakuza_vsb": "Yakuza: VSB",
    "role_triad_mafioso": "Triad: mafiosi",
    "role_thug": "Triad: thug",
    "role_triad_vsb": "Triad: VSB",
    "camp_town": "Town",
    "camp_yakuza": "Yakuza",
    "camp_triad": "Triad",
    "camp_maniac": "Maniac",
    "camp_draw": "Draw",
    "camp_stalemate": "Stalemate (turn limit)",
    "compare_intro": "Two tables or two rule sets on common random numbers: the difference in win "
                     "shares with its paired 95% interval.",
    "arm_a": "Table A",
    "arm_b": "Table B",
    "compare": "Compare",
    "copy_a": "Copy A into B",
    "diff_more": "{camp} wins {d:.1f} points more in B [{lo:+.1f}, {hi:+.1f}]",
    "diff_less": "{camp} wins {d:.1f} points less in B [{lo:+.1f}, {hi:+.1f}]",
    "diff_same": "{camp}: no difference [{lo:+.1f}, {hi:+.1f}]",
    "diff_noise": " (within noise)",
    "host_intro": "Enter the players, then for each turn the day's votes in order and the night's "
                  "requests. The page offers only what the rules allow, resolves the turn and "
                  "writes the newspaper.",
    "name": "Name",
    "role": "Role",
    "clan": "Clan",
    "gender": "Gender",
    "gender_none": "unknown",
    "gender_m": "masculine",
    "gender_f": "feminine",
    "no_clan": "—",
    "add_player": "Add a player",
    "remove": "Remove",
    "fill_standard": "Fill with the standard table",
    "start_game": "Start the game",
    "new_game": "New game",
    "save": "Save the game file",
    "load": "Load a game file",
    "load_button": "Load",
    "turn": "Turn {t}",
    "turn0_note": "Turn 0: only the maniac's requests are accepted (R3.1, R6.2).",
    "day": "Day",
    "votes": "Votes in order",
    "voter": "Voter",
    "target": "Against",
    "add_vote": "Add the vote",
    "remove_last_vote": "Remove the last vote",
    "host_lists": "Leaving by day",
    "absent": "posted nothing (R16.1)",
    "removed": "broke a rule (R16.3)",
    "passive": "passive (R16.3)",
    "night": "Night",
    "no_action": "— no request —",
    "order_target": "target",
    "order_shooter": "shooter",
    "order_by": "sent by",
    "the_don": "the Don",
    "necro_protect": "protect",
    "necro_army": "Army of Darkness",
    "ambush": "ambush",
    "day_ends": "The day ends the game: no night.",
    "fix_day": "Fix the day first.",
    "resolve": "Resolve the turn",
    "undo": "Undo the last turn",
    "deaths": "Deaths",
    "nobody_died": "Nobody died.",
    "hanged": "Hanged",
    "beaten": "Beaten",
    "checks": "Checks",
    "seen_by": "seen by",
    "newspaper": "Newspaper (for the forum)",
    "newspaper_en": "Newspaper in English",
    "copy": "Copy",
    "cause": "cause",
    "game_over": "The game is over: {winner} ({reason}), turn {turn}.",
    "odds": "Odds from here",
    "odds_intro": "Each camp's chance to win from here: the agents play the rest of the game many "
                  "times.",
    "odds_button": "Work out the odds",
    "players_list": "Players",
    "alive": "alive",
    "dead": "out",
    "history": "Turns",
    "limits": "Limits: up to {players} players, {games} games a request, {turns} turns, files up "
              "to {kb} KB.",
    "name_too_long": "The name is longer than {n} characters.",
    "warn_title": "If the turn is resolved as entered, the rules act on these players:",
    "warn_absent": "marked as having posted nothing this turn: leaves town at the start of the "
                   "turn",
    "warn_leaves": "no vote entered; his turn without a vote no. {count}: goes missing at the end "
                   "of the turn",
    "warn_first": "no vote entered; his turn without a vote no. {count}: he stays for now",
    "games_stored": "Stored games",
    "games_stored_intro": "Every game is stored after each turn on this computer; after a restart "
                          "the page comes back to the game you were hosting.",
    "game_name": "Name",
    "game_updated": "Last played",
    "game_rename": "Rename",
    "game_resume": "Resume",
    "game_current": "on this page",
    "game_download": "Download",
    "game_delete": "Delete",
    "game_delete_confirm": "Delete the game “{name}” for good?",
    "game_gone": "This game is no longer stored (deleted on another page).",
    "game_stale": "This game was changed on another page (a second tab or host): it is shown as "
                  "stored now; enter the turn again.",
    "page_stale": "This page was out of date: the game changed in another tab; it is shown as "
                  "stored now.",
    "game_missing": "There is no such stored game.",
    "game_name_empty": "A game's name must not be empty.",
    "game_newer": "The stored game “{name}” does not load: a newer mafia-sim stored it (format "
                  "{fmt}; this version reads up to format {known}); update mafia-sim to open it.",
    "game_damaged": "The stored game “{name}” does not load: its game file is damaged.",
    "error_title": "Error",
    "back": "Back",
    "not_found": "No such page.",
    "results_n": ("Who wins: {n} player", "Who wins: {n} players"),
    "recommended": (
        "Recommended for {n} player (from results/)",
        "Recommended for {n} players (from results/)",
    ),
    "progress": ("{done} of {n} game played", "{done} of {n} games played"),
    "finished": ("Done: {n} game", "Done: {n} games"),
    "paired_games": (
        "{n} paired game, common random numbers",
        "{n} paired games, common random numbers",
    ),
    "players_n": ("{n} player", "{n} players"),
    "games_n": ("{n} game", "{n} games"),
    "turns_n": ("{n} turn", "{n} turns"),
    "turns_mean": "A game lasts {mean:.1f} turns on average",
    # NashConv beside the win shares (issue 24)
    "nc_title": "How far a camp could gain by playing differently",
    "nc_gain": "Best gain, points",
    "nc_tried": "Strategies tried",
    "nc_sum": "NashConv (the gains summed)",
    "nc_note": "Each camp's best response to the agents found by mafia-sim exploit (the "
               "talk and the votes included), confirmed on {games} fresh paired games, "
               "measured {date}. The win shares above hold as far as these gains are small.",
    "nc_none": "How far a camp could gain by playing differently is measured for the "
               "standard tables of 20, 25 and 30 players with the default rules and agents; "
               "for this table, run mafia-sim exploit.",
    # the day's talk (R2.7)
    "talk": "The day's talk",
    "talk_intro": "Claims and announced checks, in the order they were posted: public, or on "
                  "a private channel the rules allow. They go into the turn's record and the "
                  "game file, and the odds weigh them.",
    "say_by": "Who",
    "say_kind": "Says",
    "say_whom": "About whom",
    "say_result": "Result",
    "say_channel": "Where",
    "say_to": "To whom",
    "say_claim": "claims a role",
    "say_check": "announces a check",
    "say_accuse": "accuses",
    "say_defend": "defends",
    "channel_public": "in public",
    "channel_clan": "in the clan's chat",
    "channel_badge": "commissar and sergeant",
    "channel_checked": "in private, to a player he checked",
    # the rule options, as a host names them (the command line's name in brackets)
    "rule_require_vsb": "each clan has its VSB",
    "rule_allow_duplicate_roles": "unique roles may repeat",
    "rule_vote_rejection": "chance the host rejects a vote",
    "rule_reveal_night_roles": "the newspaper reveals the roles of the night's dead",
    "rule_p_absent": "chance a player posts nothing in a turn",
    "rule_p_no_vote": "chance a player does not vote",
    "rule_p_rule_break": "chance a player breaks a rule",
    "rule_p_passive": "chance a player is removed as passive",
    "rule_abstention_limit": "turns without a vote before a player goes missing",
    "rule_turn_limit": "turn limit",
    "rule_maniac_vest": "the maniac's bullet-proof vest",
    "rule_maniac_ambush": "the maniac's ambush",
    "rule_doctor_self_heal": "the doctor may heal himself",
    "rule_doctor_repeat_heal": "the doctor may heal the same player twice running",
    "rule_harakiri_at": "the ninja's harakiri after peaceful kill no.",
    "rule_necromancer_protects": "the necromancer's protects",
    "rule_army_min_living": "living players the Army needs",
    "rule_duel": "the endgame duel",
    # what a check shows (R7.2, R7.3)
    "shown_civilian": "civilian",
    "shown_commissar": "commissar",
    "shown_sergeant": "sergeant",
    "shown_ninja": "ninja",
    "shown_doctor": "doctor",
    "shown_necromancer": "necromancer",
    "shown_maniac": "maniac",
    "shown_yakuza": "Yakuza",
    "shown_triad": "Triad",
    "shown_vsb:yakuza": "the Yakuza's VSB",
    "shown_vsb:triad": "the Triad's VSB",
    "shown_none": "no answer (the maniac's ambush)",
    "check_thug": "beaten that night by {thug}",
    # how a game ended
    "reason_camp_wipe": "only this camp is left",
    "reason_vsb_pair": "a mafioso and his clan's VSB are the last two",
    "reason_duel_votes": "the duel, on fewer votes against",
    "reason_duel_first_vote": "the duel, equal votes: the first voted against loses",
    "reason_duel_coin": "the duel, decided by the coin",
    "reason_nobody_alive": "nobody is alive",
    "reason_turn_limit": "the turn limit was reached",
    # a table as a host writes it
    "comp_civilians": ("{n} civilian", "{n} civilians"),
    "comp_mafiosi": ("{n} mafioso", "{n} mafiosi"),
    "comp_role_times": "{role} ×{n}",
    "comp_clan": "{clan}: {members}",
    "rules_differ": "Rule options that differ: {rules}.",
    "rules_same": "The rule options are the same.",
    "arm_rule": "{rule}: A {a}, B {b}",
    # the page's own refusals and error pages
    "no_game_to_save": "There is no game to save yet: enter the players and start it.",
    "choose_file": "Choose a game file (JSON) to load.",
    "enter_players_first": "Enter the players and start the game first.",
    "odds_games": "Games: {error}",
    "nothing_to_play": "The game is over: there is nothing left to play.",
    "not_allowed": "This page does not take this kind of request ({status}).",
    "too_large": "The request is too large ({status}): a game file holds at most "
                 "{kb} KB.",
    "not_accepted": "This request is not accepted ({status}).",
    "wrong_address": "This page answers only at its own address.",
    "other_site": "A request from another site is refused.",
    "body_too_large": "The request is larger than {kb} KB.",
    "page_failed": "The page failed on this request ({error}); please report it with the "
                   "steps that led here.",
}


def page_msg(key: str, **values: object) -> Msg:
    """The page's word `key` as a message (an unknown key is itself, never an error)."""
    text = PAGE.get(key)
    if text is None:
        return Msg(key)
    if isinstance(text, tuple):
        return Msg(text[0], values, text[1], "n", context=key)
    return Msg(text, values, context=key)


def words_of(lang: str) -> Words:
    return Words(lang)


def translator(lang: str) -> Callable[..., str]:
    """`t(key, **values)`: the page's word in the language (an unknown key shows itself)."""
    words = Words(lang)

    def t(key: str, **values: object) -> str:
        return words(page_msg(key, **values))

    return t


def composition_words(comp: object, lang: str) -> str:
    """A table as a host writes it: «8 мирных жителей, комиссар, …; Якудза: 4 мафиози,
    камикадзе, ВСБ» (not the command line's `civilian*8,commissar,...`)."""
    from collections import Counter

    from sim.engine.newspaper import ROLE_EN, ROLE_RU
    from sim.game.roles import Clan, Role
    from sim.game.rules import Composition

    assert isinstance(comp, Composition)
    t = translator(lang)
    words = Words(lang)
    town: Counter[Role] = Counter()
    clans: dict[Clan, Counter[Role]] = {Clan.YAKUZA: Counter(), Clan.TRIAD: Counter()}
    for seat in comp.seats:
        (town if seat.clan is Clan.NONE else clans[seat.clan])[seat.role] += 1

    def part(role: Role, n: int) -> str:
        if role is Role.CIVILIAN:
            return t("comp_civilians", n=n)
        if role is Role.MAFIOSO:
            return t("comp_mafiosi", n=n)
        name = (ROLE_RU if words.lang == "ru" else ROLE_EN)[role]
        return name if n == 1 else t("comp_role_times", role=name, n=n)

    parts = [", ".join(part(r, n) for r, n in sorted(town.items()))]
    for clan, members in clans.items():
        if members:
            parts.append(t("comp_clan", clan=t("camp_" + clan.key), members=", ".join(
                part(r, n) for r, n in sorted(members.items(),
                                              key=lambda kv: (kv[0] is not Role.MAFIOSO,
                                                              kv[0] is Role.VSB)))))
    return "; ".join(p for p in parts if p)
