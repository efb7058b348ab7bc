"""Independent review of the rules engine: scenarios where the engine does not do
what RULES.md (R, D) or docs/rules.md (P) say. Each test fails because of an engine
defect; see the docstrings for the rule quoted."""


from sim.game.errors import IllegalRequest  # noqa: F401
from sim.play.resolve import resolve

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


def game(players, turns, dons=DONS, **rules):
    out = []
    for p in players:
        d = {"name": p[0], "role": p[1]}
        if len(p) > 2:
            d["clan"] = p[2]
        out.append(d)
    g = {"players": out,
         "rules": {"abstention_limit": 0, "require_vsb": False, **rules},
         "turns": turns, "seed": 1}
    if dons is not None:
        g["dons"] = dons
    return g


def play(turns, players=FULL, dons=DONS, **rules):
    return resolve(game(players, turns, dons=dons, **rules))


def night(**requests):
    return {"night": requests}


def day(votes, **requests):
    return {"votes": [list(v) for v in votes], "night": requests}


def t(name):
    return {"target": name}


def yak(target, shooter="Yuri", **kw):
    return {"target": target, "shooter": shooter, **kw}


def tri(target, shooter="Wang", **kw):
    return {"target": target, "shooter": shooter, **kw}


AMBUSH = {"ambush": True}


def T(res, n):
    for tr in res["turns"]:
        if tr["turn"] == n:
            return tr
    raise AssertionError(f"no turn {n}")


def died(res, n):
    return {d["player"]: d["cause"] for d in T(res, n)["deaths"]}


def the_check(res, n):
    cs = T(res, n)["checks"]
    assert len(cs) == 1, cs
    return cs[0]


def alive(res):
    return set(res["alive"])


# ==========================================================================
# Findings
# ==========================================================================


def test_R11_4_testament_skips_first_voter_who_dies_in_the_ambush_that_night():
    """R11.4 "if the ninja is hanged by vote, the first player who voted for him
    dies that night at the ninja's step. If that player dies that night anyway,
    the second voter dies instead, and so on." R7.7/R9.4: checking the maniac in
    ambush kills the commissar (P7.3: at D4.1 (e), nothing saves him).

    Anna (commissar) votes first for the ninja, then checks the ambushed maniac:
    she dies that night anyway, so the testament must take Boris, the second
    voter. The engine spends the testament on Anna and Boris survives."""
    votes = [("Anna", "Hattori"), ("Boris", "Hattori"), ("Olga", "Hattori")]
    res = play([{}, day(votes, maniac=AMBUSH, commissar=t("Jack"))])
    d = died(res, 1)
    assert d.get("Hattori") == "hanged"
    assert "Anna" in d
    assert d.get("Boris") == "testament", d


def test_P7_2_R7_4_beaten_sergeant_still_sees_the_check():
    """P7.2 "A check is seen by the commissar and by the sergeant if the sergeant
    is alive after D4.1 (d) (R7.4)." R7.4 "The sergeant sees every result the
    commissar gets." R10.4 only takes away the beaten player's own *actions* of
    steps 5-6; seeing the commissar's result is not an action of his.

    The thug beats Sergei; Anna checks Boris. Sergei is alive after (d), so he
    sees the result. The engine leaves him out of `seen_by` (an extra condition
    `s not in beaten` that no R, D or P rule states)."""
    res = play([{}, night(thug=t("Sergei"), commissar=t("Boris"))])
    assert "Sergei" in alive(res)
    c = the_check(res, 1)
    assert c["result"] == "civilian"
    assert "Sergei" in c["seen_by"], c


def test_R8_4_option_doctor_self_heal_saves_the_doctor():
    """R8.4 "The doctor cannot heal himself", made a designer's option by
    RuleSet.doctor_self_heal ("the doctor may heal himself"). R8.1 "that player
    cannot be killed by the mafia or the maniac that night."

    With doctor_self_heal on, a doctor who heals himself and is shot once by the
    maniac should live. The engine voids every heal of an attacked doctor
    (D4.1 (a)), so the option can never save anybody: it has no effect at all."""
    res = play([{}, night(maniac=t("Doc"), doctor=t("Doc"))], doctor_self_heal=True)
    assert "Doc" not in died(res, 1), died(res, 1)

