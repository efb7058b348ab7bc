"""Rule scenarios for the night roles and their interactions (R7-R13, D4.1, R4.1).

Every test is written from /work/shared/RULES.md and docs/rules.md alone and
plays a scripted game through the documented `resolve` API (docs/resolve.md).
"""

import pytest

from sim.game.errors import IllegalRequest, InputError  # noqa: F401  (InputError: API contract)
from sim.game.roles import CLAN_ROLES, Clan, Role, Shown
from sim.play.resolve import resolve

# --------------------------------------------------------------------------
# Tables and builders
# --------------------------------------------------------------------------

#: The standard table: every role once, two clans with a Don, a spare
#: mafioso and a VSB each, four civilians. 18 players, so no single night
#: ends the game.
FULL = [
    ("Anna", "commissar"),
    ("Sergei", "sergeant"),
    ("Hattori", "ninja"),
    ("Doc", "doctor"),
    ("Nekro", "necromancer"),
    ("Boris", "civilian"),
    ("Olga", "civilian"),
    ("Pavel", "civilian"),
    ("Max", "civilian"),
    ("Vy", "vsb", "yakuza"),
    ("Vt", "vsb", "triad"),
    ("Yoshi", "mafioso", "yakuza"),
    ("Yuri", "mafioso", "yakuza"),
    ("Kenji", "kamikaze"),
    ("Wei", "mafioso", "triad"),
    ("Wang", "mafioso", "triad"),
    ("Li", "thug"),
    ("Jack", "maniac"),
]
DONS = {"yakuza": "Yoshi", "triad": "Wei"}


def without(players, *names):
    return [p for p in players if p[0] not in names]


#: Heroes of this table: the ninja and the doctor only (D12.4).
ARMY = without(FULL, "Anna", "Sergei")


def game(players, turns, dons=DONS, **rules):
    """The input dict of docs/resolve.md."""
    out = []
    for p in players:
        d = {"name": p[0], "role": p[1]}
        if len(p) > 2:
            d["clan"] = p[2]
        out.append(d)
    g = {
        "players": out,
        "rules": {"abstention_limit": 0, "require_vsb": False, **rules},
        "turns": turns,
        "seed": 1,
    }
    if dons is not None:
        g["dons"] = dons
    return g


def play(turns, players=FULL, dons=DONS, **rules):
    return resolve(game(players, turns, dons=dons, **rules))


def night(**requests):
    """A turn with no votes and the given night requests."""
    return {"night": requests}


def day(votes, **requests):
    """A turn with votes (pairs in the order cast) and night requests."""
    return {"votes": [list(v) for v in votes], "night": requests}


def t(name):
    return {"target": name}


def yak(target, shooter="Yuri", **kw):
    return {"target": target, "shooter": shooter, **kw}


def tri(target, shooter="Wang", **kw):
    return {"target": target, "shooter": shooter, **kw}


AMBUSH = {"ambush": True}

# ---- reading the output ---------------------------------------------------


def T(res, n):
    for tr in res["turns"]:
        if tr["turn"] == n:
            return tr
    raise AssertionError(f"no turn {n} in output: {[x['turn'] for x in res['turns']]}")


def _name(x):
    if isinstance(x, dict):
        return x.get("player", x.get("target", x.get("name")))
    return x


def died(res, n):
    """{player: cause} of turn n."""
    return {d["player"]: d["cause"] for d in T(res, n)["deaths"]}


def death(res, n, player):
    for d in T(res, n)["deaths"]:
        if d["player"] == player:
            return d
    raise AssertionError(f"{player} did not die on turn {n}: {T(res, n)['deaths']}")


def causes(res, n, player):
    return set(death(res, n, player)["causes"])


def beaten(res, n):
    return {_name(x) for x in T(res, n)["beaten"]}


def fired(res, n):
    return {_name(x) for x in T(res, n)["protects_fired"]}


def checks(res, n):
    return T(res, n)["checks"]


def the_check(res, n):
    cs = checks(res, n)
    assert len(cs) == 1, cs
    return cs[0]


def paper(res, n):
    return T(res, n)["newspaper"]["en"]


def papers(res, n):
    np = T(res, n)["newspaper"]
    return np["en"] + "\n" + np["ru"]


def alive(res):
    return set(res["alive"])


def assert_going(res):
    assert res["outcome"]["winner"] is None, res["outcome"]


# ==========================================================================
# R7 Commissar and sergeant
# ==========================================================================


@pytest.mark.parametrize(
    "target, role",
    [("Boris", "civilian"), ("Doc", "doctor"), ("Hattori", "ninja"),
     ("Nekro", "necromancer"), ("Sergei", "sergeant"), ("Jack", "maniac")],
)
def test_R7_1_commissar_learns_role(target, role):
    """R7.1 "Once per turn (from turn 1) the commissar learns the role of one player."
    (resolve.md: `result` is the role for Town roles and the maniac.)"""
    res = play([{}, night(commissar=t(target))])
    c = the_check(res, 1)
    assert c["by"] == "Anna"
    assert c["target"] == target
    assert c["result"] == role
    assert c["thug"] is None
    assert_going(res)


@pytest.mark.parametrize(
    "target, clan",
    [("Yoshi", "yakuza"), ("Yuri", "yakuza"), ("Kenji", "yakuza"),
     ("Wei", "triad"), ("Wang", "triad"), ("Li", "triad")],
)
def test_R7_2_clan_member_check_tells_clan_only(target, clan):
    """R7.2 "Checking a mafioso (any clan role: mafioso, Don, kamikaze, thug)
    tells only the clan, not the role." """
    res = play([{}, night(commissar=t(target))])
    assert the_check(res, 1)["result"] == clan


@pytest.mark.parametrize("target, result", [("Vy", "vsb:yakuza"), ("Vt", "vsb:triad")])
def test_R7_3_D7_1_vsb_check_reveals_vsb_and_clan(target, result):
    """R7.3 "Checking a VSB reveals that he is a VSB." D7.1 "The result also
    names the VSB's clan." """
    res = play([{}, night(commissar=t(target))])
    assert the_check(res, 1)["result"] == result


@pytest.mark.parametrize("role", list(Role))
@pytest.mark.parametrize("clan", [Clan.YAKUZA, Clan.TRIAD])
def test_R7_2_R7_3_D7_1_what_a_check_shows_is_structured(role, clan):
    """R7.2, R7.3, D7.1 as a structured value: a check of a clan role shows the clan and no
    role, of a VSB his role and his clan, of anyone else his role; the value is the string
    of the game files and logs."""
    if role not in CLAN_ROLES and role is not Role.VSB:
        clan = Clan.NONE
    shown = Shown.of(role, clan)
    if role in CLAN_ROLES:
        assert (shown.role, shown.clan, shown.value) == (None, clan, clan.key)
    elif role is Role.VSB:
        assert (shown.role, shown.clan, shown.value) == (Role.VSB, clan, f"vsb:{clan.key}")
    else:
        assert (shown.role, shown.clan, shown.value) == (role, Clan.NONE, role.key)
    assert shown.evil == (role in CLAN_ROLES or role is Role.MANIAC)
    assert Shown(shown.value) is shown  # read back from a file


def test_R7_4_sergeant_sees_every_check():
    """R7.4 "The sergeant sees every result the commissar gets." """
    res = play([{}, night(commissar=t("Yuri")), night(commissar=t("Boris"))])
    for n in (1, 2):
        c = the_check(res, n)
        assert "Sergei" in c["seen_by"]
        assert "Anna" in c["seen_by"]


def test_R7_4_P7_2_sergeant_killed_that_night_does_not_see():
    """P7.2 "A check is seen by the commissar and by the sergeant if the
    sergeant is alive after D4.1 (d) (R7.4)." """
    res = play([{}, night(triad=tri("Sergei"), commissar=t("Yuri"))])
    assert died(res, 1) == {"Sergei": "triad"}
    c = the_check(res, 1)
    assert "Sergei" not in c["seen_by"]
    assert "Anna" in c["seen_by"]


def test_R7_5_sergeant_gets_no_check_the_night_commissar_dies_then_takes_over():
    """R7.5 "When the commissar dies, the sergeant becomes commissar from the
    next turn on. He does not get a check for the night the commissar died." """
    res = play([
        {},
        night(yakuza=yak("Anna"), commissar=t("Yuri")),
        night(commissar=t("Wang")),
    ])
    assert died(res, 1) == {"Anna": "yakuza"}
    assert checks(res, 1) == []  # R4.1: killed at step 5, no step-6 action
    c = the_check(res, 2)
    assert c["by"] == "Sergei"
    assert c["target"] == "Wang"
    assert c["result"] == "triad"


