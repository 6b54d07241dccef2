import math

import pytest

from textstats import (
    StatsError,
    mean,
    median,
    median_high,
    median_low,
    mode,
    multimode,
    pstdev,
    pvariance,
    quantiles,
    stdev,
    variance,
)


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5
    assert mean(x for x in range(1, 6)) == 3


def test_mean_is_exact_for_many_floats():
    assert mean([0.1] * 10) == pytest.approx(0.1, abs=0)


def test_mean_empty_raises():
    with pytest.raises(StatsError, match="at least 1 value"):
        mean([])


def test_non_numbers_are_rejected():
    with pytest.raises(StatsError, match="real numbers"):
        mean([1, "2"])
    with pytest.raises(StatsError, match="real numbers"):
        median([True, 2, 3])


def test_stats_error_is_a_value_error():
    assert issubclass(StatsError, ValueError)


def test_median_odd_length():
    assert median([5, 1, 3]) == 3
    assert median([7, 2, 9, 4, 1]) == 4


def test_median_single_value():
    assert median([42]) == 42


def test_median_does_not_modify_input():
    data = [3, 1, 2]
    median(data)
    assert data == [3, 1, 2]


def test_median_low_and_high():
    assert median_low([1, 2, 3, 4]) == 2
    assert median_high([1, 2, 3, 4]) == 3
    assert median_low([1, 2, 3]) == median_high([1, 2, 3]) == 2


def test_median_empty_raises():
    with pytest.raises(StatsError):
        median([])


def test_mode_and_multimode():
    assert mode([1, 2, 2, 3]) == 2
    assert mode(["b", "a", "a", "b"]) == "b"
    assert multimode([1, 1, 2, 2, 3]) == [1, 2]
    assert multimode([]) == []


def test_mode_empty_raises():
    with pytest.raises(StatsError):
        mode([])


def test_variance_and_stdev():
    data = [2, 4, 4, 4, 5, 5, 7, 9]
    assert pvariance(data) == 4
    assert pstdev(data) == 2
    assert variance(data) == pytest.approx(32 / 7)
    assert stdev(data) == pytest.approx(math.sqrt(32 / 7))


def test_variance_needs_two_values():
    with pytest.raises(StatsError, match="at least 2 values"):
        variance([1])


def test_quartiles():
    assert quantiles([1, 2, 3, 4, 5]) == [2.0, 3.0, 4.0]
    assert quantiles([1, 2, 3, 4]) == [1.75, 2.5, 3.25]


def test_deciles_of_a_range():
    assert quantiles(range(11), n=10) == [float(i) for i in range(1, 10)]


def test_quantiles_bad_n():
    with pytest.raises(StatsError):
        quantiles([1, 2, 3], n=0)
