from textstats import sentences, summary, top_words, word_counts, words


def test_words_lowercases_and_keeps_apostrophes():
    assert words("Don't PANIC, it's fine.") == ["don't", "panic", "it's", "fine"]


def test_words_curly_apostrophe():
    assert words("It\u2019s here") == ["it's", "here"]


def test_word_counts():
    counts = word_counts("the cat and the hat")
    assert counts["the"] == 2
    assert counts["cat"] == 1
    assert sum(counts.values()) == 5


def test_top_words_skips_stopwords_and_breaks_ties_alphabetically():
    text = "The pear and the apple. An apple, a pear, a plum."
    assert top_words(text, n=3) == [("apple", 2), ("pear", 2), ("plum", 1)]


def test_top_words_without_stopwords():
    assert top_words("a a b", stopwords=()) == [("a", 2), ("b", 1)]


def test_sentences():
    assert sentences("One. Two!  Three? ") == ["One.", "Two!", "Three?"]
    assert sentences("   ") == []


def test_summary_counts():
    result = summary("Cats sleep. Dogs bark loudly.")
    assert result["words"] == 5
    assert result["unique_words"] == 5
    assert result["sentences"] == 2
    assert result["mean_word_length"] == 4.6
    assert result["median_word_length"] == 4


def test_summary_of_empty_text():
    result = summary("")
    assert result["words"] == 0
    assert result["mean_word_length"] is None
    assert result["median_word_length"] is None
