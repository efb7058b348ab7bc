"""Rule scenario tests: turn structure, voting, clans, newspaper, attrition,
winning and composition checks (RULES.md R3-R5, R14-R17, D2.1; docs/rules.md P..).

Written from the rules text alone, through the scripted-game API of
docs/resolve.md, to check the engine independently.
"""
import pytest

from sim.game.errors import IllegalRequest, InputError
from sim.play.resolve import resolve

# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def P(name, role, clan=None):
    d = {"name": name, "role": role}
    if clan:
        d["clan"] = clan
    return d


def game(players, turns, dons=None, seed=1, **rules):
    """Input dict for resolve(); players are (name, role[, clan]) tuples."""
    g = {
        "players": [P(*p) if isinstance(p, tuple) else p for p in players],
        "rules": {"abstention_limit": 0, "require_vsb": False, **rules},
        "seed": seed,
        "turns": turns,
    }
    if dons is not None:
        g["dons"] = dons
    return g


def run(players, turns, **kw):
    return resolve(game(players, turns, **kw))


def deaths(res, t):
    """{player: cause} for turn t."""
    return {d["player"]: d["cause"] for d in res["turns"][t]["deaths"]}


def death(res, t, name):
    for d in res["turns"][t]["deaths"]:
        if d["player"] == name:
            return d
    return None


def all_deaths(res):
    return {d["player"]: d["cause"] for tr in res["turns"] for d in tr["deaths"]}


def hanged(res, t):
    return res["turns"][t]["hanged"]


def outcome(res):
    o = res["outcome"]
    return (o["winner"], o["reason"])


def paper(res, t, lang="en"):
    return res["turns"][t]["newspaper"][lang]


def votes_for(target, voters):
    return [[v, target] for v in voters if v != target]


# Standard table: 17 players, both clans with VSBs, a maniac.
CIVS = ["Anna", "Boris", "Vera", "Gleb", "Dmitri", "Elena"]
STD = [
    ("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
    ("Gleb", "civilian"), ("Dmitri", "civilian"), ("Elena", "civilian"),
    ("Zoya", "commissar"), ("Ivan", "doctor"),
    ("Yoshi", "mafioso", "yakuza"), ("Kaito", "mafioso", "yakuza"),
    ("Kenji", "kamikaze"), ("Yumi", "vsb", "yakuza"),
    ("Wei", "mafioso", "triad"), ("Chen", "mafioso", "triad"),
    ("Bao", "thug"), ("Tina", "vsb", "triad"),
    ("Maxim", "maniac"),
]
STD_NAMES = [p[0] for p in STD]
STD_N = [*STD, ("Nikolai", "ninja")]


def voters_except(*skip, names=STD_NAMES):
    return [n for n in names if n not in skip]


# --------------------------------------------------------------------------
# R3 turn structure, R6.2
# --------------------------------------------------------------------------

def test_R3_1_turn0_maniac_kills():
    """R3.1/R9.1: "Only the maniac's requests are accepted on turn 0 (so only
    the maniac acts that night)." The maniac strikes already on turn 0."""
    res = run(STD, [{"night": {"maniac": {"target": "Anna"}}}])
    assert res["turns"][0]["turn"] == 0
    d = death(res, 0, "Anna")
    assert d is not None and d["cause"] == "maniac" and d["step"] == 5
    assert hanged(res, 0) is None
    assert res["outcome"]["winner"] is None


@pytest.mark.parametrize("night", [
    {"yakuza": {"target": "Anna", "shooter": "Kaito"}},
    {"triad": {"target": "Anna", "shooter": "Chen"}},
    {"kamikaze": {"target": "Anna"}},
    {"thug": {"target": "Anna"}},
    {"commissar": {"target": "Kaito"}},
    {"doctor": {"target": "Boris"}},
])
def test_R6_2_turn0_only_maniac_requests_accepted(night):
    """R6.2: "On turn 0 only the maniac's requests are accepted." A non-maniac
    request on turn 0 is either refused as illegal or has no effect."""
    try:
        res = run(STD, [{"night": night}])
    except IllegalRequest:
        return
    assert res["turns"][0]["deaths"] == []
    assert res["turns"][0]["beaten"] == []
    assert res["turns"][0]["checks"] == []


def test_R3_1_turn0_has_no_vote():
    """R3.1: "Turn 0 has no vote." Votes on turn 0 are refused or ignored."""
    try:
        res = run(STD, [{"votes": votes_for("Anna", ["Boris", "Vera", "Gleb"])}])
    except IllegalRequest:
        return
    assert hanged(res, 0) is None
    assert res["turns"][0]["deaths"] == []


def test_R3_3_newspaper_after_every_turn():
    """R3.3: "The host publishes a newspaper after each turn (R15)." """
    res = run(STD, [{"night": {"maniac": {"target": "Anna"}}}, {}, {}])
    assert len(res["turns"]) == 3
    for t, tr in enumerate(res["turns"]):
        assert tr["turn"] == t
        assert isinstance(tr["newspaper"]["ru"], str) and tr["newspaper"]["ru"]
        assert isinstance(tr["newspaper"]["en"], str) and tr["newspaper"]["en"]


# --------------------------------------------------------------------------
# R4 order of a turn, R4.1, D4.2
# --------------------------------------------------------------------------

def test_R4_steps_in_order():
    """R4: 1 absent leave, 2 hanging, 3 rule breakers removed, 4 kamikaze,
    5 shots, 7 passive players leave. `deaths` is in step order."""
    turn1 = {
        "absent": ["Anna"],
        "votes": votes_for("Boris", ["Gleb", "Dmitri", "Zoya", "Ivan"]),
        "removed": ["Vera"],
        "passive": ["Elena"],
        "night": {
            "kamikaze": {"target": "Gleb"},
            "yakuza": {"target": "Dmitri", "shooter": "Kaito"},
        },
    }
    res = run(STD, [{}, turn1])
    steps = {d["player"]: (d["cause"], d["step"]) for d in res["turns"][1]["deaths"]}
    assert steps["Anna"] == ("missing", 1)
    assert steps["Boris"] == ("hanged", 2)
    assert steps["Vera"] == ("removed", 3)
    assert steps["Gleb"] == ("kamikaze", 4)
    assert steps["Kenji"][1] == 4
    assert steps["Dmitri"] == ("yakuza", 5)
    assert steps["Elena"] == ("removed", 7)
    assert hanged(res, 1) == "Boris"
    order = [d["step"] for d in res["turns"][1]["deaths"]]
    assert order == sorted(order)
    assert res["outcome"]["winner"] is None


def test_R4_1_killed_at_step4_takes_no_step5_action_shooter():
    """R4.1: "A player killed at step 4 takes no action at steps 5-6." The
    kamikaze blows up the Triad's shooter: the Triad's shot is lost."""
    turn1 = {"night": {
        "kamikaze": {"target": "Chen"},
        "triad": {"target": "Anna", "shooter": "Chen"},
    }}
    res = run(STD, [{}, turn1])
    d = deaths(res, 1)
    assert d.get("Chen") == "kamikaze"
    assert "Anna" not in d


def test_R4_1_killed_at_step4_takes_no_step5_action_maniac():
    """R4.1: the maniac blown up at step 4 does not kill at step 5."""
    turn1 = {"night": {
        "kamikaze": {"target": "Maxim"},
        "maniac": {"target": "Boris"},
    }}
    res = run(STD, [{}, turn1])
    d = deaths(res, 1)
    assert d.get("Maxim") == "kamikaze"
    assert death(res, 1, "Maxim")["step"] == 4
    assert "Boris" not in d


def test_R4_1_killed_at_step5_still_acts_at_step5():
    """R4.1: "A player killed at step 5 still acts at step 5 (it is
    simultaneous)". The maniac kills the Yakuza shooter, whose shot lands."""
    turn1 = {"night": {
        "maniac": {"target": "Kaito"},
        "yakuza": {"target": "Anna", "shooter": "Kaito"},
    }}
    res = run(STD, [{}, turn1])
    d = deaths(res, 1)
    assert d.get("Kaito") == "maniac"
    assert d.get("Anna") == "yakuza"
    assert death(res, 1, "Kaito")["step"] == 5
    assert death(res, 1, "Anna")["step"] == 5


def test_R4_1_killed_at_step5_takes_no_step6_action():
    """R4.1: a player killed at step 5 does not act at step 6: the commissar
    shot at step 5 gets no check."""
    turn1 = {"night": {
        "yakuza": {"target": "Zoya", "shooter": "Kaito"},
        "commissar": {"target": "Wei"},
    }}
    res = run(STD, [{}, turn1])
    assert deaths(res, 1).get("Zoya") == "yakuza"
    assert res["turns"][1]["checks"] == []


HANG_END = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
            ("Nikolai", "ninja"), ("Maxim", "maniac")]


