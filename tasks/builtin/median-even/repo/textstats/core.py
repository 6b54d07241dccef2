"""Descriptive statistics over finite collections of real numbers.

Every function accepts any iterable of ints or floats (a generator is read once)
and raises StatsError, a subclass of ValueError, when the data cannot give an
answer: too few values, or a value that is not a real number.
"""

from collections import Counter
from math import fsum, sqrt
from numbers import Real


class StatsError(ValueError):
    """Raised when a statistic is undefined for the data it was given."""


def _values(data, name, at_least=1):
    """Return the data as a list after checking its length and its types."""
    values = list(data)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, Real):
            raise StatsError(f"{name}() needs real numbers, got {v!r}")
    if len(values) < at_least:
        noun = "value" if at_least == 1 else "values"
        raise StatsError(f"{name}() needs at least {at_least} {noun}, got {len(values)}")
    return values


def mean(data):
    """Arithmetic mean, summed with math.fsum so that long float lists stay exact.

    >>> mean([1, 2, 3, 4])
    2.5
    """
    values = _values(data, "mean")
    return fsum(values) / len(values)


def median(data):
    """Middle value of the data once sorted.

    For an odd number of values this is the value in the middle; for an even
    number it is the mean of the two values in the middle.

    >>> median([3, 1, 2])
    2
    """
    values = sorted(_values(data, "median"))
    mid = len(values) // 2
    return values[mid]


def median_low(data):
    """The smaller of the two middle values for even-length data; the middle one otherwise."""
    values = sorted(_values(data, "median_low"))
    return values[(len(values) - 1) // 2]


def median_high(data):
    """The larger of the two middle values for even-length data; the middle one otherwise."""
    values = sorted(_values(data, "median_high"))
    return values[len(values) // 2]


def multimode(data):
    """All values that occur most often, in the order they first appear. Empty data gives []."""
    counts = Counter(data)
    if not counts:
        return []
    top = max(counts.values())
    return [value for value, count in counts.items() if count == top]


def mode(data):
    """The most common value; on a tie, the one that appears first.

    Works on any hashable values, not only numbers.
    """
    found = multimode(data)
    if not found:
        raise StatsError("mode() needs at least 1 value, got 0")
    return found[0]


def _sum_sq_dev(values):
    centre = fsum(values) / len(values)
    return fsum((v - centre) ** 2 for v in values)


def variance(data):
    """Sample variance (divides by n - 1)."""
    values = _values(data, "variance", at_least=2)
    return _sum_sq_dev(values) / (len(values) - 1)


def pvariance(data):
    """Population variance (divides by n)."""
    values = _values(data, "pvariance")
    return _sum_sq_dev(values) / len(values)


def stdev(data):
    """Sample standard deviation, the square root of variance()."""
    return sqrt(variance(data))


def pstdev(data):
    """Population standard deviation, the square root of pvariance()."""
    return sqrt(pvariance(data))


def quantiles(data, n=4):
    """Cut points that divide the sorted data into n groups of equal probability.

    Uses linear interpolation between the closest ranks, with the ends of the
    data as the 0th and 100th percentiles (the "inclusive" method). Returns
    n - 1 floats; quantiles(data, 4) gives the three quartiles.

    >>> quantiles([1, 2, 3, 4, 5])
    [2.0, 3.0, 4.0]
    """
    if n < 1:
        raise StatsError(f"quantiles() needs n >= 1, got {n}")
    values = sorted(_values(data, "quantiles", at_least=2))
    last = len(values) - 1
    cuts = []
    for i in range(1, n):
        position = i * last / n
        below = int(position)
        fraction = position - below
        upper = values[min(below + 1, last)]
        cuts.append(float(values[below] + (upper - values[below]) * fraction))
    return cuts
