"""sim.play.stats: published reference values and coverage by exact enumeration (fast: every
sample of a small n is enumerated, no simulation)."""

from __future__ import annotations

import math

import pytest

from sim.play.stats import (
    Z95,
    half_width,
    mcnemar_p,
    paired_diff_interval,
    share_interval,
    unpaired_diff_interval,
    wilson,
    z_of,
)


# -- published reference values -------------------------------------------------------------
@pytest.mark.parametrize(("b_only", "a_only", "n", "low", "high"), [
    # Fagerland, Lydersen & Laake, Statistics in Medicine 2014;33:2850-2875: airway
    # hyper-responsiveness (Bentur et al. 2009), table 1/1/7/12, Tango's interval.
    (1, 7, 21, -0.517, -0.026),
    # Agresti & Min, Statistics in Medicine 2005;24:729-740: table 53/16/8/9, score interval
    # (the value the R package ratesci checks in its tests).
    (16, 8, 86, -0.020, 0.207),
    # The 8/3/1/2 example of Tang et al. (2010), Tango's interval to 4 places (as checked
    # in ratesci's tests).
    (3, 1, 14, -0.1670, 0.4327),
])
def test_paired_interval_matches_published_tango_values(b_only: int, a_only: int, n: int,
                                                         low: float, high: float) -> None:
    diff, lo, hi = paired_diff_interval(b_only, a_only, n)
    assert diff == (b_only - a_only) / n
    places = 3 if round(low, 3) == low and round(high, 3) == high else 4
    assert round(lo, places) == low and round(hi, places) == high


@pytest.mark.parametrize(("wins_b", "wins_a", "n_b", "n_a", "low", "high"), [
    # Newcombe, Statistics in Medicine 1998;17:873-890, Table II, method 10 (hybrid score).
    (56, 48, 70, 80, 0.0524, 0.3339),
    (9, 3, 10, 10, 0.1705, 0.8090),
    (5, 0, 56, 29, -0.0381, 0.1926),
    (0, 0, 10, 20, -0.1611, 0.2775),
    (0, 0, 10, 10, -0.2775, 0.2775),
    (10, 0, 10, 20, 0.6791, 1.0),
    (10, 0, 10, 10, 0.6075, 1.0),
])
def test_unpaired_interval_matches_newcombe_table_ii(wins_b: int, wins_a: int, n_b: int,
                                                     n_a: int, low: float,
                                                     high: float) -> None:
    _, lo, hi = unpaired_diff_interval(wins_b, wins_a, n_b, n_a)
    assert round(lo, 4) == low and round(hi, 4) == high


def test_mcnemar_mid_p_and_no_discordant_games() -> None:
    # Bentur et al. data (1 vs 7 discordant): mid-p = 2 * (1 + 8/2) / 256 = 0.0390625,
    # as Fagerland, Lydersen & Laake (BMC Med Res Methodol 2013;13:91) report (0.039).
    assert mcnemar_p(1, 7) == pytest.approx(10 / 256, abs=1e-12)
    assert mcnemar_p(7, 1) == pytest.approx(10 / 256, abs=1e-12)
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(0, 1) == 0.5  # one changed game is no evidence
    assert 0 < mcnemar_p(0, 5) < 0.05
    # Many discordant games: the chi-square form, continuous with the mid-p at the switch.
    assert mcnemar_p(600, 500) == pytest.approx(math.erfc(100 / math.sqrt(1100) / 2 ** .5))
    assert mcnemar_p(480, 520) == pytest.approx(mcnemar_p(481, 520), rel=0.2)


def test_intervals_are_never_zero_width_and_stay_in_range() -> None:
    for n in (1, 2, 5, 40, 1000, 10**6):
        d, lo, hi = paired_diff_interval(0, 0, n)
        assert d == 0 and lo < 0 < hi
        assert hi == pytest.approx(Z95**2 / (n + Z95**2), rel=1e-6)  # the score bound
        for b, c in ((n, 0), (0, n)):
            d, lo, hi = paired_diff_interval(b, c, n)
            assert -1 <= lo <= d <= hi <= 1 and hi > lo
        _, lo, hi = unpaired_diff_interval(0, 0, n, n)
        assert lo < 0 < hi