def test_D4_2_hanging_that_ends_game_means_no_night():
    """D4.2: "Wins are checked after every step that removes a player." The
    last enemy is hanged at step 2: Town wins, and no night follows."""
    turn1 = {"votes": votes_for("Maxim", ["Anna", "Boris", "Vera"]),
             "night": {"ninja": {"target": "Anna"},
                       "maniac": {"target": "Boris"}}}
    res = run(HANG_END, [{}, turn1])
    assert hanged(res, 1) == "Maxim"
    assert deaths(res, 1) == {"Maxim": "hanged"}
    assert outcome(res) == ("town", "camp_wipe")
    assert set(res["alive"]) == {"Anna", "Boris", "Vera", "Nikolai"}


def test_D4_2_win_at_step1_before_hanging():
    """D4.2: a win at step 1 (the last non-clan player leaves) ends the game
    before the hanging of step 2."""
    players = [("Yoshi", "mafioso", "yakuza"), ("Kaito", "mafioso", "yakuza"),
               ("Anna", "civilian")]
    turn1 = {"absent": ["Anna"], "votes": [["Yoshi", "Kaito"]]}
    res = run(players, [{}, turn1])
    assert deaths(res, 1) == {"Anna": "missing"}
    assert hanged(res, 1) is None
    assert outcome(res) == ("yakuza", "camp_wipe")
    assert set(res["alive"]) == {"Yoshi", "Kaito"}


def test_P3_3_turn_after_end_is_input_error():
    """P3.3: "A game that has ended takes no further turns: a scripted turn
    after the end is an input error." """
    turn1 = {"votes": votes_for("Maxim", ["Anna", "Boris", "Vera"])}
    with pytest.raises(InputError):
        run(HANG_END, [{}, turn1, {}])


# --------------------------------------------------------------------------
# R5 voting
# --------------------------------------------------------------------------

VOTERS = ["Gleb", "Dmitri", "Elena", "Zoya", "Ivan", "Yoshi", "Kaito", "Wei", "Chen"]


@pytest.mark.parametrize("targets, expected", [
    # A and B tie at 2; A was voted first but B reached 2 first.
    (["Anna", "Boris", "Boris", "Anna"], "Boris"),
    # A reaches 2 first.
    (["Anna", "Boris", "Anna", "Boris"], "Anna"),
    # three-way tie at 1: the first voted reached 1 first.
    (["Boris", "Anna", "Vera"], "Boris"),
    # three-way tie at 2: Boris reaches 2 at the 4th vote.
    (["Vera", "Anna", "Boris", "Boris", "Anna", "Vera"], "Boris"),
    # three-way tie at 2, Vera reaches 2 first at the 3rd vote.
    (["Vera", "Anna", "Vera", "Boris", "Anna", "Boris"], "Vera"),
    # no tie: the most votes wins regardless of order.
    (["Anna", "Anna", "Boris", "Vera", "Boris", "Vera", "Vera"], "Vera"),
])
def test_R5_2_tie_first_to_reach_highest_count_is_hanged(targets, expected):
    """R5.2: "The player with the most votes is hanged. If several tie, the
    one who first reached that highest count is hanged." """
    votes = [[v, t] for v, t in zip(VOTERS, targets, strict=False)]
    res = run(STD, [{}, {"votes": votes}])
    assert hanged(res, 1) == expected
    assert deaths(res, 1) == {expected: "hanged"}
    assert death(res, 1, expected)["step"] == 2


def test_D5_1_no_votes_no_hanging():
    """D5.1: "If nobody casts a valid vote, nobody is hanged." """
    res = run(STD, [{}, {"votes": []}, {}])
    assert hanged(res, 1) is None and hanged(res, 2) is None
    assert res["turns"][1]["deaths"] == [] and res["turns"][2]["deaths"] == []
    assert res["outcome"]["winner"] is None


def test_P5_1_self_vote_illegal():
    """P5.1: "A player may not vote for himself." """
    with pytest.raises(IllegalRequest):
        run(STD, [{}, {"votes": [["Anna", "Anna"]]}])


def test_R5_1_vote_cannot_be_changed_one_vote_per_turn():
    """R5.1/P5.2: each living player may vote once per turn; a vote cannot be
    changed. A second vote by the same voter is illegal."""
    with pytest.raises(IllegalRequest):
        run(STD, [{}, {"votes": [["Anna", "Boris"], ["Anna", "Vera"]]}])


def test_P5_2_dead_voter_illegal():
    """P5.2: a vote is legal only if the voter is alive."""
    t0 = {"night": {"maniac": {"target": "Anna"}}}
    with pytest.raises(IllegalRequest):
        run(STD, [t0, {"votes": [["Anna", "Boris"]]}])


def test_P5_2_dead_target_illegal():
    """P5.2: the target must be alive at the start of the day."""
    t0 = {"night": {"maniac": {"target": "Anna"}}}
    with pytest.raises(IllegalRequest):
        run(STD, [t0, {"votes": [["Boris", "Anna"]]}])


def test_P5_2_absent_voter_illegal():
    """P5.2/P3.2: a request from a player listed as absent that turn is
    illegal."""
    with pytest.raises(IllegalRequest):
        run(STD, [{}, {"absent": ["Anna"], "votes": [["Anna", "Boris"]]}])


def test_R5_5_beaten_player_cannot_vote_next_day():
    """R5.5/P5.2: "A player beaten by the thug cannot vote or post in the
    next day." """
    t1 = {"night": {"thug": {"target": "Anna"}}}
    with pytest.raises(IllegalRequest):
        run(STD, [{}, t1, {"votes": [["Anna", "Boris"]]}])


def test_P5_3_votes_against_absent_do_not_count_for_hanging():
    """P5.3: "Votes against a player who left at step 1 (R16.1) do not count
    for the hanging; the hanging goes to the remaining player with most
    votes by R5.2." """
    votes = (votes_for("Anna", ["Gleb", "Dmitri", "Elena"])
             + votes_for("Boris", ["Zoya", "Ivan"])
             + votes_for("Vera", ["Yoshi"]))
    res = run(STD, [{}, {"absent": ["Anna"], "votes": votes}])
    assert death(res, 1, "Anna")["cause"] == "missing"
    assert death(res, 1, "Anna")["step"] == 1
    assert hanged(res, 1) == "Boris"
    assert deaths(res, 1) == {"Anna": "missing", "Boris": "hanged"}


# --------------------------------------------------------------------------
# R14 clans, D2.2
# --------------------------------------------------------------------------

def test_R14_1_each_clan_shoots():
    """R14.1: "Each night from turn 1 each clan kills one player: the Don
    sends the target and the shooter." """
    t1 = {"night": {"yakuza": {"target": "Anna", "shooter": "Kaito"},
                    "triad": {"target": "Boris", "shooter": "Chen"}}}
    res = run(STD, [{}, t1])
    assert deaths(res, 1) == {"Anna": "yakuza", "Boris": "triad"}
    assert death(res, 1, "Anna")["step"] == 5


def test_R14_1_two_clans_shoot_same_target():
    """R14.1/P15.1: both clans shoot the same player: he dies, with both
    causes in the order yakuza, triad."""
    t1 = {"night": {"yakuza": {"target": "Anna", "shooter": "Kaito"},
                    "triad": {"target": "Anna", "shooter": "Chen"}}}
    res = run(STD, [{}, t1])
    assert deaths(res, 1) == {"Anna": "yakuza"}
    assert death(res, 1, "Anna")["causes"] == ["yakuza", "triad"]