def test_R7_5_commissar_killed_on_turn_0_sergeant_checks_on_turn_1():
    """R7.5 "the sergeant becomes commissar from the next turn on." """
    res = play([night(maniac=t("Anna")), night(commissar=t("Kenji"))])
    assert died(res, 0) == {"Anna": "maniac"}
    c = the_check(res, 1)
    assert c["by"] == "Sergei"
    assert c["result"] == "yakuza"


def test_R7_6_check_on_beaten_player_reveals_thug():
    """R7.6 "Checking the player the thug beat that night also reveals the thug." """
    res = play([{}, night(thug=t("Boris"), commissar=t("Boris"))])
    assert beaten(res, 1) == {"Boris"}
    c = the_check(res, 1)
    assert c["result"] == "civilian"
    assert c["thug"] == "Li"


def test_R7_6_check_on_unbeaten_player_reveals_no_thug():
    """R7.6 (only the player the thug beat *that night* reveals the thug)."""
    res = play([{}, night(thug=t("Boris")), night(commissar=t("Boris"))])
    assert the_check(res, 2)["thug"] is None


def test_R7_7_commissar_checking_ambushed_maniac_dies():
    """R7.7 "Checking the maniac in ambush kills the commissar (R9.4)."
    D9.2 "the check gives no result"; P7.3 he dies at D4.1 (e)."""
    res = play([{}, night(maniac=AMBUSH, commissar=t("Jack"))])
    d = death(res, 1, "Anna")
    assert d["cause"] == "ambush"
    assert d["step"] == 6
    assert "Jack" in alive(res)
    cs = checks(res, 1)
    assert all(c["result"] is None for c in cs)
    assert "Anna" in paper(res, 1)
    assert "Jack" not in papers(res, 1)  # R9.4 / R15.4


def test_R7_7_P9_1_heal_and_protect_do_not_save_checker_from_ambush():
    """P9.1 "The ambush's kills are unconditional: neither heal nor protect saves
    a player who tried to kill, check or beat the ambushed maniac." """
    res = play([{}, night(maniac=AMBUSH, commissar=t("Jack"),
                          doctor=t("Anna"), necromancer={"protect": ["Anna"]})])
    assert died(res, 1) == {"Anna": "ambush"}


def test_P7_1_commissar_cannot_check_himself():
    """P7.1 "The commissar cannot check himself." """
    with pytest.raises(IllegalRequest, match=r"P7\.1"):
        play([{}, night(commissar=t("Anna"))])


# ==========================================================================
# R8 Doctor
# ==========================================================================


@pytest.mark.parametrize(
    "attack",
    [{"yakuza": yak("Boris")}, {"triad": tri("Boris")}, {"maniac": t("Boris")}],
    ids=["yakuza", "triad", "maniac"],
)
def test_R8_1_heal_saves_from_one_attack(attack):
    """R8.1 "the doctor names a player; that player cannot be killed by the
    mafia or the maniac that night." """
    res = play([{}, night(doctor=t("Boris"), **attack)])
    assert died(res, 1) == {}
    assert "Boris" in alive(res)


@pytest.mark.parametrize(
    "attacks, expected",
    [({"yakuza": yak("Boris"), "triad": tri("Boris")}, {"yakuza", "triad"}),
     ({"yakuza": yak("Boris"), "maniac": t("Boris")}, {"yakuza", "maniac"})],
    ids=["two_clans", "clan_and_maniac"],
)
def test_R8_2_heal_fails_against_two_attacks(attacks, expected):
    """R8.2 "The heal fails if the player is attacked twice that night" """
    res = play([{}, night(doctor=t("Boris"), **attacks)])
    assert set(died(res, 1)) == {"Boris"}
    assert causes(res, 1, "Boris") == expected
    assert "Boris" in paper(res, 1)


def test_R8_2_heal_fails_against_ninja():
    """R8.2 "The heal fails if the player is attacked ... by the ninja";
    R11.2 "Neither the doctor nor the maniac's vest stops the ninja." """
    res = play([{}, night(doctor=t("Yuri"), ninja=t("Yuri"))])
    assert died(res, 1) == {"Yuri": "ninja"}


def test_R8_3_cannot_heal_same_player_two_turns_in_row():
    """R8.3 "The doctor cannot heal the same player two turns in a row" """
    with pytest.raises(IllegalRequest, match=r"R8\.3"):
        play([{}, night(doctor=t("Boris")), night(doctor=t("Boris"))])


def test_R8_3_same_player_again_after_a_turn_between():
    """R8.3 forbids only two turns *in a row*."""
    res = play([
        {},
        night(doctor=t("Boris")),
        night(doctor=t("Olga")),
        night(doctor=t("Boris"), yakuza=yak("Boris")),
    ])
    assert died(res, 3) == {}


def test_R8_3_D8_1_same_player_allowed_after_doctor_was_beaten():
    """R8.3 "... unless his earlier request could not be carried out (he was
    beaten)." D8.1 "A heal that was not carried out for any reason ... does
    not count for R8.3." """
    res = play([
        {},
        night(thug=t("Doc"), doctor=t("Boris")),
        night(doctor=t("Boris"), yakuza=yak("Boris")),
    ])
    assert beaten(res, 1) == {"Doc"}
    assert died(res, 2) == {}


def test_D8_1_D4_1_attacked_doctor_does_not_heal_and_heal_does_not_count():
    """D4.1 (a) "the doctor heals if he is not beaten and was not attacked at
    steps 4-5"; D8.1 a heal not carried out (the doctor was attacked) does not
    count for R8.3."""
    res = play([
        {},
        night(yakuza=yak("Doc"), necromancer={"protect": ["Doc"]},
              triad=tri("Boris"), doctor=t("Pavel")),
        night(doctor=t("Pavel"), triad=tri("Pavel")),
    ])
    # turn 1: the protect saves the doctor, but he was attacked: no heal
    assert "Doc" not in died(res, 1)
    assert fired(res, 1) == {"Doc"}
    assert died(res, 1) == {"Boris": "triad"}
    # turn 2: healing Pavel again is legal and works
    assert died(res, 2) == {}


def test_D8_1_attacked_doctor_heal_on_target_does_not_work():
    """D4.1 (a): the attacked doctor's heal is not carried out."""
    res = play([{}, night(yakuza=yak("Doc"), necromancer={"protect": ["Doc"]},
                          triad=tri("Boris"), doctor=t("Boris"))])
    assert died(res, 1) == {"Boris": "triad"}


def test_R8_4_doctor_cannot_heal_himself():
    """R8.4 "The doctor cannot heal himself." """
    with pytest.raises(IllegalRequest, match=r"R8\.4"):
        play([{}, night(doctor=t("Doc"))])


def test_R8_5_heal_works_first_protect_stays_for_later():
    """R8.5 "If the healed player also holds a protect ... the heal works first
    and the protect ... stays unused." D12.2 it fires later."""
    res = play([
        {},
        night(necromancer={"protect": ["Boris"]}),
        night(yakuza=yak("Boris"), doctor=t("Boris")),
        night(triad=tri("Boris")),
        night(yakuza=yak("Boris")),
    ])
    assert died(res, 2) == {}
    assert fired(res, 2) == set()
    assert died(res, 3) == {}
    assert fired(res, 3) == {"Boris"}
    assert died(res, 4) == {"Boris": "yakuza"}


def test_R8_5_heal_works_first_vest_stays_intact():
    """R8.5 "If the healed player ... is the maniac with an intact vest, the
    heal works first and the ... vest stays unused." """
    res = play([
        {},
        night(yakuza=yak("Jack"), doctor=t("Jack")),
        night(triad=tri("Jack")),
        night(yakuza=yak("Jack")),
    ])
    assert died(res, 1) == {}
    assert T(res, 1)["vest_spent"] is False
    assert died(res, 2) == {}
    assert T(res, 2)["vest_spent"] is True
    assert died(res, 3) == {"Jack": "yakuza"}


# ==========================================================================
# R9 Maniac
# ==========================================================================


def test_R9_1_maniac_kills_on_turn_0():
    """R9.1 "The maniac kills one player every turn, starting on turn 0." """
    res = play([night(maniac=t("Boris"))])
    d = death(res, 0, "Boris")
    assert d["cause"] == "maniac"
    assert d["step"] == 5
    assert "Boris" in paper(res, 0)


