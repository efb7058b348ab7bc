"""The referee's decisions: cases no R or D rule settles, decided as the engine plays them.

An independent referee written from the rules alone agreed with the engine only after
adopting the engine's reading of these cases. Each is now a P decision in docs/rules.md;
the test of each is named after its id and plays a scripted game through `resolve`
(docs/resolve.md).
"""

import pytest

from sim.game.errors import IllegalRequest, InputError
from sim.play.resolve import resolve

#: 18 players: every role once, two clans with a Don, a spare mafioso and a VSB each.
FULL = [
    ("Anna", "commissar"), ("Sergei", "sergeant"), ("Hattori", "ninja"), ("Doc", "doctor"),
    ("Nekro", "necromancer"), ("Boris", "civilian"), ("Olga", "civilian"),
    ("Pavel", "civilian"), ("Max", "civilian"), ("Vy", "vsb", "yakuza"),
    ("Vt", "vsb", "triad"), ("Yoshi", "mafioso", "yakuza"), ("Yuri", "mafioso", "yakuza"),
    ("Kenji", "kamikaze"), ("Wei", "mafioso", "triad"), ("Wang", "mafioso", "triad"),
    ("Li", "thug"), ("Jack", "maniac"),
]
DONS = {"yakuza": "Yoshi", "triad": "Wei"}


def play(turns, players=FULL, dons=DONS, **rules):
    ps = []
    for p in players:
        d = {"name": p[0], "role": p[1]}
        if len(p) > 2:
            d["clan"] = p[2]
        ps.append(d)
    g = {"players": ps, "turns": turns, "seed": 1,
         "rules": {"abstention_limit": 0, "require_vsb": False, **rules}}
    if dons is not None:
        g["dons"] = dons
    return resolve(g)


def night(**requests):
    return {"night": requests}


def t(name):
    return {"target": name}


def deaths(res, n):
    """{player: causes} of turn n."""
    return {d["player"]: d["causes"] for d in res["turns"][n]["deaths"]}


def death(res, n, player):
    return next(d for d in res["turns"][n]["deaths"] if d["player"] == player)


def hang(victim, voters):
    return [[v, victim] for v in voters]


VOTERS = ["Boris", "Olga", "Pavel", "Max", "Vy"]


# -- P15.4: the causes list every attempt, the stopped ones too ------------------------------
def test_P15_4_causes_list_the_bullet_the_vest_stopped():
    """The vest stops the Yakuza's bullet (D9.1); the ninja kills the maniac (R11.2). Both
    attempts are listed, and the cause is the first in P15.1's order: `yakuza`."""
    res = play([{}, night(yakuza={"target": "Jack", "shooter": "Yuri"},
                          ninja=t("Jack"))])
    d = death(res, 1, "Jack")
    assert d["causes"] == ["yakuza", "ninja"]
    assert d["cause"] == "yakuza"
    assert res["turns"][1]["vest_spent"] is True


def test_P15_4_causes_list_the_shot_a_heal_would_have_stopped():
    """The Yakuza's shooter meets the ambush (R9.4) while the Triad shoots him and the
    doctor heals him: he dies of the ambush, and the Triad's shot is listed too."""
    res = play([{}, night(maniac={"ambush": True},
                          yakuza={"target": "Jack", "shooter": "Yuri"},
                          triad={"target": "Yuri", "shooter": "Wang"},
                          doctor=t("Yuri"))])
    assert deaths(res, 1)["Yuri"] == ["ambush", "triad"]
    assert "Jack" not in deaths(res, 1)


def test_P15_4_causes_list_the_shot_a_protect_would_have_stopped():
    """As above with a protect on the shooter: he dies of the ambush, the Triad's shot is
    listed, and the protect does not fire (P12.9)."""
    res = play([{}, night(maniac={"ambush": True},
                          yakuza={"target": "Jack", "shooter": "Yuri"},
                          triad={"target": "Yuri", "shooter": "Wang"},
                          necromancer={"protect": ["Yuri"]})])
    assert deaths(res, 1)["Yuri"] == ["ambush", "triad"]
    assert res["turns"][1]["protects_fired"] == []


# -- P14.4: a shooter listed absent makes the order illegal, not void ------------------------
def test_P14_4_absent_shooter_makes_the_order_illegal():
    with pytest.raises(IllegalRequest, match=r"Yuri posted nothing.*\[P3\.2\]"):
        play([{}, {"absent": ["Yuri"],
                   "night": {"yakuza": {"target": "Boris", "shooter": "Yuri"}}}])