def test_R14_1_clans_shoot_each_others_shooters():
    """R14.1 with R4.1: the clans shoot each other's shooters at step 5;
    both shots land (simultaneous)."""
    t1 = {"night": {"yakuza": {"target": "Chen", "shooter": "Kaito"},
                    "triad": {"target": "Kaito", "shooter": "Chen"}}}
    res = run(STD, [{}, t1])
    assert deaths(res, 1) == {"Chen": "yakuza", "Kaito": "triad"}


def test_R14_1_clans_shoot_each_others_dons():
    """R14.1: clans may shoot the other clan's Don."""
    t1 = {"night": {"yakuza": {"target": "Wei", "shooter": "Kaito"},
                    "triad": {"target": "Yoshi", "shooter": "Chen"}}}
    res = run(STD, [{}, t1])
    assert deaths(res, 1) == {"Wei": "yakuza", "Yoshi": "triad"}


def test_R14_2_clan_cannot_shoot_own_member():
    """R14.2: "A clan cannot shoot its own members"."""
    with pytest.raises(IllegalRequest):
        run(STD, [{}, {"night": {"yakuza": {"target": "Kenji", "shooter": "Kaito"}}}])


def test_R14_2_clan_cannot_kill_own_vsb_but_may_kill_other_vsb():
    """R14.2: a clan cannot "kill or beat its own VSB"; D2.3: it knows only
    its own VSB, so the other clan's VSB is a legal target."""
    with pytest.raises(IllegalRequest):
        run(STD, [{}, {"night": {"yakuza": {"target": "Yumi", "shooter": "Kaito"}}}])
    res = run(STD, [{}, {"night": {"yakuza": {"target": "Tina", "shooter": "Kaito"}}}])
    assert deaths(res, 1) == {"Tina": "yakuza"}


def test_P14_1_shooter_must_be_clan_member():
    """P14.1: "The shooter of a clan is a living member of the clan"."""
    with pytest.raises(IllegalRequest):
        run(STD, [{}, {"night": {"yakuza": {"target": "Anna", "shooter": "Chen"}}}])


def test_R14_3_don_not_shooter_while_others_live():
    """R14.3: "The Don is never the shooter while another member of his clan
    is alive". Yoshi (first listed) is the Yakuza Don by default."""
    with pytest.raises(IllegalRequest):
        run(STD, [{}, {"night": {"yakuza": {"target": "Anna", "shooter": "Yoshi"}}}])


def test_R14_3_don_not_shooter_while_kamikaze_lives():
    """R14.3: the kamikaze is "another member" too: the Don cannot shoot."""
    players = [("Yoshi", "mafioso", "yakuza"), ("Kenji", "kamikaze")] + \
        [(n, "civilian") for n in CIVS]
    with pytest.raises(IllegalRequest):
        run(players, [{}, {"night": {"yakuza": {"target": "Anna", "shooter": "Yoshi"}}}])


def test_R14_3_lone_don_shoots():
    """R14.3: the Don does no dirty work "until he is alone": then he is the
    shooter."""
    players = [("Yoshi", "mafioso", "yakuza"), ("Kaito", "mafioso", "yakuza")] + \
        [(n, "civilian") for n in CIVS]
    t1 = {"votes": votes_for("Kaito", ["Anna", "Boris", "Vera"])}
    t2 = {"night": {"yakuza": {"target": "Anna", "shooter": "Yoshi"}}}
    res = run(players, [{}, t1, t2])
    assert hanged(res, 1) == "Kaito"
    assert deaths(res, 2) == {"Anna": "yakuza"}


def test_R2_6_dons_field_sets_the_don():
    """R2.6/resolve.md `dons`: the clan picks its Don. With Kaito as Don,
    Yoshi may shoot and Kaito may not (R14.3)."""
    t1 = {"night": {"yakuza": {"target": "Anna", "shooter": "Yoshi"}}}
    res = run(STD, [{}, t1], dons={"yakuza": "Kaito", "triad": "Wei"})
    assert deaths(res, 1) == {"Anna": "yakuza"}
    t1bad = {"night": {"yakuza": {"target": "Anna", "shooter": "Kaito"}}}
    with pytest.raises(IllegalRequest):
        run(STD, [{}, t1bad], dons={"yakuza": "Kaito", "triad": "Wei"})


@pytest.mark.parametrize("dons", [{"yakuza": "Kenji"}, {"triad": "Bao"},
                                  {"yakuza": "Wei"}, {"yakuza": "Yumi"}])
def test_R2_6_kamikaze_thug_or_outsider_cannot_be_don(dons):
    """R2.6: "The kamikaze and the thug cannot be Don." Nor can a player of
    another clan or the VSB."""
    with pytest.raises((InputError, IllegalRequest)):
        run(STD, [{}, {}], dons=dons)


def test_D2_2_don_succession_skips_kamikaze():
    """D2.2/P14.2: "When a Don dies, his clan's next Don is another living
    member who is neither the kamikaze nor the thug" (first in seating
    order). Here Yoshi is hanged; the kamikaze Kenji is listed before Kaito
    but Kaito becomes Don: Kaito cannot shoot while Kenji lives, Kenji can."""
    players = [("Yoshi", "mafioso", "yakuza"), ("Kenji", "kamikaze"),
               ("Kaito", "mafioso", "yakuza")] + [(n, "civilian") for n in CIVS] + \
        [("Wei", "mafioso", "triad"), ("Chen", "mafioso", "triad")]
    t1 = {"votes": votes_for("Yoshi", ["Anna", "Boris", "Vera"])}
    ok = {"night": {"yakuza": {"target": "Anna", "shooter": "Kenji"}}}
    res = run(players, [{}, t1, ok])
    assert hanged(res, 1) == "Yoshi"
    assert deaths(res, 2) == {"Anna": "yakuza"}
    bad = {"night": {"yakuza": {"target": "Anna", "shooter": "Kaito"}}}
    with pytest.raises(IllegalRequest):
        run(players, [{}, t1, bad])


def test_D2_2_don_succession_seating_order():
    """P14.2: the next Don is "the first living member, in seating order, who
    is neither the kamikaze nor the thug". Wei hanged: Chen (listed before
    Lin) is Don, so Chen may not shoot while Lin lives and Lin may."""
    players = [(n, "civilian") for n in CIVS] + [
        ("Wei", "mafioso", "triad"), ("Chen", "mafioso", "triad"),
        ("Lin", "mafioso", "triad"), ("Yoshi", "mafioso", "yakuza"),
        ("Kaito", "mafioso", "yakuza")]
    t1 = {"votes": votes_for("Wei", ["Anna", "Boris", "Vera"])}
    res = run(players, [{}, t1, {"night": {"triad": {"target": "Anna", "shooter": "Lin"}}}])
    assert deaths(res, 2) == {"Anna": "triad"}
    with pytest.raises(IllegalRequest):
        run(players, [{}, t1, {"night": {"triad": {"target": "Anna", "shooter": "Chen"}}}])


def test_D2_2_only_kamikaze_left_no_don_his_request_accepted():
    """D2.2: "If only the kamikaze or thug is left, the clan has no Don and
    R14.4 applies: his request is accepted and he is the shooter." """
    players = [("Yoshi", "mafioso", "yakuza"), ("Kenji", "kamikaze")] + \
        [(n, "civilian") for n in CIVS] + [("Wei", "mafioso", "triad"),
                                           ("Chen", "mafioso", "triad")]
    t1 = {"votes": votes_for("Yoshi", ["Anna", "Boris", "Vera"])}
    t2 = {"night": {"yakuza": {"target": "Anna", "shooter": "Kenji", "by": "Kenji"}}}
    res = run(players, [{}, t1, t2])
    assert deaths(res, 2) == {"Anna": "yakuza"}


def test_D2_2_only_thug_left_no_don_his_request_accepted():
    """D2.2 for the Triad: only the thug left; his order makes him shooter."""
    players = [("Wei", "mafioso", "triad"), ("Bao", "thug")] + \
        [(n, "civilian") for n in CIVS] + [("Yoshi", "mafioso", "yakuza"),
                                           ("Kaito", "mafioso", "yakuza")]
    t1 = {"votes": votes_for("Wei", ["Anna", "Boris", "Vera"])}
    t2 = {"night": {"triad": {"target": "Anna", "shooter": "Bao", "by": "Bao"}}}
    res = run(players, [{}, t1, t2])
    assert deaths(res, 2) == {"Anna": "triad"}