def test_R9_2_vest_stops_first_mafia_bullet_then_spent():
    """R9.2 "the first mafia bullet that hits him is stopped and the vest is
    then spent." """
    res = play([{}, night(yakuza=yak("Jack")), night(triad=tri("Jack"))])
    assert died(res, 1) == {}
    assert T(res, 1)["vest_spent"] is True
    assert died(res, 2) == {"Jack": "triad"}


def test_D9_1_two_mafia_bullets_in_one_night_kill_maniac():
    """D9.1 "The vest stops one mafia bullet per night; a second mafia bullet
    the same night kills him" """
    res = play([{}, night(yakuza=yak("Jack"), triad=tri("Jack"))])
    assert set(died(res, 1)) == {"Jack"}
    assert causes(res, 1, "Jack") & {"yakuza", "triad"}


def test_P9_3_vest_then_protect_against_two_bullets():
    """P9.3 "Order of saves for the maniac: the heal first (R8.5), then the vest
    (D9.1), then a protect (D12.2)." """
    res = play([{}, night(yakuza=yak("Jack"), triad=tri("Jack"),
                          necromancer={"protect": ["Jack"]})])
    assert died(res, 1) == {}
    assert T(res, 1)["vest_spent"] is True
    assert fired(res, 1) == {"Jack"}


def test_R9_2_ninja_kills_maniac_at_first_try():
    """R9.2 "Only the ninja kills him at the first try" (R11.2: nor the heal)."""
    res = play([{}, night(ninja=t("Jack"), doctor=t("Jack"))])
    assert died(res, 1) == {"Jack": "ninja"}


def test_R9_4_ambush_kills_clan_shooter_not_don():
    """R9.4 "In ambush, everyone who tries to ... kill ... him that night is
    killed, and his name is not printed in the newspaper." D14.2 the shooter dies."""
    res = play([{}, night(maniac=AMBUSH, yakuza=yak("Jack"))])
    assert died(res, 1) == {"Yuri": "ambush"}
    assert "Yoshi" in alive(res)
    assert "Yuri" in paper(res, 1)
    assert "Jack" not in papers(res, 1)


def test_R9_4_ambush_kills_ninja():
    """R9.4 everyone who tries to kill him in ambush is killed (the ninja too)."""
    res = play([{}, night(maniac=AMBUSH, ninja=t("Jack"))])
    assert died(res, 1) == {"Hattori": "ambush"}
    assert "Jack" in alive(res)


def test_R9_4_ambush_kills_every_attacker_at_once():
    """R9.4 "everyone who tries to check, kill or beat him that night is killed";
    P9.1 nothing saves them."""
    res = play([{}, night(maniac=AMBUSH, yakuza=yak("Jack"), triad=tri("Jack"),
                          ninja=t("Jack"), commissar=t("Jack"),
                          doctor=t("Yuri"), necromancer={"protect": ["Wang"]})])
    assert died(res, 1) == {"Yuri": "ambush", "Wang": "ambush",
                            "Hattori": "ambush", "Anna": "ambush"}
    assert "Jack" in alive(res)
    assert "Jack" not in papers(res, 1)
    assert_going(res)


def test_R9_4_R10_5_thug_beating_ambushed_maniac_dies_beating_does_not_happen():
    """R10.5 "Beating the maniac in ambush kills the thug." D9.2 "the beating
    does not happen"."""
    res = play([{}, night(maniac=AMBUSH, thug=t("Jack"))])
    assert died(res, 1) == {"Li": "ambush"}
    assert beaten(res, 1) == set()
    assert "Jack" in alive(res)
    assert "Jack" not in papers(res, 1)


def test_D9_2_ambush_does_not_spend_vest():
    """D9.2 "An attempt that meets an ambush does nothing else: the vest is not
    spent" """
    res = play([{}, night(maniac=AMBUSH, yakuza=yak("Jack")), night(triad=tri("Jack"))])
    assert T(res, 1)["vest_spent"] is False
    assert died(res, 2) == {}
    assert T(res, 2)["vest_spent"] is True


def test_R9_3_ambush_once_per_game():
    """R9.3 "Once per game the maniac may sit in ambush" """
    with pytest.raises(IllegalRequest, match=r"R9\.3"):
        play([{}, night(maniac=AMBUSH), night(maniac=AMBUSH)])


def test_R9_3_P9_2_ambush_on_turn_0_uses_it_up():
    """P9.2 "The maniac may take his ambush on turn 0." R9.3 once per game."""
    res = play([night(maniac=AMBUSH)])
    assert died(res, 0) == {}
    with pytest.raises(IllegalRequest, match=r"R9\.3"):
        play([night(maniac=AMBUSH), night(maniac=AMBUSH)])


def test_R9_5_maniac_cannot_kill_himself():
    """R9.5 "He cannot kill himself." """
    with pytest.raises(IllegalRequest, match=r"R9\.5"):
        play([night(maniac=t("Jack"))])


# ==========================================================================
# R10 Thug
# ==========================================================================


def test_R10_4_beaten_player_is_printed():
    """R10.4 "The newspaper prints "X was beaten by the thug"." """
    res = play([{}, night(thug=t("Boris"))])
    assert beaten(res, 1) == {"Boris"}
    assert died(res, 1) == {}
    assert "Boris" in paper(res, 1)


@pytest.mark.parametrize(
    "victim, requests",
    [("Hattori", {"ninja": t("Yuri")}),
     ("Jack", {"maniac": t("Yuri")}),
     ("Nekro", {"necromancer": {"protect": ["Yuri"]}, "triad": tri("Yuri")}),
     ("Doc", {"doctor": t("Yuri"), "triad": tri("Yuri")})],
    ids=["ninja", "maniac", "necromancer", "doctor"],
)
def test_R10_4_beaten_player_takes_no_action_that_night(victim, requests):
    """R10.4 "The beaten player takes no action in that night's steps 5-6" """
    res = play([{}, night(thug=t(victim), **requests)])
    assert beaten(res, 1) == {victim}
    if "triad" in requests:  # the protect/heal would have saved Yuri
        assert died(res, 1) == {"Yuri": "triad"}
        assert fired(res, 1) == set()
    else:
        assert died(res, 1) == {}


def test_R10_4_beaten_commissar_makes_no_check():
    """R10.4 / D4.1 (e) "the commissar checks if he is not beaten" """
    res = play([{}, night(thug=t("Anna"), commissar=t("Yuri"))])
    assert beaten(res, 1) == {"Anna"}
    assert checks(res, 1) == []


def test_R10_4_R5_5_beaten_player_cannot_vote_next_day():
    """R5.5 "A player beaten by the thug cannot vote or post in the next day
    (R10.4)." """
    with pytest.raises(IllegalRequest, match=r"R5\.5|R10\.4|P5\.2"):
        play([{}, night(thug=t("Boris")), day([("Boris", "Yuri")])])


def test_R10_4_beaten_player_can_vote_again_two_days_later():
    """R5.5 only "the next day"."""
    res = play([{}, night(thug=t("Boris")), {}, day([("Boris", "Yuri")])])
    assert died(res, 3) == {"Yuri": "hanged"}


def test_R10_4_beaten_player_can_still_be_hanged():
    """R10.4 "He can still be killed, checked or hanged." """
    res = play([{}, night(thug=t("Boris")), day([("Olga", "Boris"), ("Pavel", "Boris")])])
    d = death(res, 2, "Boris")
    assert d["cause"] == "hanged"
    assert d["step"] == 2


def test_R10_2_same_player_beaten_only_once_per_game():
    """R10.2 "A player can be beaten only once per game." """
    with pytest.raises(IllegalRequest, match=r"R10\.2"):
        play([{}, night(thug=t("Boris")), night(thug=t("Boris"))])


def test_R10_2_thug_cannot_beat_own_vsb():
    """R10.2 "The thug cannot beat his clan's VSB." (R14.2)"""
    with pytest.raises(IllegalRequest, match=r"R10\.2|R14\.2"):
        play([{}, night(thug=t("Vt"))])


def test_R10_2_thug_may_beat_other_clans_vsb():
    """R10.2 forbids his own clan's VSB only."""
    res = play([{}, night(thug=t("Vy"))])
    assert beaten(res, 1) == {"Vy"}