def test_P14_4_hanged_shooter_makes_the_order_void():
    """Contrast: a shooter hanged at step 2 makes the order void (P3.1): no shot, no error."""
    res = play([{}, {"votes": hang("Yuri", VOTERS),
                     "night": {"yakuza": {"target": "Boris", "shooter": "Yuri"}}}])
    assert deaths(res, 1) == {"Yuri": ["hanged"]}
    assert "Boris" in res["alive"]


# -- P3.4: void or illegal, in this order: target left, actor left, actor absent -------------
def test_P3_4_target_left_makes_an_absent_actors_request_void():
    """The doctor posted nothing (absent) and heals the player hanged that day: the
    target's leaving is found first, and the request is void, not illegal."""
    res = play([{}, {"votes": hang("Yuri", VOTERS), "absent": ["Doc"],
                     "night": {"doctor": t("Yuri")}}])
    assert deaths(res, 1) == {"Doc": ["missing"], "Yuri": ["hanged"]}


def test_P3_4_target_left_makes_an_absent_shooters_order_void():
    res = play([{}, {"votes": hang("Boris", ["Olga", "Pavel", "Max", "Vy"]),
                     "absent": ["Yuri"],
                     "night": {"yakuza": {"target": "Boris", "shooter": "Yuri"}}}])
    assert deaths(res, 1) == {"Yuri": ["missing"], "Boris": ["hanged"]}


def test_P3_4_actor_left_makes_his_request_void_before_it_is_checked():
    """The doctor hanged at step 2 asked to heal himself (R8.4): void, not illegal."""
    res = play([{}, {"votes": hang("Doc", VOTERS), "night": {"doctor": t("Doc")}}])
    assert deaths(res, 1) == {"Doc": ["hanged"]}


def test_P3_4_absent_actor_with_a_living_target_is_illegal():
    with pytest.raises(IllegalRequest, match=r"Doc posted nothing.*\[P3\.2\]"):
        play([{}, {"absent": ["Doc"], "night": {"doctor": t("Boris")}}])


# -- P11.4: no harakiri for a ninja who dies anyway that night -------------------------------
def test_P11_4_ninja_killed_anyway_gets_no_harakiri():
    """The ninja kills his second peaceful player (R11.3) on the night the Yakuza shoots
    him: he dies of the shot, with no `harakiri` among his causes."""
    res = play([{}, night(ninja=t("Boris")),
                night(ninja=t("Olga"), yakuza={"target": "Hattori", "shooter": "Yuri"})])
    assert deaths(res, 1) == {"Boris": ["ninja"]}
    assert deaths(res, 2) == {"Olga": ["ninja"], "Hattori": ["yakuza"]}


def test_P11_4_contrast_ninja_alive_commits_harakiri():
    res = play([{}, night(ninja=t("Boris")), night(ninja=t("Olga"))])
    assert deaths(res, 2) == {"Olga": ["ninja"], "Hattori": ["harakiri"]}


# -- P12.9: nothing is spent on a player who dies of what nothing saves ----------------------
def test_P12_9_vest_not_spent_on_a_maniac_who_dies_of_the_kamikaze():
    """The maniac kills the kamikaze at step 5 and dies with him (R13.3) while the Triad
    shoots him: the vest is not spent on that bullet."""
    res = play([{}, night(maniac=t("Kenji"), triad={"target": "Jack", "shooter": "Wang"})])
    assert deaths(res, 1)["Jack"] == ["kamikaze", "triad"]
    assert res["turns"][1]["vest_spent"] is False


def test_P12_9_protect_not_spent_on_a_player_who_meets_the_ambush():
    """The protected Yakuza shooter meets the ambush: the protect does not fire, and it
    does not fire on the Triad's shot either."""
    res = play([{}, night(maniac={"ambush": True},
                          yakuza={"target": "Jack", "shooter": "Yuri"},
                          triad={"target": "Yuri", "shooter": "Wang"},
                          necromancer={"protect": ["Yuri"]})])
    assert "Yuri" in deaths(res, 1)
    assert res["turns"][1]["protects_fired"] == []