def test_R14_4_silent_don_member_order_makes_him_shooter():
    """R14.4: "If the Don is silent, a request from any member is accepted,
    and that member is the shooter." """
    t1 = {"night": {"yakuza": {"target": "Anna", "shooter": "Kaito", "by": "Kaito"}}}
    res = run(STD, [{}, t1])
    assert deaths(res, 1) == {"Anna": "yakuza"}
    # the kamikaze is a member too (D14.1)
    t1k = {"night": {"yakuza": {"target": "Boris", "shooter": "Kenji", "by": "Kenji"}}}
    res = run(STD, [{}, t1k])
    assert deaths(res, 1) == {"Boris": "yakuza"}


def test_R14_4_member_order_must_name_himself_shooter():
    """R14.4/P14.1: when the Don is silent a member sends the order "and must
    be the shooter himself"."""
    t1 = {"night": {"yakuza": {"target": "Anna", "shooter": "Kenji", "by": "Kaito"}}}
    with pytest.raises(IllegalRequest):
        run(STD, [{}, t1])


def test_R14_4_order_by_non_member_illegal():
    """R14.4: only a member of the clan may send its order (not its VSB,
    not another clan)."""
    for by in ("Yumi", "Chen"):
        t1 = {"night": {"yakuza": {"target": "Anna", "shooter": by, "by": by}}}
        with pytest.raises(IllegalRequest):
            run(STD, [{}, t1])


# --------------------------------------------------------------------------
# R15 newspaper
# --------------------------------------------------------------------------

def test_R15_2_hanged_role_revealed():
    """R15.2: "The roles of the hanged ... are revealed." """
    t1 = {"votes": votes_for("Zoya", ["Anna", "Boris", "Vera"])}
    res = run(STD, [{}, t1])
    assert hanged(res, 1) == "Zoya"
    en, ru = paper(res, 1, "en"), paper(res, 1, "ru")
    assert "Zoya" in en and "Zoya" in ru
    assert "commissar" in en.lower()
    assert "комиссар" in ru.lower()


def test_D15_2_mafia_reveal_names_the_clan():
    """D15.2: "Mafia roles are revealed as "Yakuza mafioso", "Triad thug",
    etc." """
    t1 = {"votes": votes_for("Kaito", ["Anna", "Boris", "Vera"])}
    t2 = {"votes": votes_for("Bao", ["Anna", "Boris", "Vera"])}
    res = run(STD, [{}, t1, t2])
    assert hanged(res, 1) == "Kaito" and hanged(res, 2) == "Bao"
    en1, ru1 = paper(res, 1, "en"), paper(res, 1, "ru")
    assert "Kaito" in en1 and "Kaito" in ru1
    assert "yakuza" in en1.lower() and "maf" in en1.lower()
    assert "якудз" in ru1.lower() and "маф" in ru1.lower()
    en2, ru2 = paper(res, 2, "en"), paper(res, 2, "ru")
    assert "Bao" in en2 and "Bao" in ru2
    assert "triad" in en2.lower() and "thug" in en2.lower()
    assert "триад" in ru2.lower() and "громил" in ru2.lower()


def test_R15_2_missing_role_revealed():
    """R15.2/R16.1: the absent leave "whatever his role; his role is
    announced"."""
    res = run(STD, [{}, {"absent": ["Ivan"]}])
    assert deaths(res, 1) == {"Ivan": "missing"}
    en, ru = paper(res, 1, "en"), paper(res, 1, "ru")
    assert "Ivan" in en and "Ivan" in ru
    assert "doctor" in en.lower()
    assert "врач" in ru.lower() or "доктор" in ru.lower()


def test_R15_2_removed_role_revealed():
    """R15.2: "a removed player's role is revealed in the newspaper"."""
    res = run(STD, [{}, {"removed": ["Zoya"]}])
    assert deaths(res, 1) == {"Zoya": "removed"}
    en, ru = paper(res, 1, "en"), paper(res, 1, "ru")
    assert "Zoya" in en and "Zoya" in ru
    assert "commissar" in en.lower()
    assert "комиссар" in ru.lower()


def test_R15_3_killer_named():
    """R15.3: "It says who killed each player (by camp or role: "killed by
    the Yakuza", "by the maniac", "by the ninja", "in a kamikaze blast")"."""
    turns = [
        {"night": {"maniac": {"target": "Anna"}}},
        {"night": {"yakuza": {"target": "Boris", "shooter": "Kaito"}}},
        {"night": {"triad": {"target": "Vera", "shooter": "Chen"}}},
        {"night": {"kamikaze": {"target": "Gleb"}}},
        {"night": {"ninja": {"target": "Wei"}}},
    ]
    res = run(STD_N, turns)
    assert deaths(res, 0) == {"Anna": "maniac"}
    assert deaths(res, 1) == {"Boris": "yakuza"}
    assert deaths(res, 2) == {"Vera": "triad"}
    assert deaths(res, 3).get("Gleb") == "kamikaze"
    assert deaths(res, 4) == {"Wei": "ninja"}
    checks = [(0, "Anna", "maniac", ["маньяк"]),
              (1, "Boris", "yakuza", ["якудз"]),
              (2, "Vera", "triad", ["триад"]),
              (3, "Gleb", "kamikaze", ["камикадзе", "взрыв"]),
              (4, "Wei", "ninja", ["ниндз"])]
    for t, name, en_word, ru_words in checks:
        en, ru = paper(res, t, "en"), paper(res, t, "ru")
        assert name in en and name in ru, (t, en, ru)
        assert en_word in en.lower(), (t, en)
        assert any(w in ru.lower() for w in ru_words), (t, ru)


def test_R15_4_ambush_does_not_name_maniac():
    """R15.4: "A kill by the maniac's ambush does not name the maniac."
    P15.2: it says the player died "in an ambush"."""
    t1 = {"night": {"maniac": {"ambush": True},
                    "yakuza": {"target": "Maxim", "shooter": "Kaito"}}}
    res = run(STD, [{}, t1])
    assert deaths(res, 1) == {"Kaito": "ambush"}
    en, ru = paper(res, 1, "en"), paper(res, 1, "ru")
    assert "Kaito" in en and "Kaito" in ru
    assert "Maxim" not in en and "Maxim" not in ru
    assert "ambush" in en.lower()
    assert "засад" in ru.lower()


@pytest.mark.parametrize("reveal", [False, True])
def test_D15_1_reveal_night_roles_option(reveal):
    """D15.1: "Whether the roles of players killed at night are revealed is
    the rule-set field `reveal_night_roles`, default false (the newspaper
    still says who killed them, R15.3)." """
    t1 = {"night": {"yakuza": {"target": "Ivan", "shooter": "Kaito"}}}
    res = run(STD, [{}, t1], reveal_night_roles=reveal)
    assert deaths(res, 1) == {"Ivan": "yakuza"}
    en, ru = paper(res, 1, "en"), paper(res, 1, "ru")
    assert "Ivan" in en and "Ivan" in ru
    assert "yakuza" in en.lower() and "якудз" in ru.lower()
    ru_has_role = "врач" in ru.lower() or "доктор" in ru.lower()
    assert ("doctor" in en.lower()) == reveal
    assert ru_has_role == reveal


def test_D15_1_reveal_night_roles_default_false():
    """D15.1: `reveal_night_roles` defaults to false."""
    g = game(STD, [{}, {"night": {"yakuza": {"target": "Ivan", "shooter": "Kaito"}}}])
    res = resolve(g)
    assert "doctor" not in paper(res, 1, "en").lower()


def test_R15_1_beaten_printed():
    """R15.1/R10.4: the newspaper says who was beaten: "X was beaten by the
    thug"."""
    res = run(STD, [{}, {"night": {"thug": {"target": "Anna"}}}])
    assert res["turns"][1]["beaten"] == ["Anna"]
    assert res["turns"][1]["deaths"] == []
    en, ru = paper(res, 1, "en"), paper(res, 1, "ru")
    assert "Anna" in en and "Anna" in ru
    assert "beat" in en.lower()
    assert "громил" in ru.lower()