def test_R10_2_thug_may_beat_a_clanmate():
    """R10.2 "He may beat a clanmate." """
    res = play([{}, night(thug=t("Wang"))])
    assert beaten(res, 1) == {"Wang"}


def test_P10_1_thug_cannot_beat_himself():
    """P10.1 "The thug cannot beat himself." """
    with pytest.raises(IllegalRequest, match=r"P10\.1"):
        play([{}, night(thug=t("Li"))])


def test_R10_1_only_from_turn_1():
    """R10.1 "Once per night (from turn 1)"; R3.1 turn 0 is maniac-only."""
    with pytest.raises(IllegalRequest, match=r"R3\.1|R6\.2|R10\.1"):
        play([night(thug=t("Boris"))])


def test_R10_3_thug_as_shooter_cannot_also_beat():
    """R10.3 "In one turn the thug either beats or shoots"; P10.2 sending both
    is illegal."""
    with pytest.raises(IllegalRequest, match=r"R10\.3|P10\.2"):
        play([{}, night(triad=tri("Boris", shooter="Li"), thug=t("Olga"))])


def test_R10_3_D14_1_thug_may_be_the_shooter():
    """D14.1 "the kamikaze and the thug may be shooters" """
    res = play([{}, night(triad=tri("Boris", shooter="Li"))])
    assert died(res, 1) == {"Boris": "triad"}


@pytest.mark.parametrize(
    "attack, cause",
    [({"yakuza": yak("Boris")}, "yakuza"), ({"maniac": t("Boris")}, "maniac"),
     ({"ninja": t("Boris")}, "ninja")],
    ids=["clan", "maniac", "ninja"],
)
def test_R10_6_D10_1_stray_bullet_beaten_and_thug_both_die(attack, cause):
    """R10.6 "If the player the thug beats is shot at that night, the thug
    catches a stray bullet and dies together with the beaten player."
    D10.1 "Shot at" means any kill attempt of step 5: a mafia shot, the maniac
    or the ninja."""
    res = play([{}, night(thug=t("Boris"), **attack)])
    assert set(died(res, 1)) == {"Boris", "Li"}
    assert cause in causes(res, 1, "Boris")
    assert died(res, 1)["Li"] == "stray_bullet"
    assert "Boris" in beaten(res, 1)


def test_D10_1_heal_does_not_save_beaten_player_nor_thug():
    """D10.1 "the beating and the shot are two attacks, so a heal does not save
    the beaten player (R8.2)"; P10.4 a heal does not save the thug."""
    res = play([{}, night(thug=t("Boris"), yakuza=yak("Boris"), doctor=t("Boris"))])
    assert set(died(res, 1)) == {"Boris", "Li"}
    res = play([{}, night(thug=t("Boris"), yakuza=yak("Boris"), doctor=t("Li"))])
    assert set(died(res, 1)) == {"Boris", "Li"}


def test_P10_4_vest_does_not_save_beaten_maniac():
    """P10.4 "In the stray-bullet case (D10.1) neither the heal nor the vest
    saves the beaten player" """
    res = play([{}, night(thug=t("Jack"), yakuza=yak("Jack"))])
    assert set(died(res, 1)) == {"Jack", "Li"}


def test_D10_1_protect_saves_beaten_player_not_thug():
    """D10.1 "A protect that fires still saves him, not the thug." """
    res = play([{}, night(thug=t("Boris"), yakuza=yak("Boris"),
                          necromancer={"protect": ["Boris"]})])
    assert died(res, 1) == {"Li": "stray_bullet"}
    assert fired(res, 1) == {"Boris"}


def test_P10_4_protect_held_by_thug_saves_him():
    """P10.4 "The thug dies of stray_bullet; a heal does not save him (R8.2), a
    protect he holds does." """
    res = play([{}, night(thug=t("Boris"), yakuza=yak("Boris"),
                          necromancer={"protect": ["Li"]})])
    assert died(res, 1) == {"Boris": "yakuza"}
    assert fired(res, 1) == {"Li"}


def test_D10_2_beaten_shooter_loses_the_clan_shot():
    """D10.2 "a beaten shooter cannot shoot, and his clan's shot is lost that
    night." """
    res = play([{}, night(thug=t("Yuri"), yakuza=yak("Boris"))])
    assert beaten(res, 1) == {"Yuri"}
    assert died(res, 1) == {}


def test_D10_2_beaten_don_order_stands():
    """D10.2 "A beaten Don's order still stands (it is given before the night
    and is not a step of R4)" """
    res = play([{}, night(thug=t("Yoshi"), yakuza=yak("Boris"))])
    assert beaten(res, 1) == {"Yoshi"}
    assert died(res, 1) == {"Boris": "yakuza"}


def test_D10_3_beaten_necromancer_protects_do_not_fire():
    """D10.3 "A beaten necromancer cannot resurrect that night (his protects do
    not fire but are not spent)" """
    res = play([
        {},
        night(necromancer={"protect": ["Boris", "Olga"]}),
        night(thug=t("Nekro"), yakuza=yak("Boris")),
        night(triad=tri("Olga")),
    ])
    assert died(res, 2) == {"Boris": "yakuza"}
    assert fired(res, 2) == set()
    # Olga's protect was not spent: it fires once Nekro is no longer beaten
    assert died(res, 3) == {}
    assert fired(res, 3) == {"Olga"}


def test_D10_3_beaten_doctor_heal_not_carried_out():
    """D10.3 "a beaten doctor's heal is not carried out." """
    res = play([{}, night(thug=t("Doc"), doctor=t("Boris"), yakuza=yak("Boris"))])
    assert died(res, 1) == {"Boris": "yakuza"}


# ==========================================================================
# R11 Ninja
# ==========================================================================


def test_R11_1_ninja_kills():
    """R11.1 "The ninja may kill one player on any night (from turn 1)" """
    res = play([{}, night(ninja=t("Yuri"))])
    assert died(res, 1) == {"Yuri": "ninja"}
    assert "Yuri" in paper(res, 1)


def test_R11_3_harakiri_on_second_peaceful_kill():
    """R11.3 "If the ninja kills a second peaceful character (civilian or VSB),
    he commits harakiri and dies that same night." """
    res = play([{}, night(ninja=t("Boris")), night(ninja=t("Vy"))])
    assert died(res, 1) == {"Boris": "ninja"}
    assert died(res, 2) == {"Vy": "ninja", "Hattori": "harakiri"}


def test_R11_3_R1_2_heroes_and_mafia_are_not_peaceful():
    """R1.2 "Peaceful characters" (for the ninja's harakiri) are the civilian
    and the VSB only."""
    res = play([
        {},
        night(ninja=t("Doc")),
        night(ninja=t("Yuri")),
        night(ninja=t("Boris")),
        night(ninja=t("Olga")),
    ])
    assert died(res, 1) == {"Doc": "ninja"}
    assert died(res, 2) == {"Yuri": "ninja"}
    assert died(res, 3) == {"Boris": "ninja"}
    assert died(res, 4) == {"Olga": "ninja", "Hattori": "harakiri"}


def test_D11_1_failed_kill_does_not_count_toward_harakiri():
    """D11.1 "Only kills that happened count toward harakiri." (D11.2 a protect
    saves from the ninja.)"""
    res = play([
        {},
        night(ninja=t("Boris"), necromancer={"protect": ["Boris"]}),
        night(ninja=t("Olga")),
        night(ninja=t("Pavel")),
    ])
    assert died(res, 1) == {}
    assert fired(res, 1) == {"Boris"}
    assert died(res, 2) == {"Olga": "ninja"}
    assert died(res, 3) == {"Pavel": "ninja", "Hattori": "harakiri"}


def test_P11_1_shared_kill_counts_toward_harakiri():
    """P11.1 "His kill "happened" (D11.1) when its target dies that night with
    the ninja's attempt among those on him." """
    res = play([{}, night(ninja=t("Boris"), yakuza=yak("Boris")), night(ninja=t("Olga"))])
    assert causes(res, 1, "Boris") == {"yakuza", "ninja"}
    assert died(res, 2) == {"Olga": "ninja", "Hattori": "harakiri"}


def test_P11_1_ninja_cannot_strike_himself():
    """P11.1 "The ninja cannot strike himself." """
    with pytest.raises(IllegalRequest, match=r"P11\.1"):
        play([{}, night(ninja=t("Hattori"))])


HANG_NINJA = [("Boris", "Hattori"), ("Olga", "Hattori"), ("Pavel", "Yuri")]


