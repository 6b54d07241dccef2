"""textstats: small descriptive statistics for numbers and for plain text."""

from textstats.core import (
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
from textstats.text import sentences, summary, top_words, word_counts, words

__all__ = [
    "StatsError",
    "mean",
    "median",
    "median_high",
    "median_low",
    "mode",
    "multimode",
    "pstdev",
    "pvariance",
    "quantiles",
    "sentences",
    "stdev",
    "summary",
    "top_words",
    "variance",
    "word_counts",
    "words",
]

__version__ = "0.3.1"