# --------------------------------------------------------------------------
# R16 attrition
# --------------------------------------------------------------------------

def test_R16_1_absent_leave_at_step1_whatever_role():
    """R16.1: "A player who posts nothing during a turn (from turn 1) leaves
    town at step 1, whatever his role; his role is announced." """
    res = run(STD, [{}, {"absent": ["Maxim", "Kaito"]}])
    assert deaths(res, 1) == {"Maxim": "missing", "Kaito": "missing"}
    assert {d["step"] for d in res["turns"][1]["deaths"]} == {1}
    en = paper(res, 1, "en").lower()
    assert "maniac" in en and "yakuza" in en


def test_P3_2_absent_player_night_request_illegal():
    """P3.2: "A request from a player who is ... listed as absent (posted
    nothing, R16.1) that turn, is illegal." """
    t1 = {"absent": ["Kaito"],
          "night": {"yakuza": {"target": "Anna", "shooter": "Kaito"}}}
    with pytest.raises(IllegalRequest):
        run(STD, [{}, t1])


def _all_vote(alive, target, skip=()):
    """Everyone alive but `skip` votes for target; target votes for someone
    else (not in skip)."""
    voters = [n for n in alive if n not in skip]
    votes = [[v, target] for v in voters if v != target]
    if target in voters:
        other = next(n for n in voters if n != target)
        votes.append([target, other])
    return votes


def test_R16_2_two_turns_without_vote_missing_at_step7():
    """R16.2/D16.2: "A player who does not vote twice in a game goes missing
    at step 7" (abstention_limit 2). Anna skips the vote on turns 1 and 2."""
    alive1 = list(STD_NAMES)
    t1 = {"votes": _all_vote(alive1, "Boris", skip=("Anna",))}
    alive2 = [n for n in alive1 if n != "Boris"]
    t2 = {"votes": _all_vote(alive2, "Vera", skip=("Anna",))}
    res = run(STD, [{}, t1, t2], abstention_limit=2)
    assert deaths(res, 1) == {"Boris": "hanged"}
    assert deaths(res, 2) == {"Vera": "hanged", "Anna": "missing"}
    assert death(res, 2, "Anna")["step"] == 7
    assert "Anna" in paper(res, 2, "en") and "Anna" in paper(res, 2, "ru")
    assert "civilian" in paper(res, 2, "en").lower()


def test_R16_2_abstentions_need_not_be_consecutive():
    """R16.2: "twice in a game" (Russian: "двукратного отказа от голосования
    в течение партии"): not voting on turns 1 and 3 makes Anna missing at
    step 7 of turn 3."""
    alive = list(STD_NAMES)
    t1 = {"votes": _all_vote(alive, "Boris", skip=("Anna",))}
    alive.remove("Boris")
    t2 = {"votes": _all_vote(alive, "Vera")}
    alive.remove("Vera")
    t3 = {"votes": _all_vote(alive, "Gleb", skip=("Anna",))}
    res = run(STD, [{}, t1, t2, t3], abstention_limit=2)
    assert "Anna" not in all_deaths({"turns": res["turns"][:3]})
    assert deaths(res, 3) == {"Gleb": "hanged", "Anna": "missing"}
    assert death(res, 3, "Anna")["step"] == 7


def test_D16_2_abstention_limit_default_is_2():
    """D16.2: `abstention_limit` default 2: nobody votes on turns 1 and 2, so
    everybody goes missing at step 7 of turn 2 (a draw, D17.3)."""
    g = game(STD, [{}, {}, {}])
    del g["rules"]["abstention_limit"]
    g["turns"] = [{}, {}, {}]
    res = resolve(g)
    assert res["turns"][1]["deaths"] == []
    d2 = deaths(res, 2)
    assert set(d2) == set(STD_NAMES)
    assert set(d2.values()) == {"missing"}
    assert outcome(res) == ("draw", "nobody_alive")


def test_D16_2_abstention_limit_0_turns_rule_off():
    """D16.2: "0 turns the rule off". Nobody votes for four turns: nobody
    goes missing."""
    res = run(STD, [{}, {}, {}, {}, {}], abstention_limit=0)
    assert all_deaths(res) == {}
    assert set(res["alive"]) == set(STD_NAMES)
    assert res["outcome"]["winner"] is None


def test_D10_4_beaten_excused_from_abstention():
    """D10.4: "A beaten player is excused from R16.1 and R16.2 for the day he
    may not post or vote." Anna skips the vote on turn 1, is beaten that
    night, cannot vote on turn 2 (not counted), and is still alive; she
    skips again on turn 3 and goes missing then."""
    alive = list(STD_NAMES)
    t1 = {"votes": _all_vote(alive, "Boris", skip=("Anna",)),
          "night": {"thug": {"target": "Anna"}}}
    alive.remove("Boris")
    t2 = {"votes": _all_vote(alive, "Vera", skip=("Anna",))}
    alive.remove("Vera")
    t3 = {"votes": _all_vote(alive, "Gleb", skip=("Anna",))}
    res = run(STD, [{}, t1, t2], abstention_limit=2)
    assert res["turns"][1]["beaten"] == ["Anna"]
    assert "Anna" not in all_deaths(res)
    assert "Anna" in res["alive"]
    res = run(STD, [{}, t1, t2, t3], abstention_limit=2)
    assert deaths(res, 3) == {"Gleb": "hanged", "Anna": "missing"}
    assert death(res, 3, "Anna")["step"] == 7


def test_R16_3_rule_breaker_removed_at_step3():
    """R16.3: "Players removed for breaking rules leave at step 3"."""
    t1 = {"removed": ["Gleb"], "votes": votes_for("Anna", ["Boris", "Vera"])}
    res = run(STD, [{}, t1])
    assert deaths(res, 1) == {"Anna": "hanged", "Gleb": "removed"}
    assert death(res, 1, "Gleb")["step"] == 3
    assert [d["player"] for d in res["turns"][1]["deaths"]] == ["Anna", "Gleb"]


def test_R16_3_rule_breaker_voted_most_is_hanged_instead():
    """R16.3: "If a rule breaker is voted the most, he is hanged instead." """
    t1 = {"removed": ["Boris"], "votes": votes_for("Boris", ["Anna", "Vera", "Gleb"])}
    res = run(STD, [{}, t1])
    assert hanged(res, 1) == "Boris"
    assert deaths(res, 1) == {"Boris": "hanged"}
    assert len(res["turns"][1]["deaths"]) == 1
    assert death(res, 1, "Boris")["step"] == 2


def test_R16_3_removed_at_step3_takes_no_night_action():
    """R4/R16.3 with P3.1: a shooter removed at step 3 cannot shoot at step 5."""
    t1 = {"removed": ["Kaito"],
          "night": {"yakuza": {"target": "Anna", "shooter": "Kaito"}}}
    res = run(STD, [{}, t1])
    assert deaths(res, 1) == {"Kaito": "removed"}


def test_R16_3_passive_leave_at_step7_after_acting():
    """R16.3: "passive players [leave] at step 7"; so a passive shooter still
    shoots at step 5."""
    t1 = {"passive": ["Chen"],
          "night": {"triad": {"target": "Anna", "shooter": "Chen"}}}
    res = run(STD, [{}, t1])
    assert deaths(res, 1) == {"Anna": "triad", "Chen": "removed"}
    assert death(res, 1, "Chen")["step"] == 7
    assert [d["player"] for d in res["turns"][1]["deaths"]] == ["Anna", "Chen"]
    assert "Chen" in paper(res, 1, "en") and "Chen" in paper(res, 1, "ru")


# --------------------------------------------------------------------------
# R17 winning
# --------------------------------------------------------------------------