def test_R11_4_testament_kills_first_voter():
    """R11.4 "if the ninja is hanged by vote, the first player who voted for
    him dies that night at the ninja's step." """
    res = play([{}, day(HANG_NINJA)])
    assert died(res, 1) == {"Hattori": "hanged", "Boris": "testament"}
    assert death(res, 1, "Boris")["step"] == 5
    assert "Boris" in paper(res, 1)


def test_R11_4_D11_3_testament_skips_first_voter_shot_that_night():
    """R11.4 "If that player dies that night anyway, the second voter dies
    instead". D11.3 "It takes the earliest voter for the ninja who is alive at
    step 5 and is not killed by another attempt that night." """
    res = play([{}, day(HANG_NINJA, yakuza=yak("Boris"))])
    assert died(res, 1) == {"Hattori": "hanged", "Boris": "yakuza", "Olga": "testament"}
    assert causes(res, 1, "Boris") == {"yakuza"}


def test_R11_4_D11_3_testament_skips_first_voter_blown_up_at_step_4():
    """D11.3 the earliest voter "who is alive at step 5"."""
    res = play([{}, day(HANG_NINJA, kamikaze=t("Boris"))])
    assert died(res, 1) == {"Hattori": "hanged", "Boris": "kamikaze",
                            "Kenji": "kamikaze", "Olga": "testament"}


def test_D11_3_testament_not_stopped_by_heal():
    """D11.3 "heal and vest do not stop it (R11.2)" """
    res = play([{}, day(HANG_NINJA, doctor=t("Boris"))])
    assert died(res, 1) == {"Hattori": "hanged", "Boris": "testament"}


def test_D11_3_testament_not_stopped_by_vest():
    """D11.3 "heal and vest do not stop it" """
    res = play([{}, day([("Jack", "Hattori"), ("Olga", "Hattori")])])
    assert died(res, 1) == {"Hattori": "hanged", "Jack": "testament"}


def test_D11_3_testament_stopped_by_protect_and_spent():
    """D11.3 "a protect does (D11.2) ... If it is stopped, it is spent." """
    res = play([{}, day(HANG_NINJA, necromancer={"protect": ["Boris"]})])
    assert died(res, 1) == {"Hattori": "hanged"}
    assert fired(res, 1) == {"Boris"}
    assert {"Boris", "Olga"} <= alive(res)


def test_D11_3_testament_stopped_by_ambush_and_spent():
    """D11.3 "... and so does the maniac's ambush (D9.2). If it is stopped, it
    is spent." """
    res = play([{}, day([("Jack", "Hattori"), ("Olga", "Hattori")], maniac=AMBUSH)])
    assert died(res, 1) == {"Hattori": "hanged"}
    assert {"Jack", "Olga"} <= alive(res)


def test_D11_3_testament_does_not_count_toward_harakiri():
    """D11.3 "It does not count toward harakiri." """
    res = play([{}, night(ninja=t("Max")), day(HANG_NINJA)])
    assert died(res, 2) == {"Hattori": "hanged", "Boris": "testament"}
    assert all("harakiri" not in d["causes"] for d in T(res, 2)["deaths"])


# ==========================================================================
# R12 Necromancer
# ==========================================================================


def test_R12_3_protect_saves_from_any_number_of_attacks():
    """R12.3 "a player with a protect is saved from any number of attempts on
    his life that turn" """
    res = play([{}, night(necromancer={"protect": ["Boris"]}, yakuza=yak("Boris"),
                          triad=tri("Boris"), maniac=t("Boris"), ninja=t("Boris"))])
    assert died(res, 1) == {}
    assert fired(res, 1) == {"Boris"}


def test_R12_3_D12_2_protect_fires_once_then_spent():
    """R12.3 "the next turn he has no protection"; D12.2 "... and is then spent." """
    res = play([{}, night(necromancer={"protect": ["Boris"]}, yakuza=yak("Boris")),
                night(yakuza=yak("Boris"))])
    assert fired(res, 1) == {"Boris"}
    assert died(res, 2) == {"Boris": "yakuza"}


def test_D12_2_protect_persists_until_it_fires():
    """D12.2 "A protect stays on its holder until it fires: it fires on the first
    night its holder would otherwise die" """
    res = play([
        {},
        night(necromancer={"protect": ["Boris"]}),
        night(),
        night(),
        night(yakuza=yak("Boris")),
        night(triad=tri("Boris")),
    ])
    for n in (1, 2, 3):
        assert fired(res, n) == set()
    assert died(res, 4) == {}
    assert fired(res, 4) == {"Boris"}
    assert died(res, 5) == {"Boris": "triad"}


def test_R12_1_protects_split_over_turns_1_and_2():
    """R12.1 "During the first two turns ... in any split, the necromancer hands
    out two protects." """
    res = play([
        {},
        night(necromancer={"protect": ["Boris"]}),
        night(necromancer={"protect": ["Olga"]}),
        night(yakuza=yak("Boris"), triad=tri("Olga")),
    ])
    assert died(res, 3) == {}
    assert fired(res, 3) == {"Boris", "Olga"}


def test_R12_1_D12_1_no_protect_on_turn_3():
    """D12.1 "Protects are handed out on turns 1 and 2." """
    with pytest.raises(IllegalRequest, match=r"R12\.1|D12\.1"):
        play([{}, {}, {}, night(necromancer={"protect": ["Boris"]})])


def test_R12_1_P12_1_at_most_two_protects():
    """R12.1 two protects; P12.1 "at most two in all over turns 1-2" """
    with pytest.raises(IllegalRequest, match=r"R12\.1|P12\.1"):
        play([{}, night(necromancer={"protect": ["Boris", "Olga"]}),
              night(necromancer={"protect": ["Pavel"]})])


def test_R12_2_necromancer_cannot_protect_himself():
    """R12.2 "He cannot protect himself." """
    with pytest.raises(IllegalRequest, match=r"R12\.2"):
        play([{}, night(necromancer={"protect": ["Nekro"]})])


def test_R12_4_protect_does_not_save_from_blast():
    """R12.4 "A protect does not save from hanging or from a kamikaze blast." """
    res = play([{}, night(necromancer={"protect": ["Boris"]}), night(kamikaze=t("Boris"))])
    assert died(res, 2) == {"Boris": "kamikaze", "Kenji": "kamikaze"}
    assert fired(res, 2) == set()


def test_R12_4_protect_does_not_save_from_hanging():
    """R12.4 "A protect does not save from hanging" """
    res = play([{}, night(necromancer={"protect": ["Boris"]}),
                day([("Olga", "Boris"), ("Pavel", "Boris")])])
    assert died(res, 2) == {"Boris": "hanged"}


def test_R12_3_necromancer_killed_same_night_protects_do_not_fire_and_die_with_him():
    """R12.3 "If the necromancer is alive when he resurrects (step 6)";
    D12.2 "Protects die with the necromancer." """
    res = play([
        {},
        night(necromancer={"protect": ["Boris", "Olga"]}),
        night(yakuza=yak("Nekro"), triad=tri("Boris")),
        night(triad=tri("Olga")),
    ])
    assert died(res, 2) == {"Nekro": "yakuza", "Boris": "triad"}
    assert fired(res, 2) == set()
    assert died(res, 3) == {"Olga": "triad"}


def test_D4_1_c_healed_necromancer_still_resurrects():
    """D4.1 (c) "the necromancer resurrects if he is not beaten and is alive
    after (b)" """
    res = play([{}, night(necromancer={"protect": ["Boris"]}, yakuza=yak("Nekro"),
                          doctor=t("Nekro"), triad=tri("Boris"))])
    assert died(res, 1) == {}
    assert fired(res, 1) == {"Boris"}


# ---- Army of Darkness ------------------------------------------------------


def _heroes_killed_then(army_turn):
    """ARMY table (heroes: ninja, doctor). Turn 0 the maniac kills the doctor,
    turn 1 the Yakuza kills the ninja; then `army_turn`."""
    return [night(maniac=t("Doc")), night(yakuza=yak("Hattori")), army_turn]


def test_R12_5_army_kills_two_then_necromancer_dies():
    """R12.5 "when every positive hero ... has died a violent death at the hands
    of the mafia or the maniac, the necromancer may ... raise the dead: they kill
    any two players of his choice, and then he dies." P12.2 he dies at the end
    of step 6, of cause `army`."""
    res = play(_heroes_killed_then(night(necromancer={"army": ["Yuri", "Wang"]}))
               , players=ARMY)
    assert died(res, 2) == {"Yuri": "army", "Wang": "army", "Nekro": "army"}
    assert death(res, 2, "Nekro")["step"] == 6
    assert "Yuri" in paper(res, 2) and "Wang" in paper(res, 2)
    assert_going(res)