def test_P12_9_protect_spent_on_a_ninja_who_then_commits_harakiri():
    """Not an exception but the order of D4.1: harakiri comes after the protects apply, so
    a protect that saved the ninja from a shot is spent (P11.2)."""
    res = play([{}, night(ninja=t("Boris"), necromancer={"protect": ["Hattori"]}),
                night(ninja=t("Olga"), yakuza={"target": "Hattori", "shooter": "Yuri"})])
    assert res["turns"][2]["protects_fired"] == ["Hattori"]
    assert deaths(res, 2)["Hattori"] == ["harakiri"]


# -- P12.10, P12.11: the necromancer raising the Army ----------------------------------------
#: Heroes: the ninja and the doctor only (D12.4).
ARMY = [p for p in FULL if p[0] not in ("Anna", "Sergei")]


def test_P12_10_necromancer_killed_at_step5_while_raising_the_army_has_no_army_cause():
    """Both heroes die at the hands of the maniac and the Yakuza (R12.5); the necromancer
    raises the Army and the maniac kills him the same night: the Army's kills stand, and he
    dies of `maniac` alone, at step 5."""
    res = play([night(maniac=t("Doc")),
                night(yakuza={"target": "Hattori", "shooter": "Yuri"}),
                night(necromancer={"army": ["Yuri", "Wang"]}, maniac=t("Nekro"))],
               players=ARMY)
    assert res["turns"][2]["army_raised"] is True
    d = death(res, 2, "Nekro")
    assert d["causes"] == ["maniac"] and d["step"] == 5
    assert deaths(res, 2)["Yuri"] == ["army"]
    assert deaths(res, 2)["Wang"] == ["army"]


def test_P12_10_contrast_necromancer_not_attacked_dies_of_army_at_step6():
    res = play([night(maniac=t("Doc")),
                night(yakuza={"target": "Hattori", "shooter": "Yuri"}),
                night(necromancer={"army": ["Yuri", "Wang"]})],
               players=ARMY)
    d = death(res, 2, "Nekro")
    assert d["causes"] == ["army"] and d["step"] == 6


#: Six players: one hero, two one-man clans, the maniac, a civilian and the necromancer.
SMALL = [("Nekro", "necromancer"), ("Doc", "doctor"), ("Jack", "maniac"),
         ("Yuri", "mafioso", "yakuza"), ("Wei", "mafioso", "triad"), ("Boris", "civilian")]


def test_P12_11_army_deaths_at_steps_5_and_6_removed_together_before_wins():
    """After the maniac killed the doctor on turn 0, the Army takes both Dons, the Yakuza's
    Don kills the maniac (no vest) and the maniac kills Boris. After step 5 only the
    necromancer is alive (a Town win if wins were checked there); his step-6 death is
    removed with the others first, so nobody is alive: a draw (D17.3)."""
    res = play([night(maniac=t("Doc")),
                night(necromancer={"army": ["Yuri", "Wei"]},
                      yakuza={"target": "Jack", "shooter": "Yuri"}, maniac=t("Boris"))],
               players=SMALL, dons={"yakuza": "Yuri", "triad": "Wei"}, maniac_vest=False)
    assert deaths(res, 1) == {"Jack": ["yakuza"], "Yuri": ["army"], "Wei": ["army"],
                              "Boris": ["maniac"], "Nekro": ["army"]}
    assert death(res, 1, "Nekro")["step"] == 6
    assert res["alive"] == []
    assert (res["outcome"]["winner"], res["outcome"]["reason"]) == ("draw", "nobody_alive")


# -- P3.5: a request for a role missing from the table ---------------------------------------
def test_P3_5_request_for_a_missing_role_refused_when_the_day_ends_the_game():
    """The hanging of the last mafioso ends the game at step 2 (D4.2), so the night is never
    played; a doctor's request on a table without a doctor is still an input error."""
    players = [("Boris", "civilian"), ("Olga", "civilian"), ("Pavel", "civilian"),
               ("Yuri", "mafioso", "yakuza")]
    turn = {"votes": hang("Yuri", ["Boris", "Olga", "Pavel"]), "night": {"doctor": t("Boris")}}
    with pytest.raises(InputError, match="there is no doctor in this game"):
        play([{}, turn], players=players, dons=None)
    del turn["night"]
    res = play([{}, turn], players=players, dons=None)
    assert res["outcome"]["winner"] == "town"