def test_R17_1_town_wins_when_mafia_and_maniac_dead():
    """R17.1: "Town wins when every mafioso (both clans) and the maniac are
    dead and at least one of the positive characters is alive." """
    players = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
               ("Yoshi", "mafioso", "yakuza"), ("Wei", "mafioso", "triad"),
               ("Maxim", "maniac")]
    t0 = {"night": {"maniac": {"target": "Anna"}}}
    t1 = {"votes": votes_for("Maxim", ["Boris", "Vera", "Wei"]),
          "night": {"triad": {"target": "Yoshi", "shooter": "Wei"}}}
    t2 = {"votes": votes_for("Wei", ["Boris", "Vera"])}
    res = run(players, [t0, t1, t2])
    assert deaths(res, 1) == {"Maxim": "hanged", "Yoshi": "triad"}
    assert hanged(res, 2) == "Wei"
    assert outcome(res) == ("town", "camp_wipe")
    assert set(res["alive"]) == {"Boris", "Vera"}


def test_D17_1_vsb_alone_is_a_positive_character():
    """D17.1: "Positive characters" in R17.1 means any Town player (civilian,
    VSB, heroes and necromancer). The clans shoot each other; only a VSB is
    left: Town wins."""
    players = [("Yumi", "vsb", "yakuza"), ("Anna", "civilian"),
               ("Yoshi", "mafioso", "yakuza"), ("Wei", "mafioso", "triad"),
               ("Maxim", "maniac")]
    t0 = {"night": {"maniac": {"target": "Anna"}}}
    t1 = {"votes": votes_for("Maxim", ["Yumi", "Yoshi", "Wei"]),
          "night": {"yakuza": {"target": "Wei", "shooter": "Yoshi"},
                    "triad": {"target": "Yoshi", "shooter": "Wei"}}}
    res = run(players, [t0, t1])
    assert deaths(res, 1) == {"Maxim": "hanged", "Wei": "yakuza", "Yoshi": "triad"}
    assert outcome(res) == ("town", "camp_wipe")
    assert res["alive"] == ["Yumi"]


def test_R17_2_clan_wins_when_all_others_dead():
    """R17.2: "A clan wins when every other player is dead and at least one
    of its members is alive." Won at the step-2 hanging of turn 2."""
    players = [("Yoshi", "mafioso", "yakuza"), ("Kaito", "mafioso", "yakuza"),
               ("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian")]
    t1 = {"votes": [["Yoshi", "Anna"], ["Kaito", "Anna"], ["Boris", "Yoshi"]],
          "night": {"yakuza": {"target": "Boris", "shooter": "Kaito"}}}
    t2 = {"votes": [["Yoshi", "Vera"], ["Kaito", "Vera"]]}
    res = run(players, [{}, t1, t2])
    assert deaths(res, 1) == {"Anna": "hanged", "Boris": "yakuza"}
    assert deaths(res, 2) == {"Vera": "hanged"}
    assert outcome(res) == ("yakuza", "camp_wipe")
    assert set(res["alive"]) == {"Yoshi", "Kaito"}


def test_R17_2_triad_wins():
    """R17.2 for the Triad: the Yakuza's last member is shot and the Town is
    gone."""
    players = [("Wei", "mafioso", "triad"), ("Chen", "mafioso", "triad"),
               ("Yoshi", "mafioso", "yakuza"), ("Anna", "civilian"),
               ("Boris", "civilian")]
    t1 = {"votes": [["Wei", "Anna"], ["Chen", "Anna"], ["Yoshi", "Anna"]],
          "night": {"triad": {"target": "Yoshi", "shooter": "Chen"},
                    "yakuza": {"target": "Boris", "shooter": "Yoshi"}}}
    res = run(players, [{}, t1])
    assert deaths(res, 1) == {"Anna": "hanged", "Yoshi": "triad", "Boris": "yakuza"}
    assert outcome(res) == ("triad", "camp_wipe")


def test_R17_3_maniac_wins_alone():
    """R17.3: "The maniac wins only when he alone is alive." """
    players = [("Maxim", "maniac"), ("Anna", "civilian"), ("Boris", "civilian"),
               ("Vera", "civilian")]
    t0 = {"night": {"maniac": {"target": "Anna"}}}
    t1 = {"votes": [["Boris", "Vera"], ["Vera", "Boris"]],
          "night": {"maniac": {"target": "Boris"}}}
    res = run(players, [t0, t1])
    assert hanged(res, 1) == "Vera"
    assert deaths(res, 1) == {"Vera": "hanged", "Boris": "maniac"}
    assert outcome(res) == ("maniac", "camp_wipe")
    assert res["alive"] == ["Maxim"]


DUEL = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
        ("Yoshi", "mafioso", "yakuza"), ("Kaito", "mafioso", "yakuza")]


def _duel_turns(first, turn2_votes):
    """Turn 1: Boris hanged, Kaito shoots Vera; Yoshi's vote against Anna is
    the first vote of the game if first == "Anna", else Boris's vote against
    Yoshi is. Turn 2: Kaito is hanged (Anna votes first for him), leaving
    Anna and Yoshi after the night."""
    t1_votes = [["Boris", "Yoshi"], ["Vera", "Boris"], ["Anna", "Boris"],
                ["Kaito", "Boris"]]
    t1_votes.insert(0 if first == "Anna" else 1, ["Yoshi", "Anna"])
    t1 = {"votes": t1_votes,
          "night": {"yakuza": {"target": "Vera", "shooter": "Kaito"}}}
    t2 = {"votes": [["Anna", "Kaito"], *turn2_votes]}
    return [{}, t1, t2]


def _check_duel_setup(res):
    assert hanged(res, 1) == "Boris"
    assert deaths(res, 1) == {"Boris": "hanged", "Vera": "yakuza"}
    assert hanged(res, 2) == "Kaito"
    assert deaths(res, 2) == {"Kaito": "hanged"}


def test_R17_4_duel_fewer_votes_wins():
    """R17.4: "when, after a night, exactly two players from opposing camps
    remain ..., the one with fewer votes cast against him over the whole
    game wins." Anna (1 vote, the first of the game) vs Yoshi (2): Town."""
    res = run(DUEL, _duel_turns("Anna", [["Kaito", "Yoshi"]]))
    _check_duel_setup(res)
    assert outcome(res) == ("town", "duel_votes")


def test_R17_4_duel_fewer_votes_wins_mafia_side():
    """R17.4: the mafioso with fewer votes wins the duel (Anna 2, Yoshi 1,
    Yoshi voted against first)."""
    res = run(DUEL, _duel_turns("Yoshi", [["Yoshi", "Anna"]]))
    _check_duel_setup(res)
    assert outcome(res) == ("yakuza", "duel_votes")


@pytest.mark.parametrize("first, winner", [("Anna", "yakuza"), ("Yoshi", "town")])
def test_R17_4_D17_2_duel_equal_votes_first_voted_against_loses(first, winner):
    """R17.4: "If equal, it is decided by which of them was voted against
    first." D17.2: "the player against whom a vote was cast first loses"."""
    res = run(DUEL, _duel_turns(first, []))
    _check_duel_setup(res)
    assert outcome(res) == (winner, "duel_first_vote")


COIN = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
        ("Yoshi", "mafioso", "yakuza")]
COIN_TURNS = [{}, {"votes": [["Anna", "Boris"], ["Yoshi", "Boris"], ["Vera", "Boris"]],
                   "night": {"yakuza": {"target": "Vera", "shooter": "Yoshi"}}}]


def test_R17_4_D17_2_duel_nobody_voted_coin():
    """R17.4: "If neither ever got a vote, a duel decides." D17.2: "the duel
    is a fair coin drawn from the game's generator": the result is one of
    the two camps and the same seed gives the same result."""
    a = run(COIN, COIN_TURNS, seed=7)
    b = run(COIN, COIN_TURNS, seed=7)
    assert deaths(a, 1) == {"Boris": "hanged", "Vera": "yakuza"}
    assert a["outcome"]["reason"] == "duel_coin"
    assert a["outcome"]["winner"] in ("town", "yakuza")
    assert a["outcome"] == b["outcome"]


def test_D17_2_duel_coin_depends_on_seed():
    """D17.2: a fair coin: over many seeds both camps win some duels."""
    winners = set()
    for seed in range(1, 41):
        res = run(COIN, COIN_TURNS, seed=seed)
        assert res["outcome"]["reason"] == "duel_coin"
        winners.add(res["outcome"]["winner"])
    assert winners == {"town", "yakuza"}