def test_R12_5_army_with_all_four_heroes_killed():
    """R12.5 "every positive hero (commissar, sergeant, ninja, doctor)" """
    res = play([
        night(maniac=t("Anna")),
        night(yakuza=yak("Sergei"), triad=tri("Hattori"), maniac=t("Doc")),
        night(necromancer={"army": ["Yuri", "Wang"]}),
    ])
    assert died(res, 2) == {"Yuri": "army", "Wang": "army", "Nekro": "army"}


def test_R12_5_army_illegal_while_a_hero_lives():
    """R12.5 "when every positive hero ... has died" """
    with pytest.raises(IllegalRequest, match=r"R12\.5|D12\.3"):
        play([
            night(maniac=t("Anna")),
            night(yakuza=yak("Sergei"), triad=tri("Hattori")),
            night(necromancer={"army": ["Yuri", "Wang"]}),
        ])


def test_D12_3_ambush_and_blast_count_as_mafia_or_maniac_deaths():
    """D12.3 "At the hands of the mafia or the maniac" means: a mafia shot, the
    kamikaze's blast, the maniac's kill or his ambush."""
    res = play([{}, night(kamikaze=t("Doc"), maniac=AMBUSH, ninja=t("Jack")),
                night(necromancer={"army": ["Yuri", "Wang"]})], players=ARMY)
    assert died(res, 1) == {"Doc": "kamikaze", "Kenji": "kamikaze", "Hattori": "ambush"}
    assert died(res, 2) == {"Yuri": "army", "Wang": "army", "Nekro": "army"}


@pytest.mark.parametrize(
    "turns",
    [
        # hanged (R12.6)
        [{}, day([("Boris", "Doc"), ("Olga", "Doc")], yakuza=yak("Hattori"))],
        # went missing (R16.1)
        [{}, {"absent": ["Doc"], "night": {"yakuza": yak("Hattori")}}],
        # removed for breaking rules (R16.3 step 3)
        [{}, {"removed": ["Doc"], "night": {"yakuza": yak("Hattori")}}],
        # removed for passive play (R16.3 step 7)
        [{}, {"passive": ["Doc"], "night": {"yakuza": yak("Hattori")}}],
        # harakiri
        [night(maniac=t("Doc")), night(ninja=t("Boris")), night(ninja=t("Olga"))],
        # killed by the ninja (not the mafia or the maniac)
        [{}, night(ninja=t("Doc"), yakuza=yak("Hattori"))],
    ],
    ids=["hanged", "missing", "removed", "passive", "harakiri", "ninja_kill"],
)
def test_D12_3_R12_6_army_blocked_by_non_violent_hero_death(turns):
    """R12.6 "The Army can be raised only if no positive hero was hanged";
    D12.3 "A hero who was hanged, went missing, was removed, or died by harakiri
    or the testament blocks the Army for the rest of the game." """
    with pytest.raises(IllegalRequest, match=r"R12\.5|R12\.6|D12\.3"):
        play([*turns, night(necromancer={"army": ["Yuri", "Wang"]})], players=ARMY)


def test_D12_4_no_heroes_in_game_no_army():
    """D12.4 "with no heroes at all in the game, the Army cannot be raised." """
    table = without(FULL, "Anna", "Sergei", "Hattori", "Doc")
    with pytest.raises(IllegalRequest, match=r"D12\.4|R12\.5"):
        play([{}, night(necromancer={"army": ["Yuri", "Wang"]})], players=table)


SMALL = [
    ("Nekro", "necromancer"), ("Doc", "doctor"),
    ("Boris", "civilian"), ("Olga", "civilian"),
    ("Yoshi", "mafioso", "yakuza"), ("Yuri", "mafioso", "yakuza"),
    ("Wei", "mafioso", "triad"), ("Wang", "mafioso", "triad"),
    ("Jack", "maniac"),
]
# Turn 0 the maniac kills the only hero; turn 1 the maniac is hanged and the
# two Dons shoot each other: Nekro, Boris, Olga, Yuri, Wang remain.
SMALL_OPENING = [
    night(maniac=t("Doc")),
    day([("Boris", "Jack"), ("Olga", "Jack")],
        yakuza=yak("Wei"), triad=tri("Yoshi")),
]


def test_R12_6_army_with_exactly_four_others_alive():
    """R12.6 "only if at least four living players besides the necromancer
    remain." """
    res = play([*SMALL_OPENING, night(necromancer={"army": ["Yuri", "Wang"]})], players=SMALL)
    assert set(died(res, 1)) == {"Jack", "Wei", "Yoshi"}
    assert {"Yuri", "Wang"} <= set(died(res, 2))
    assert res["outcome"]["winner"] == "town"


def test_R12_6_army_illegal_with_three_others_alive():
    """R12.6 "at least four living players besides the necromancer" """
    turns = [*SMALL_OPENING, night(yakuza=yak("Olga", shooter="Yuri"))]
    res = play(turns, players=SMALL)
    assert alive(res) == {"Nekro", "Boris", "Yuri", "Wang"}
    assert_going(res)
    with pytest.raises(IllegalRequest, match=r"R12\.6|P12\.3"):
        play([*turns, night(necromancer={"army": ["Yuri", "Wang"]})], players=SMALL)


def test_D12_6_P12_2_army_kill_stopped_by_protect():
    """D12.6 "The Army's two kills are attempts on life: a protect stops them";
    P12.2 protects he handed out earlier still fire that night."""
    res = play([night(maniac=t("Doc")),
                night(yakuza=yak("Hattori"), necromancer={"protect": ["Boris"]}),
                night(necromancer={"army": ["Boris", "Yuri"]})], players=ARMY)
    assert died(res, 2) == {"Yuri": "army", "Nekro": "army"}
    assert fired(res, 2) == {"Boris"}


def test_D12_6_army_not_stopped_by_vest():
    """D12.6 "... the vest (which stops bullets) do[es] not." """
    res = play(_heroes_killed_then(night(necromancer={"army": ["Jack", "Yuri"]})),
               players=ARMY)
    assert died(res, 2) == {"Jack": "army", "Yuri": "army", "Nekro": "army"}


def test_D12_6_army_stopped_by_ambush():
    """D12.6 "... and so does the maniac's ambush (D9.2)" """
    res = play(_heroes_killed_then(night(necromancer={"army": ["Jack", "Yuri"]},
                                         maniac=AMBUSH)), players=ARMY)
    assert "Jack" not in died(res, 2)
    assert died(res, 2)["Yuri"] == "army"
    assert "Nekro" in died(res, 2)


def test_P12_3_army_cannot_target_necromancer():
    """P12.3 "The Army's two targets are distinct living players other than the
    necromancer." """
    with pytest.raises(IllegalRequest, match=r"P12\.3"):
        play(_heroes_killed_then(night(necromancer={"army": ["Nekro", "Yuri"]})),
             players=ARMY)


# ==========================================================================
# R13 Kamikaze
# ==========================================================================


def test_R13_1_blast_kills_target_and_kamikaze_at_step_4():
    """R13.1 "the kamikaze may blow himself up at step 4 next to a player ...
    He dies." """
    res = play([{}, night(kamikaze=t("Boris"))])
    assert died(res, 1) == {"Boris": "kamikaze", "Kenji": "kamikaze"}
    assert death(res, 1, "Boris")["step"] == 4
    assert death(res, 1, "Kenji")["step"] == 4
    assert "Boris" in paper(res, 1)


def test_R13_1_no_blast_on_turn_0():
    """R13.1 "from turn 1"; R3.1 only the maniac acts on turn 0."""
    with pytest.raises(IllegalRequest, match=r"R3\.1|R6\.2|R13\.1"):
        play([night(kamikaze=t("Boris"))])


def test_R13_2_heal_and_protect_do_not_save_blast_victim():
    """R13.2 "Neither heal nor protect saves its victim." """
    res = play([{}, night(kamikaze=t("Boris"), doctor=t("Boris"),
                          necromancer={"protect": ["Boris"]})])
    assert died(res, 1) == {"Boris": "kamikaze", "Kenji": "kamikaze"}
    assert fired(res, 1) == set()


