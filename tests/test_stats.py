"""rulekit.analysis.stats against published values: Wilson intervals (Newcombe 1998), chi-square
tail probabilities (the critical values of every table, and SciPy when it is installed),
quartiles as NumPy interpolates them, and the intervals of medians, means and shares."""

from __future__ import annotations

import math
import random

import pytest

from rulekit.analysis.stats import (chi_square_equal, chi_square_equal_shares, chi_square_sf, five_numbers,
                                   mean_interval, median_interval, overlap, quantile, share_interval, wilson,
                                   z_value)


def test_z_of_95_percent():
    assert z_value(0.95) == pytest.approx(1.959963984540054, abs=1e-12)
    assert z_value(0.99) == pytest.approx(2.5758293035489, abs=1e-9)
    with pytest.raises(ValueError):
        z_value(1.0)


@pytest.mark.parametrize("successes,trials,low,high", [
    # Newcombe, "Two-sided confidence intervals for the single proportion" (Stat. Med. 1998),
    # Table I, method 3 (Wilson score, no continuity correction)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    # 5 of 10 and 0 of 10 (the upper bound is z²/(n + z²))
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_interval_matches_published_values(successes, trials, low, high):
    got = wilson(successes, trials)
    assert got[0] == pytest.approx(low, abs=5e-5)
    assert got[1] == pytest.approx(high, abs=5e-5)


def test_wilson_takes_shared_wins_and_knows_nothing_without_trials():
    """Half a win (a shared one) lies between its neighbours; no trial: (0, 1)."""
    assert wilson(2, 10)[0] < wilson(2.5, 10)[0] < wilson(3, 10)[0]
    assert wilson(2, 10)[1] < wilson(2.5, 10)[1] < wilson(3, 10)[1]
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


@pytest.mark.parametrize("x,df,p", [
    # the critical values printed in every chi-square table
    (3.841459, 1, 0.05), (6.634897, 1, 0.01), (5.991465, 2, 0.05), (9.210340, 2, 0.01),
    (7.814728, 3, 0.05), (11.344867, 3, 0.01), (9.487729, 4, 0.05), (13.276704, 4, 0.01),
    (11.070498, 5, 0.05), (15.086272, 5, 0.01), (14.067140, 7, 0.05), (18.475307, 7, 0.01),
    (2.0, 2, math.exp(-1.0)),       # with 2 degrees of freedom the tail is exp(-x/2)
    (0.0, 3, 1.0),
])
def test_chi_square_tail_matches_the_tables(x, df, p):
    assert chi_square_sf(x, df) == pytest.approx(p, rel=1e-5)


def test_chi_square_tail_agrees_with_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = random.Random(1)
    for _ in range(500):
        df = rng.randint(1, 40)
        x = rng.uniform(0, 120)
        assert chi_square_sf(x, df) == pytest.approx(scipy_stats.chi2.sf(x, df), rel=1e-9, abs=1e-300)
    assert chi_square_sf(5000.0, 3) == 0.0          # far in the tail: 0, not an overflow
    with pytest.raises(ValueError):
        chi_square_sf(1.0, 0)


def test_chi_square_goodness_of_fit_against_equal_shares():
    # SciPy's documentation of scipy.stats.chisquare: [16, 18, 16, 14, 12, 12] gives 2.0, p 0.84914503608460956
    statistic, df, p = chi_square_equal([16, 18, 16, 14, 12, 12])
    assert (statistic, df) == (pytest.approx(2.0), 5)
    assert p == pytest.approx(0.84914503608460956, rel=1e-12)
    # equal counts: nothing speaks against equal shares; 30 against 20: chi-square 2 with 1 df
    assert chi_square_equal([25, 25, 25, 25]) == (0.0, 3, 1.0)
    assert chi_square_equal([30, 20])[2] == pytest.approx(0.15729920705028513, rel=1e-12)
    # fractional counts (shared wins) are taken as they are
    assert chi_square_equal([30.5, 19.5])[0] == pytest.approx(2 * 5.5 ** 2 / 25)
    assert chi_square_equal([7]) == (0.0, 0, 1.0)
    assert chi_square_equal([0, 0])[2] == 1.0


def _one_loser_matches(rng, matches: int, players: int, safe: int) -> tuple[list, float]:
    """(wins per seat, the sum of the squared shares) of ``matches`` matches of ``players``
    seats in which one seat loses and every other wins a share; the loser is drawn
    uniformly from the seats after the first ``safe`` (0: fair seats)."""
    wins = [0.0] * players
    for _ in range(matches):
        loser = rng.randrange(safe, players)
        for s in range(players):
            if s != loser:
                wins[s] += 1 / (players - 1)
    return wins, matches / (players - 1)


def test_the_fairness_test_weighs_shared_wins_by_their_spread():
    """Without a shared win it is Pearson's test of the counts. With one loser in six
    seats (every other seat shares the win) it rejects equal seats about 5 % of the time
    at p < 0.05, and finds seats that never lose, which the test of the fractional counts
    as whole ones misses."""
    assert chi_square_equal_shares([16, 18, 16, 14, 12, 12], 88) == chi_square_equal([16, 18, 16, 14, 12, 12])
    assert chi_square_equal_shares([30, 20], 50)[2] == pytest.approx(0.15729920705028513, rel=1e-12)
    assert chi_square_equal_shares([7], 7) == (0.0, 0, 1.0)
    assert chi_square_equal_shares([0, 0], 0) == (0.0, 1, 1.0)
    assert chi_square_equal_shares([5, 5], 5) == (0.0, 1, 1.0)        # every match won by both seats
    rng = random.Random(5)
    rejected = sum(chi_square_equal_shares(*_one_loser_matches(rng, 100, 6, 0))[2] < 0.05 for _ in range(1000))
    assert 30 <= rejected <= 72                  # 5 % of 1,000: 50, binomial sd 6.9
    biased = _one_loser_matches(random.Random(1), 100, 6, 3)     # P1-P3 never lose
    assert chi_square_equal_shares(*biased)[2] < 1e-6
    assert chi_square_equal(biased[0])[2] > 0.3


def test_quartiles_interpolate_as_numpy_does():
    assert five_numbers([4, 1, 3, 2]) == (1, 1.75, 2.5, 3.25, 4)
    assert five_numbers([7]) == (7, 7, 7, 7, 7)
    assert five_numbers(range(1, 12)) == (1, 3.5, 6, 8.5, 11)
    assert quantile([10, 20], 0.5) == 15
    with pytest.raises(ValueError):
        five_numbers([])


def test_median_interval_takes_the_textbook_ranks():
    """For 100 values the 95 % interval of the median lies between the 40th and the 61st."""
    assert median_interval(range(1, 101)) == (40, 61)
    assert median_interval([5, 1, 3]) == (1, 5)     # few values: the whole range
    assert median_interval([4] * 30) == (4, 4)


def test_mean_interval():
    low, high = mean_interval([1, 2, 3, 4, 5])
    half = 1.959963984540054 * math.sqrt(2.5) / math.sqrt(5)
    assert (low, high) == (pytest.approx(3 - half), pytest.approx(3 + half))
    assert mean_interval([3]) == (-math.inf, math.inf)


def test_share_interval_widens_for_events_that_come_in_groups():
    """Same share in every group: Wilson's interval. All-or-nothing groups: the spread
    between groups makes it wider (a ratio estimator's standard error)."""
    even = [(5, 10)] * 20
    assert share_interval(even) == wilson(100, 200)
    lumpy = [(10, 10), (0, 10)] * 10
    low, high = share_interval(lumpy)
    se = math.sqrt(20 / 19 * 20 * 25) / 200
    assert (low, high) == (pytest.approx(0.5 - 1.959963984540054 * se), pytest.approx(0.5 + 1.959963984540054 * se))
    assert high - low > 2 * (wilson(100, 200)[1] - 0.5)
    assert share_interval([]) == (0.0, 1.0)
    assert share_interval([(0, 3)] * 4) == wilson(0, 12)       # never narrower than Wilson's


def test_overlap():
    assert overlap((0.1, 0.3), (0.3, 0.5))
    assert overlap((0.1, 0.9), (0.4, 0.5))
    assert not overlap((0.1, 0.2), (0.25, 0.5))
    assert not overlap((0.6, 0.7), (0.1, 0.5))


def test_the_mean_interval_from_sums_is_that_of_the_values():
    """A simulation keeps each seat's sum of results and of their squares: the interval
    from them is the interval of the values themselves."""
    from rulekit.analysis.stats import mean_interval_of_sums

    values = [3, -1, -1, 2, -1, 0.5, -2]
    low, high = mean_interval_of_sums(len(values), sum(values), sum(v * v for v in values))
    assert (low, high) == pytest.approx(mean_interval(values))
    assert mean_interval_of_sums(1, 3, 9) == (-math.inf, math.inf)