def test_D9_3_maniac_in_a_duel():
    """D9.3: "a maniac left with one opponent after a night wins or loses by
    the duel". Anna has 1 vote against her, the maniac none: maniac wins."""
    players = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
               ("Maxim", "maniac")]
    t0 = {"night": {"maniac": {"target": "Vera"}}}
    t1 = {"votes": [["Anna", "Boris"], ["Maxim", "Boris"], ["Boris", "Anna"]]}
    res = run(players, [t0, t1])
    assert hanged(res, 1) == "Boris"
    assert outcome(res) == ("maniac", "duel_votes")


def test_D9_3_maniac_loses_duel():
    """D9.3: the maniac with more votes against him loses the duel."""
    players = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
               ("Maxim", "maniac")]
    t0 = {"night": {"maniac": {"target": "Vera"}}}
    t1 = {"votes": [["Anna", "Boris"], ["Boris", "Maxim"], ["Maxim", "Boris"]]}
    res = run(players, [t0, t1])
    assert hanged(res, 1) == "Boris"
    assert outcome(res) == ("town", "duel_votes")


def test_P17_1_duel_checked_after_turn0():
    """P17.1: "The duel (R17.4) is checked once the night is over: at the
    end of every turn, turn 0 included." Nobody ever voted: a coin."""
    players = [("Anna", "civilian"), ("Yoshi", "mafioso", "yakuza"), ("Maxim", "maniac")]
    res = run(players, [{"night": {"maniac": {"target": "Anna"}}}])
    assert outcome(res)[1] == "duel_coin"
    assert outcome(res)[0] in ("yakuza", "maniac")


def test_P17_1_no_duel_after_step2_only_after_night():
    """R17.4: the duel comes "after a night": two opposing players left after
    the hanging still play the night; the clan shot then wins outright."""
    players = [("Anna", "civilian"), ("Boris", "civilian"), ("Yoshi", "mafioso", "yakuza")]
    t1 = {"votes": [["Anna", "Boris"], ["Yoshi", "Boris"]],
          "night": {"yakuza": {"target": "Anna", "shooter": "Yoshi"}}}
    res = run(players, [{}, t1])
    assert deaths(res, 1) == {"Boris": "hanged", "Anna": "yakuza"}
    assert outcome(res) == ("yakuza", "camp_wipe")


def test_R17_5_mafioso_and_own_vsb_town_wins():
    """R17.5: "When a mafioso and his own clan's VSB are the last two alive,
    Town wins." """
    players = [("Yoshi", "mafioso", "yakuza"), ("Yumi", "vsb", "yakuza"),
               ("Anna", "civilian"), ("Boris", "civilian")]
    t1 = {"votes": [["Yoshi", "Anna"], ["Yumi", "Anna"], ["Boris", "Yoshi"]],
          "night": {"yakuza": {"target": "Boris", "shooter": "Yoshi"}}}
    res = run(players, [{}, t1])
    assert deaths(res, 1) == {"Anna": "hanged", "Boris": "yakuza"}
    assert outcome(res) == ("town", "vsb_pair")


def test_R17_5_mafioso_and_other_clans_vsb_is_a_duel():
    """R17.4/R17.5: the VSB exception is for "a mafioso and his own clan's
    VSB" only; with the OTHER clan's VSB it is a duel. Tina has 1 vote, Yoshi
    none: the Yakuza wins the duel."""
    players = [("Yoshi", "mafioso", "yakuza"), ("Tina", "vsb", "triad"),
               ("Wei", "mafioso", "triad"), ("Anna", "civilian")]
    t1 = {"votes": [["Yoshi", "Anna"], ["Tina", "Anna"], ["Wei", "Anna"],
                    ["Anna", "Tina"]],
          "night": {"yakuza": {"target": "Wei", "shooter": "Yoshi"}}}
    res = run(players, [{}, t1])
    assert deaths(res, 1) == {"Anna": "hanged", "Wei": "yakuza"}
    assert outcome(res) == ("yakuza", "duel_votes")


def test_D17_3_draw_when_last_two_shoot_each_other():
    """D17.3: "If nobody is alive, the game is a draw." The two last players,
    one of each clan, shoot each other."""
    players = [("Yoshi", "mafioso", "yakuza"), ("Wei", "mafioso", "triad"),
               ("Anna", "civilian")]
    t1 = {"votes": [["Yoshi", "Anna"], ["Wei", "Anna"]],
          "night": {"yakuza": {"target": "Wei", "shooter": "Yoshi"},
                    "triad": {"target": "Yoshi", "shooter": "Wei"}}}
    res = run(players, [{}, t1])
    assert deaths(res, 1) == {"Anna": "hanged", "Wei": "yakuza", "Yoshi": "triad"}
    assert outcome(res) == ("draw", "nobody_alive")
    assert res["alive"] == []


def test_D17_4_turn_limit_stalemate():
    """D17.4: "A game that reaches the turn limit of the rule set ... stops
    as a stalemate, reported as such". With turn_limit 3 and nothing
    happening the game stops as a stalemate after 3 or 4 turns (turn 0
    counted or not), and not before."""
    L = 3
    early = run(STD, [{} for _ in range(L - 1)], turn_limit=L)
    assert early["outcome"]["winner"] is None
    stale = None
    for k in (L, L + 1):
        try:
            res = run(STD, [{} for _ in range(k)], turn_limit=L)
        except InputError:
            break           # a turn after the end (P3.3)
        if res["outcome"]["winner"] is not None:
            stale = res
            break
    assert stale is not None
    assert outcome(stale) == ("stalemate", "turn_limit")
    assert set(stale["alive"]) == set(STD_NAMES)


# --------------------------------------------------------------------------
# D2.1 composition checks
# --------------------------------------------------------------------------

TOWN3 = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian")]


def _input_error(players, words, **rules):
    with pytest.raises(InputError) as ei:
        run(players, [{}], **rules)
    msg = str(ei.value).lower()
    assert any(w in msg for w in words), msg


def test_D2_1_valid_standard_table_with_require_vsb():
    """D2.1: the standard table (both clans, each with its VSB) is valid with
    the default require_vsb true."""
    g = game(STD, [{}, {}])
    del g["rules"]["require_vsb"]
    res = resolve(g)
    assert res["outcome"]["winner"] is None


def test_D2_1_kamikaze_in_triad():
    """D2.1: invalid when "a kamikaze is in the Triad"."""
    _input_error([*TOWN3, ("Wei", "mafioso", "triad"), ("Kenji", "kamikaze", "triad")],
                 ["kamikaze"])


def test_D2_1_thug_in_yakuza():
    """D2.1: invalid when "a thug [is] in the Yakuza"."""
    _input_error([*TOWN3, ("Yoshi", "mafioso", "yakuza"), ("Bao", "thug", "yakuza")],
                 ["thug"])


def test_D2_1_sergeant_without_commissar():
    """D2.1: invalid when "there is a sergeant without a commissar"."""
    _input_error([*TOWN3, ("Sergei", "sergeant"), ("Yoshi", "mafioso", "yakuza")],
                 ["sergeant"])


def test_D2_1_vsb_without_his_clan():
    """D2.1: invalid when there is "a VSB without his clan"."""
    _input_error([*TOWN3, ("Yoshi", "mafioso", "yakuza"), ("Tina", "vsb", "triad")],
                 ["vsb", "illegitimate", "внебрач"])


def test_D2_1_clan_without_vsb_when_required():
    """D2.1: invalid when there is "a clan without a VSB (unless the designer
    explicitly allows it)": `require_vsb` true. Allowed when false."""
    players = [*TOWN3, ("Yoshi", "mafioso", "yakuza"), ("Yumi", "vsb", "yakuza"), ("Wei", "mafioso", "triad")]
    _input_error(players, ["vsb"], require_vsb=True)
    res = run(players, [{}], require_vsb=False)
    assert res["outcome"]["winner"] is None


@pytest.mark.parametrize("member, word", [(("Kenji", "kamikaze"), "kamikaze"),
                                          (("Bao", "thug"), "thug")])
def test_D2_1_clan_with_only_kamikaze_or_thug(member, word):
    """D2.1: invalid for "a clan whose only members are a kamikaze or thug
    (no possible Don)"."""
    _input_error([*TOWN3, ("Gleb", "civilian"), member], [word, "don"])