def test_R13_2_blast_kills_ambushed_maniac_with_intact_vest():
    """R13.2 "The blast kills any player, even the maniac in ambush with an
    intact vest." """
    res = play([{}, night(kamikaze=t("Jack"), maniac=AMBUSH)])
    assert set(died(res, 1)) == {"Jack", "Kenji"}
    assert "kamikaze" in causes(res, 1, "Jack")


def test_R13_3_clan_shooter_attacking_kamikaze_dies_with_him():
    """R13.3 "Whoever tries to kill or beat the kamikaze dies with him" """
    res = play([{}, night(triad=tri("Kenji"))])
    assert died(res, 1) == {"Kenji": "kamikaze", "Wang": "kamikaze"}
    assert "Wei" in alive(res)


def test_R13_3_maniac_attacking_kamikaze_dies_with_him():
    """R13.3 "Whoever tries to kill ... the kamikaze dies with him" """
    res = play([{}, night(maniac=t("Kenji"))])
    assert died(res, 1) == {"Kenji": "kamikaze", "Jack": "kamikaze"}


def test_R13_3_ninja_attacking_kamikaze_dies_with_him():
    """R13.3 "Whoever tries to kill ... the kamikaze dies with him" """
    res = play([{}, night(ninja=t("Kenji"))])
    assert died(res, 1) == {"Kenji": "kamikaze", "Hattori": "kamikaze"}


def test_R13_3_thug_beating_kamikaze_dies_with_him():
    """R13.3 "Whoever tries to ... beat the kamikaze dies with him"; P10.1 the
    beating did not happen and is not printed."""
    res = play([{}, night(thug=t("Kenji"))])
    assert died(res, 1) == {"Kenji": "kamikaze", "Li": "kamikaze"}
    assert beaten(res, 1) == set()


@pytest.mark.parametrize(
    "saves",
    [{"doctor": t("Wang"), "necromancer": {"protect": ["Kenji"]}},
     {"doctor": t("Kenji"), "necromancer": {"protect": ["Wang"]}}],
    ids=["heal_attacker_protect_kamikaze", "heal_kamikaze_protect_attacker"],
)
def test_R13_3_heal_or_protect_on_attacker_or_kamikaze_does_not_work(saves):
    """R13.3 "a heal or protect on the attacker or on the kamikaze does not
    work." """
    res = play([{}, night(triad=tri("Kenji"), **saves)])
    assert died(res, 1) == {"Kenji": "kamikaze", "Wang": "kamikaze"}
    assert fired(res, 1) == set()


def test_R13_4_blast_next_to_thug_kills_thug_and_his_victim():
    """R13.4 "If the kamikaze blows up next to the thug, both the thug and the
    player the thug was beating that night die." """
    res = play([{}, night(kamikaze=t("Li"), thug=t("Boris"))])
    assert set(died(res, 1)) == {"Kenji", "Li", "Boris"}
    assert died(res, 1)["Li"] == "kamikaze"
    assert died(res, 1)["Boris"] == "kamikaze"


def test_R13_5_thug_beats_blasting_kamikaze_all_three_die():
    """R13.5 "If the thug beats the kamikaze on the night the kamikaze blows up,
    the thug, the kamikaze and the kamikaze's target all die." """
    res = play([{}, night(kamikaze=t("Boris"), thug=t("Kenji"))])
    assert set(died(res, 1)) == {"Kenji", "Li", "Boris"}
    assert died(res, 1)["Boris"] == "kamikaze"


def test_P10_3_blast_next_to_beaten_player_spares_thug():
    """P10.3 "A blast next to the player the thug beats kills that player only;
    the thug survives ... The victim is not counted as beaten." """
    res = play([{}, night(kamikaze=t("Boris"), thug=t("Boris"))])
    assert died(res, 1) == {"Boris": "kamikaze", "Kenji": "kamikaze"}
    assert "Li" in alive(res)
    assert beaten(res, 1) == set()


def test_D13_2_kamikaze_shooter_killed_by_ambush_takes_maniac():
    """D13.2 "A kamikaze killed by the ambushed maniac (as his clan's shooter)
    dies, and the maniac dies with him" """
    res = play([{}, night(maniac=AMBUSH, yakuza=yak("Jack", shooter="Kenji"))])
    assert set(died(res, 1)) == {"Kenji", "Jack"}
    assert "kamikaze" in causes(res, 1, "Jack")


def test_D13_1_kamikaze_cannot_target_own_vsb():
    """D13.1 "The kamikaze cannot target his own clan's VSB ... nor himself." """
    with pytest.raises(IllegalRequest, match=r"D13\.1|R14\.2"):
        play([{}, night(kamikaze=t("Vy"))])


def test_D13_1_kamikaze_cannot_target_himself():
    """D13.1 "... nor himself." """
    with pytest.raises(IllegalRequest, match=r"D13\.1"):
        play([{}, night(kamikaze=t("Kenji"))])


def test_P13_1_kamikaze_may_blast_own_clanmate():
    """P13.1 "The kamikaze may blow up next to a member of his own clan" """
    res = play([{}, night(kamikaze=t("Yuri"))])
    assert died(res, 1) == {"Yuri": "kamikaze", "Kenji": "kamikaze"}


def test_P13_2_kamikaze_shooter_who_blasts_loses_clan_shot():
    """P13.2 "A kamikaze named as his clan's shooter who also blows up is dead
    at step 4: the clan's shot is lost (R4.1)." """
    res = play([{}, night(yakuza=yak("Olga", shooter="Kenji"), kamikaze=t("Boris"))])
    assert died(res, 1) == {"Boris": "kamikaze", "Kenji": "kamikaze"}


# ==========================================================================
# R14 clan requests (illegal ones)
# ==========================================================================


def test_R14_2_clan_cannot_shoot_own_member():
    """R14.2 "A clan cannot shoot its own members" """
    with pytest.raises(IllegalRequest, match=r"R14\.2"):
        play([{}, night(yakuza=yak("Kenji"))])


def test_R14_2_clan_cannot_shoot_own_vsb():
    """R14.2 "... nor kill or beat its own VSB." """
    with pytest.raises(IllegalRequest, match=r"R14\.2"):
        play([{}, night(triad=tri("Vt"))])


def test_R14_2_D2_3_clan_may_shoot_other_clans_vsb():
    """D2.3 "A clan knows its own VSB only"; R14.2 forbids its own VSB only."""
    res = play([{}, night(yakuza=yak("Vt"))])
    assert died(res, 1) == {"Vt": "yakuza"}


def test_R14_3_don_cannot_shoot_while_another_member_lives():
    """R14.3 "The Don is never the shooter while another member of his clan is
    alive" """
    with pytest.raises(IllegalRequest, match=r"R14\.3"):
        play([{}, night(yakuza=yak("Boris", shooter="Yoshi"))])


@pytest.mark.parametrize(
    "requests",
    [{"yakuza": yak("Boris")}, {"commissar": t("Yuri")}, {"doctor": t("Boris")},
     {"ninja": t("Yuri")}, {"necromancer": {"protect": ["Boris"]}}],
    ids=["clan", "commissar", "doctor", "ninja", "necromancer"],
)
def test_R3_1_R6_2_only_maniac_acts_on_turn_0(requests):
    """R3.1 / R6.2 "On turn 0 only the maniac's requests are accepted." """
    with pytest.raises(IllegalRequest,
                       match=r"R3\.1|R6\.2|R7\.1|R8\.1|R11\.1|R12\.1|D12\.1|R14\.1"):
        play([night(**requests)])


# ==========================================================================
# R4.1 and D4.1 timing
# ==========================================================================


@pytest.mark.parametrize(
    "victim, requests",
    [("Hattori", {"ninja": t("Yuri")}),
     ("Jack", {"maniac": t("Olga")}),
     ("Doc", {"doctor": t("Olga"), "triad": tri("Olga")}),
     ("Nekro", {"necromancer": {"protect": ["Olga"]}, "triad": tri("Olga")})],
    ids=["ninja", "maniac", "doctor", "necromancer"],
)
def test_R4_1_player_blown_up_at_step_4_takes_no_action(victim, requests):
    """R4.1 "A player killed at step 4 takes no action at steps 5-6." """
    res = play([{}, night(kamikaze=t(victim), **requests)])
    expected = {victim: "kamikaze", "Kenji": "kamikaze"}
    if "triad" in requests:
        expected["Olga"] = "triad"
    assert died(res, 1) == expected


