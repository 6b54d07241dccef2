"""Word and sentence statistics for plain English text."""

import re
from collections import Counter

from textstats.core import mean, median

_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

#: Very common English words that top_words() leaves out unless told otherwise.
STOPWORDS = frozenset(
    "a an and are as at be but by for from has have i in is it its of on or that the "
    "this to was were will with".split()
)


def words(text):
    """Lower-cased words of the text. Apostrophes inside a word are kept: "don't" is one word."""
    return [w.lower().replace("\u2019", "'") for w in _WORD.findall(text)]


def word_counts(text):
    """A Counter of how often each (lower-cased) word occurs."""
    return Counter(words(text))


def top_words(text, n=10, stopwords=STOPWORDS):
    """The n most frequent words as (word, count) pairs, most frequent first.

    Ties are broken alphabetically so that the result does not depend on the
    order in which words appear. Pass stopwords=() to keep every word.
    """
    counts = Counter(w for w in words(text) if w not in stopwords)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ranked[:n]


def sentences(text):
    """Split text into sentences at '.', '!' or '?' followed by whitespace."""
    stripped = text.strip()
    if not stripped:
        return []
    return [s.strip() for s in _SENTENCE_END.split(stripped) if s.strip()]


def summary(text):
    """A dict of basic counts for the text.

    Keys: words, unique_words, sentences, mean_word_length, median_word_length.
    The two lengths are None for text without words.
    """
    found = words(text)
    lengths = [len(w) for w in found]
    return {
        "words": len(found),
        "unique_words": len(set(found)),
        "sentences": len(sentences(text)),
        "mean_word_length": mean(lengths) if lengths else None,
        "median_word_length": median(lengths) if lengths else None,
    }