@pytest.mark.parametrize("role, extra", [
    ("commissar", []),
    ("sergeant", [("Zoya", "commissar")]),
    ("ninja", []),
    ("doctor", []),
    ("necromancer", []),
    ("kamikaze", [("Yoshi", "mafioso", "yakuza")]),
    ("thug", [("Wei", "mafioso", "triad")]),
    ("maniac", []),
])
def test_D2_1_duplicate_unique_role(role, extra):
    """D2.1: invalid when "a unique role (commissar, sergeant, ninja, doctor,
    necromancer, kamikaze, thug, maniac) appears more than once, unless the
    rule set allows it" (`allow_duplicate_roles`)."""
    # P2.2: a table needs an enemy of Town, so a town-role pair gets a maniac beside it
    enemy = [] if role in ("kamikaze", "thug", "maniac") else [("Mania", "maniac")]
    players = [*TOWN3, ("Gleb", "civilian"), ("Dmitri", "civilian"), *extra, *enemy,
               ("Uno", role), ("Duo", role)]
    _input_error(players, [role, "duplicate", "unique", "once"])
    res = run(players, [{}], allow_duplicate_roles=True)
    assert res["turns"][0]["turn"] == 0


def test_D2_1_fewer_than_3_players():
    """D2.1: invalid with "fewer than 3 players"."""
    _input_error([("Anna", "civilian"), ("Yoshi", "mafioso", "yakuza")],
                 ["3", "three", "few", "least", "minimum"])


def test_D2_1_malformed_players():
    """D2.1 / resolve.md: `clan` is required for mafioso and vsb; unknown
    roles and duplicate names are input errors. (The "counts do not add up"
    fault has no form in a resolve file, where each player has a role.)"""
    for players in (
        [*TOWN3, ("Yoshi", "mafioso")],
        [*TOWN3, ("Yoshi", "mafioso", "yakuza"), ("Yumi", "vsb")],
        [*TOWN3, ("Yoshi", "mafioso", "yakuza"), ("Bob", "werewolf")],
        [*TOWN3, ("Yoshi", "mafioso", "yakuza"), ("Anna", "civilian")],
        [*TOWN3, ("Yoshi", "mafioso", "mafia")],
    ):
        with pytest.raises(InputError):
            run(players, [{}])


def test_rules_unknown_field_is_input_error():
    """resolve.md: "`rules` overrides `RuleSet` fields by name; an unknown
    name is an error." """
    with pytest.raises(InputError):
        run(STD, [{}], no_such_rule=True)


# --------------------------------------------------------------------------
# further interactions
# --------------------------------------------------------------------------

def test_R16_5_turn0_activity_not_regulated():
    """R16.1/R16.5: absence counts "from turn 1"; "turn 0 activity is not
    regulated". An absent list on turn 0 is refused or has no effect."""
    for key in ("absent", "passive"):
        try:
            res = run(STD, [{key: ["Anna"]}, {}])
        except (InputError, IllegalRequest):
            continue
        assert all_deaths(res) == {}, key


def test_D10_4_beaten_excused_from_absence():
    """D10.4: "A beaten player is excused from R16.1 ... for the day he may
    not post": listing him as absent that day is refused or ignored."""
    t1 = {"night": {"thug": {"target": "Anna"}}}
    try:
        res = run(STD, [{}, t1, {"absent": ["Anna"]}])
    except (InputError, IllegalRequest):
        return
    assert "Anna" not in all_deaths(res)


def test_D4_2_win_at_step3_removal_ends_turn():
    """D4.2: the last enemy removed at step 3: Town wins; no night follows
    (the ninja's request is not carried out)."""
    players = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
               ("Nikolai", "ninja"), ("Yoshi", "mafioso", "yakuza")]
    t1 = {"removed": ["Yoshi"], "night": {"ninja": {"target": "Anna"}}}
    res = run(players, [{}, t1])
    assert deaths(res, 1) == {"Yoshi": "removed"}
    assert death(res, 1, "Yoshi")["step"] == 3
    assert outcome(res) == ("town", "camp_wipe")


def test_D4_2_win_at_step4_blast_ends_turn():
    """D4.2: the lone kamikaze blows up next to the last Triad member at
    step 4: no mafia is left, Town wins, and step 5 (the ninja) does not
    happen."""
    players = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
               ("Nikolai", "ninja"), ("Yoshi", "mafioso", "yakuza"),
               ("Kenji", "kamikaze"), ("Wei", "mafioso", "triad")]
    t1 = {"votes": votes_for("Yoshi", ["Anna", "Boris", "Vera"]),
          "night": {"kamikaze": {"target": "Wei"}, "ninja": {"target": "Anna"}}}
    res = run(players, [{}, t1])
    d = deaths(res, 1)
    assert d["Yoshi"] == "hanged" and d["Wei"] == "kamikaze" and "Kenji" in d
    assert "Anna" not in d
    assert outcome(res) == ("town", "camp_wipe")


def test_D4_2_win_at_step7_passive():
    """D4.2/R16.3: the last mafioso removed for passive play at step 7: Town
    wins."""
    players = [("Anna", "civilian"), ("Boris", "civilian"), ("Vera", "civilian"),
               ("Yoshi", "mafioso", "yakuza")]
    res = run(players, [{}, {"passive": ["Yoshi"]}])
    assert deaths(res, 1) == {"Yoshi": "removed"}
    assert death(res, 1, "Yoshi")["step"] == 7
    assert outcome(res) == ("town", "camp_wipe")


def test_R17_5_vsb_pair_at_hanging_ends_game():
    """R17.5 with P17.1: the VSB pair is a camp win checked after every step:
    a hanging that leaves a mafioso and his own VSB ends the game at once."""
    players = [("Yoshi", "mafioso", "yakuza"), ("Yumi", "vsb", "yakuza"),
               ("Anna", "civilian")]
    t1 = {"votes": [["Yoshi", "Anna"], ["Yumi", "Anna"]]}
    res = run(players, [{}, t1])
    assert deaths(res, 1) == {"Anna": "hanged"}
    assert outcome(res) == ("town", "vsb_pair")


def test_R17_4_no_duel_with_three_left():
    """R17.4: the duel needs "exactly two players"; three players of three
    camps play on."""
    players = [("Anna", "civilian"), ("Boris", "civilian"),
               ("Yoshi", "mafioso", "yakuza"), ("Maxim", "maniac")]
    res = run(players, [{"night": {"maniac": {"target": "Boris"}}}, {}])
    assert deaths(res, 0) == {"Boris": "maniac"}
    assert res["outcome"]["winner"] is None
    assert set(res["alive"]) == {"Anna", "Yoshi", "Maxim"}


def test_R17_4_duel_between_the_two_clans():
    """R17.4: the clans are opposing camps (R1.1): Yakuza vs Triad left after
    a night is a duel; Wei has 1 vote against him, Yoshi none."""
    players = [("Yoshi", "mafioso", "yakuza"), ("Wei", "mafioso", "triad"),
               ("Anna", "civilian"), ("Boris", "civilian")]
    t1 = {"votes": [["Anna", "Wei"], ["Yoshi", "Boris"], ["Wei", "Boris"]],
          "night": {"yakuza": {"target": "Anna", "shooter": "Yoshi"}}}
    res = run(players, [{}, t1])
    assert deaths(res, 1) == {"Boris": "hanged", "Anna": "yakuza"}
    assert outcome(res) == ("yakuza", "duel_votes")


def test_R16_3_rule_breaker_not_voted_most_is_removed_in_a_tie():
    """R16.3 with R5.2: the rule breaker ties for the most votes but reached
    the count second: the other player is hanged, the rule breaker is
    removed at step 3."""
    t1 = {"removed": ["Boris"],
          "votes": [["Gleb", "Boris"], ["Dmitri", "Anna"], ["Elena", "Anna"],
                    ["Zoya", "Boris"]]}
    res = run(STD, [{}, t1])
    assert hanged(res, 1) == "Anna"
    assert deaths(res, 1) == {"Anna": "hanged", "Boris": "removed"}
    assert death(res, 1, "Boris")["step"] == 3