def test_R4_1_commissar_blown_up_makes_no_check():
    """R4.1 "A player killed at step 4 takes no action at steps 5-6." """
    res = play([{}, night(kamikaze=t("Anna"), commissar=t("Yuri"))])
    assert checks(res, 1) == []


def test_R4_1_step_5_is_simultaneous():
    """R4.1 "A player killed at step 5 still acts at step 5 (it is
    simultaneous)" """
    res = play([{}, night(yakuza=yak("Hattori"), ninja=t("Wang"),
                          triad=tri("Jack", shooter="Li"), maniac=t("Yuri"))])
    assert died(res, 1) == {"Hattori": "yakuza", "Wang": "ninja", "Yuri": "maniac"}
    res = play([{}, night(ninja=t("Jack"), maniac=t("Hattori"))])
    assert died(res, 1) == {"Jack": "ninja", "Hattori": "maniac"}


def test_R4_1_killed_at_step_5_no_step_6_action_doctor():
    """R4.1 "... but not at step 6"; D4.1 (a)."""
    res = play([{}, night(yakuza=yak("Doc"), triad=tri("Boris"), doctor=t("Boris"))])
    assert died(res, 1) == {"Doc": "yakuza", "Boris": "triad"}


def test_D4_1_e_healed_commissar_checks():
    """D4.1 (e) "the commissar checks if he is not beaten and is alive after (d)" """
    res = play([{}, night(yakuza=yak("Anna"), doctor=t("Anna"), commissar=t("Wang"))])
    assert died(res, 1) == {}
    assert the_check(res, 1)["result"] == "triad"


def test_D4_1_e_protected_commissar_checks():
    """D4.1 (e) "the commissar checks if ... alive after (d)" (protects apply at (d))."""
    res = play([{}, night(yakuza=yak("Anna"), necromancer={"protect": ["Anna"]},
                          commissar=t("Wang"))])
    assert died(res, 1) == {}
    assert fired(res, 1) == {"Anna"}
    assert the_check(res, 1)["result"] == "triad"


def test_D4_1_P7_2_protected_sergeant_still_sees():
    """P7.2 the sergeant sees the check "if the sergeant is alive after D4.1 (d)" """
    res = play([{}, night(triad=tri("Sergei"), necromancer={"protect": ["Sergei"]},
                          commissar=t("Yuri"))])
    assert died(res, 1) == {}
    assert "Sergei" in the_check(res, 1)["seen_by"]


# ==========================================================================
# Further interactions
# ==========================================================================


@pytest.mark.parametrize(
    "kill",
    [{"kamikaze": t("Boris")}, {"yakuza": yak("Boris")}],
    ids=["blown_up_step_4", "shot_step_5"],
)
def test_P3_1_check_on_player_killed_that_night_does_nothing(kill):
    """P3.1 "a request whose target has died before it is carried out does
    nothing" (the check is carried out at step 6, D4.1 (e))."""
    res = play([{}, night(commissar=t("Boris"), **kill)])
    assert "Boris" in died(res, 1)
    assert all(c["result"] is None for c in checks(res, 1)), checks(res, 1)


def test_D9_1_R8_2_heal_does_not_save_maniac_from_two_bullets():
    """R8.2 the heal fails against two attacks; D9.1 the vest stops one bullet,
    "a second mafia bullet the same night kills him"."""
    res = play([{}, night(yakuza=yak("Jack"), triad=tri("Jack"), doctor=t("Jack"))])
    assert set(died(res, 1)) == {"Jack"}


def test_P9_3_vest_before_protect_on_single_bullet():
    """P9.3 "the heal first (R8.5), then the vest (D9.1), then a protect
    (D12.2)": one bullet spends the vest, the protect stays for later."""
    res = play([{}, night(necromancer={"protect": ["Jack"]}, yakuza=yak("Jack")),
                night(triad=tri("Jack")), night(yakuza=yak("Jack"))])
    assert died(res, 1) == {}
    assert T(res, 1)["vest_spent"] is True
    assert fired(res, 1) == set()
    assert died(res, 2) == {}
    assert fired(res, 2) == {"Jack"}
    assert died(res, 3) == {"Jack": "yakuza"}


def test_R8_2_D12_2_heal_fails_on_two_attacks_protect_fires():
    """R8.2 the heal fails against two attacks; D12.2 the protect fires "on the
    first night its holder would otherwise die ... (after heals, D4.1)"."""
    res = play([{}, night(necromancer={"protect": ["Boris"]}),
                night(yakuza=yak("Boris"), triad=tri("Boris"), doctor=t("Boris"))])
    assert died(res, 2) == {}
    assert fired(res, 2) == {"Boris"}


def test_R12_3_R4_1_necromancer_blown_up_protects_do_not_fire():
    """R12.3 protects fire only "If the necromancer is alive when he resurrects
    (step 6)"; R4.1 a player killed at step 4 takes no action at steps 5-6."""
    res = play([{}, night(necromancer={"protect": ["Boris"]}),
                night(kamikaze=t("Nekro"), yakuza=yak("Boris"))])
    assert died(res, 2) == {"Nekro": "kamikaze", "Kenji": "kamikaze", "Boris": "yakuza"}
    assert fired(res, 2) == set()


def test_R4_1_shooter_blown_up_at_step_4_clan_shot_lost():
    """R4.1 "A player killed at step 4 takes no action at steps 5-6." (the
    thug as triad shooter, D14.1)"""
    res = play([{}, night(kamikaze=t("Li"), triad=tri("Boris", shooter="Li"))])
    assert died(res, 1) == {"Li": "kamikaze", "Kenji": "kamikaze"}


def test_R13_3_every_attacker_of_the_kamikaze_dies():
    """R13.3 "Whoever tries to kill or beat the kamikaze dies with him" """
    res = play([{}, night(triad=tri("Kenji"), maniac=t("Kenji"), ninja=t("Kenji"))])
    assert died(res, 1) == {"Kenji": "kamikaze", "Wang": "kamikaze",
                            "Jack": "kamikaze", "Hattori": "kamikaze"}


def test_P11_1_ninja_attempt_on_player_blown_up_first_does_not_count():
    """P11.1 "His kill "happened" (D11.1) when its target dies that night with
    the ninja's attempt among those on him"; P3.1 an attempt on a target who
    died at step 4 does nothing."""
    res = play([
        {},
        night(ninja=t("Boris"), kamikaze=t("Boris")),
        night(ninja=t("Olga")),
        night(ninja=t("Pavel")),
    ])
    assert died(res, 1) == {"Boris": "kamikaze", "Kenji": "kamikaze"}
    assert died(res, 2) == {"Olga": "ninja"}
    assert died(res, 3) == {"Pavel": "ninja", "Hattori": "harakiri"}


@pytest.mark.parametrize(
    "victim, attempt",
    [("Anna", {"commissar": t("Jack")}),
     ("Hattori", {"ninja": t("Jack")}),
     ("Yuri", {"yakuza": yak("Jack")})],
    ids=["commissar", "ninja", "shooter"],
)
def test_R10_4_D9_2_beaten_player_does_not_meet_the_ambush(victim, attempt):
    """R10.4 the beaten player "takes no action in that night's steps 5-6", so
    his attempt on the ambushed maniac is never made and R9.4 does not kill him."""
    res = play([{}, night(maniac=AMBUSH, thug=t(victim), **attempt)])
    assert beaten(res, 1) == {victim}
    assert died(res, 1) == {}


def test_R4_1_P7_3_commissar_shot_does_not_check_ambushed_maniac():
    """R4.1 a player killed at step 5 does not act at step 6; P7.3 the ambush
    kills the checker at D4.1 (e), which he never reaches."""
    res = play([{}, night(maniac=AMBUSH, commissar=t("Jack"), yakuza=yak("Anna"))])
    assert died(res, 1) == {"Anna": "yakuza"}
    assert causes(res, 1, "Anna") == {"yakuza"}


def test_R13_3_P3_1_kamikaze_dead_at_step_4_step_5_shooter_survives():
    """R13.3 the thug who beats the kamikaze dies with him at step 4; P3.1 a
    later attempt whose target has already died does nothing, so the step-5
    shooter does not meet the kamikaze."""
    res = play([{}, night(thug=t("Kenji"), triad=tri("Kenji"))])
    assert died(res, 1) == {"Kenji": "kamikaze", "Li": "kamikaze"}
    assert "Wang" in alive(res)