def test_share_interval_is_exact_at_the_edges_and_contains_the_share() -> None:
    assert share_interval(0, 40)[0] == 0.0
    assert share_interval(40, 40)[1] == 1.0
    assert wilson(0, 12_345)[0] == 0.0 and wilson(12_345, 12_345)[1] == 1.0
    for n in (1, 3, 50, 51, 100, 999):
        for k in range(n + 1):
            lo, hi = share_interval(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
            assert hi > lo
    # The modification: one win in 40 games has the one-sided Poisson bound
    # chi2_2(0.05) / (2 * 40) = -ln(0.95) / 40.
    assert share_interval(1, 40)[0] == pytest.approx(-math.log(0.95) / 40, rel=1e-9)
    assert half_width(5, 100) == pytest.approx((share_interval(5, 100)[1]
                                                - share_interval(5, 100)[0]) / 2)


def test_confidence_levels() -> None:
    assert z_of(0.95) == Z95
    assert z_of(0.9) == pytest.approx(1.6448536269514722, abs=1e-9)
    assert z_of(0.99) == pytest.approx(2.5758293035489004, abs=1e-9)
    d, lo90, hi90 = paired_diff_interval(10, 4, 100, conf=0.9)
    _, lo95, hi95 = paired_diff_interval(10, 4, 100)
    assert lo95 < lo90 < d < hi90 < hi95


# -- coverage by exact enumeration ----------------------------------------------------------
def _binom_pmf(k: int, n: int, p: float) -> float:
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


def share_coverage(n: int, p: float, interval: object = share_interval) -> float:
    return sum(_binom_pmf(k, n, p) for k in range(n + 1)
               if interval(k, n)[0] <= p <= interval(k, n)[1])  # type: ignore[operator]


def paired_coverage(n: int, p_b_only: float, p_a_only: float) -> float:
    """The exact coverage of paired_diff_interval: every (b_only, a_only, rest) of n games
    under the trinomial with these probabilities."""
    delta = p_b_only - p_a_only
    p_rest = 1 - p_b_only - p_a_only
    total = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            r = n - b - c
            if (b and not p_b_only) or (c and not p_a_only):
                continue
            w = math.exp(math.lgamma(n + 1) - math.lgamma(b + 1) - math.lgamma(c + 1)
                         - math.lgamma(r + 1)) * p_b_only**b * p_a_only**c * p_rest**r
            _, lo, hi = paired_diff_interval(b, c, n)
            if lo - 1e-12 <= delta <= hi + 1e-12:
                total += w
    return total


@pytest.mark.parametrize("n", [20, 100])
def test_share_coverage_holds_near_zero(n: int) -> None:
    """Shares near 0 (draws, stalemates in short runs): plain Wilson dips to about 84% at
    n * p = 0.1-0.2; the modified interval stays above 91.5% (at n = 20 the lowest point
    is 92.0%, at n = 100 92.7%: the oscillation Wilson has at every share)."""
    ps = [i / (40 * n) for i in range(1, 400)]  # 0 < p < 10 / n
    cover = [share_coverage(n, p) for p in ps]
    assert min(cover) > 0.915
    assert sum(cover) / len(cover) > 0.95
    assert min(share_coverage(n, p, wilson) for p in ps) < 0.85  # the dip it removes
    # and symmetric near 1
    assert min(share_coverage(n, 1 - p) for p in ps[::10]) > 0.915


@pytest.mark.parametrize(("n", "p_b_only", "p_a_only"), [
    (40, 0.02, 0.01),   # a +1 point change on 40 games: Wald covers 70% here
    (40, 0.03, 0.02),
    (40, 0.10, 0.05),
    (40, 0.20, 0.20),
    (40, 0.05, 0.0),
    (100, 0.02, 0.01),
    (100, 0.03, 0.02),
    (100, 0.30, 0.10),
])
def test_paired_coverage_at_small_n(n: int, p_b_only: float, p_a_only: float) -> None:
    assert paired_coverage(n, p_b_only, p_a_only) >= 0.94
