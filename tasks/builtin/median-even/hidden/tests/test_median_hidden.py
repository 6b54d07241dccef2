"""Hidden tests for median() on even-length data (copied in by the grader)."""

from textstats import median, summary


def test_median_even_length():
    assert median([1, 2, 3, 4]) == 2.5
    assert median([4, 1, 3, 2]) == 2.5


def test_median_two_values():
    assert median([1, 3]) == 2
    assert median([1.5, 2.5]) == 2.0


def test_median_even_length_generator():
    assert median(x * 10 for x in (2, 1)) == 15


def test_median_even_length_with_equal_middle_values():
    assert median([5, 2, 1, 2]) == 2


def test_median_odd_length_still_middle_value():
    assert median([9, 1, 5]) == 5


def test_summary_median_word_length_even_count():
    # word lengths 4, 5, 4, 5 -> middle values 4 and 5
    assert summary("tiny words here today")["median_word_length"] == 4.5
