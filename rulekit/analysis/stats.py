"""The statistics of ``rulekit simulate`` and ``rulekit compare``: pure functions of numbers.

Shares are fractions in [0, 1] (0.25 is 25 %); a confidence interval is a pair
``(low, high)`` in the units of the estimate it surrounds; ``confidence`` is a fraction
(0.95 for 95 %). Nothing here knows games or matches: see :mod:`rulekit.analysis.simulation`.

Everything is written out in a few lines of the standard library (``math``,
``statistics.NormalDist``) rather than taken from SciPy: the formulas are textbook ones, exact
for what is asked of them (the chi-square tail below is a finite sum for an integer number
of degrees of freedom), and SciPy with NumPy would add some 160 MB to an install that needs
neither otherwise. ``tests/test_stats.py`` checks each against published values.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist

#: the default confidence of every interval: 95 %
CONFIDENCE = 0.95


def z_value(confidence: float = CONFIDENCE) -> float:
    """The two-sided standard normal quantile of ``confidence`` (1.959963984540054 for 0.95)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: float, trials: float, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``successes`` of ``trials``.

    ``successes`` may be fractional (a win shared by k seats counts 1/k). Both bounds are
    shares in [0, 1]; with no trial the interval is (0, 1), as nothing is known.

    Raises:
        ValueError: ``successes`` is negative or more than ``trials``.
    """
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes of {trials} trials")
    z = z_value(confidence)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with ``df`` (a whole number >= 1) degrees of
    freedom: the p-value of a chi-square statistic ``x``.

    For a whole ``df`` the regularized upper incomplete gamma function is a finite sum
    (Abramowitz & Stegun 26.4.4 and 26.4.5): ``exp(-x/2) * sum((x/2)**i / i!)`` for
    ``i < df/2`` when ``df`` is even; when it is odd, ``erfc(sqrt(x/2))`` plus the terms
    ``(x/2)**(i - 1/2) / Gamma(i + 1/2)`` for ``1 <= i <= (df-1)/2``, times ``exp(-x/2)``.
    The terms are summed in log space, so a large ``x`` gives 0.0 rather than an overflow.

    Raises:
        ValueError: ``df`` is not a whole number >= 1.
    """
    if df < 1 or int(df) != df:
        raise ValueError(f"degrees of freedom must be a whole number >= 1, not {df}")
    if x <= 0:
        return 1.0
    half = x / 2
    log_half = math.log(half)
    if df % 2 == 0:
        total = sum(math.exp(-half + i * log_half - math.lgamma(i + 1)) for i in range(df // 2))
    else:
        total = math.erfc(math.sqrt(half))
        total += sum(math.exp(-half + (i - 0.5) * log_half - math.lgamma(i + 0.5))
                     for i in range(1, (df - 1) // 2 + 1))
    return min(1.0, max(0.0, total))


def chi_square_equal(observed: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's chi-square goodness-of-fit test of ``observed`` counts against equal
    expected counts (``sum(observed) / len(observed)`` each).

    Returns:
        (the statistic, the degrees of freedom ``len(observed) - 1``, the p-value): the
        chance of a statistic at least as large if every category had the same share. With
        fewer than two categories, or nothing observed, it is ``(0.0, df, 1.0)``: nothing
        speaks against equal shares.
    """
    k = len(observed)
    df = max(0, k - 1)
    total = sum(observed)
    if k < 2 or total <= 0:
        return 0.0, df, 1.0
    expected = total / k
    statistic = sum((o - expected) ** 2 for o in observed) / expected
    return statistic, df, chi_square_sf(statistic, df)


def chi_square_equal_shares(wins: Sequence[float], squares: float) -> tuple[float, int, float]:
    """Pearson's chi-square test of equal win shares per seat when a win may be shared.

    ``wins``: per seat, the sum of its shares of the matches' wins (a win shared by k seats
    counts 1/k to each); ``squares``: the sum over the matches of their shares squared,
    1/k for a match won by k seats (0 for one nobody won). Under equal shares (seats that
    could trade places), a seat's share of one match varies as much as every other's and
    two seats' shares covary alike; the statistic divides the spread of the seats' wins by
    that variance less that covariance, both pooled over the seats:
    ``sum((w - mean(wins))**2) / ((n * squares - won) / (n * (n - 1)))`` for n seats and
    ``won = sum(wins)``, with n − 1 degrees of freedom. With no shared win (``squares ==
    won``) the divisor is ``won / n`` and this is :func:`chi_square_equal` of ``wins``;
    with wins shared among many seats (one loser, every other seat wins) it is far larger
    than that test, which takes the fractional counts as whole ones and misses seats that
    never lose.

    Returns:
        (the statistic, the degrees of freedom, the p-value), as :func:`chi_square_equal`;
        ``(0.0, df, 1.0)`` with fewer than two seats, no win, or every match won by every seat.
    """
    n = len(wins)
    df = max(0, n - 1)
    won = sum(wins)
    divisor = (n * squares - won) / (n * (n - 1)) if n > 1 else 0.0
    if n < 2 or won <= 0 or divisor <= 1e-12 * won:
        return 0.0, df, 1.0
    mean = won / n
    statistic = sum((w - mean) ** 2 for w in wins) / divisor
    return statistic, df, chi_square_sf(statistic, df)


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0 <= q <= 1) of values sorted in ascending order, by linear
    interpolation between the two nearest ranks (NumPy's default, Hyndman & Fan type 7):
    position ``q * (n - 1)`` counted from 0.

    Raises:
        ValueError: no value, or ``q`` outside [0, 1].
    """
    if not ordered:
        raise ValueError("the quantile of no values")
    if not 0 <= q <= 1:
        raise ValueError(f"q must be between 0 and 1, not {q}")
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def five_numbers(values: Iterable[float]) -> tuple[float, float, float, float, float]:
    """(minimum, first quartile, median, third quartile, maximum) of ``values``, in their
    unit; the quartiles as :func:`quantile` computes them.

    Raises:
        ValueError: no value.
    """
    ordered = sorted(values)
    if not ordered:
        raise ValueError("five numbers of no values")
    return (ordered[0], quantile(ordered, 0.25), quantile(ordered, 0.5), quantile(ordered, 0.75), ordered[-1])


def median_interval(values: Iterable[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """A distribution-free confidence interval of the median, in the unit of ``values``:
    the order statistics of ranks ``floor((n - z*sqrt(n)) / 2)`` and
    ``ceil(1 + (n + z*sqrt(n)) / 2)`` (1-based, kept within 1..n), from the normal
    approximation to the binomial count of values below the median. With few values it
    is the whole range.

    Raises:
        ValueError: no value.
    """
    ordered = sorted(values)
    n = len(ordered)
    if not n:
        raise ValueError("the median of no values")
    spread = z_value(confidence) * math.sqrt(n)
    low = max(1, math.floor((n - spread) / 2))
    high = min(n, math.ceil(1 + (n + spread) / 2))
    return ordered[low - 1], ordered[high - 1]


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The normal-approximation interval of a mean: ``mean ± z * s / sqrt(n)``, with ``s``
    the sample standard deviation, in the unit of ``values``; with fewer than two values,
    (-inf, inf): nothing is known of the spread.
    """
    n = len(values)
    if n < 2:
        return -math.inf, math.inf
    mean = math.fsum(values) / n
    return _around(mean, math.fsum((v - mean) ** 2 for v in values), n, confidence)


def mean_interval_of_sums(n: int, total: float, squares: float,
                          confidence: float = CONFIDENCE) -> tuple[float, float]:
    """:func:`mean_interval` of ``n`` values known by their sum ``total`` and the sum of
    their squares ``squares`` (a simulation's results per seat, added up match by match)."""
    if n < 2:
        return -math.inf, math.inf
    mean = total / n
    return _around(mean, max(0.0, squares - total * total / n), n, confidence)


def _around(mean: float, deviations: float, n: int, confidence: float) -> tuple[float, float]:
    """``mean ± z * s / sqrt(n)`` where ``deviations`` is the sum of the squared deviations
    from the mean of the ``n`` values."""
    half = z_value(confidence) * math.sqrt(deviations / (n - 1)) / math.sqrt(n)
    return mean - half, mean + half


def share_interval(pairs: Sequence[tuple[float, float]], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """An interval of the share ``sum(y) / sum(x)`` over groups of events, given one pair
    ``(y, x)`` per group: ``y`` of ``x`` events had the property (e.g. per match, false
    claims of claims).

    Events of one group need not be independent, so the interval is the wider (their
    hull) of Wilson's interval of ``sum(y)`` of ``sum(x)`` and the ratio estimator's normal
    interval, whose standard error ``sqrt(n/(n-1) * sum((y - r*x)**2)) / sum(x)`` comes from
    the spread between groups (the linearised variance of a ratio). Bounds are shares in
    [0, 1]; with no event it is (0, 1).
    """
    total_y = sum(y for y, _ in pairs)
    total_x = sum(x for _, x in pairs)
    low, high = wilson(total_y, total_x, confidence)
    n = len(pairs)
    if total_x > 0 and n >= 2:
        r = total_y / total_x
        se = math.sqrt(n / (n - 1) * math.fsum((y - r * x) ** 2 for y, x in pairs)) / total_x
        half = z_value(confidence) * se
        low, high = min(low, max(0.0, r - half)), max(high, min(1.0, r + half))
    return low, high


def overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two intervals ``(low, high)`` share a point."""
    return a[0] <= b[1] and b[0] <= a[1]
