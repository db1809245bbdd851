import wordstats


def test_word_count():
    assert wordstats.word_count("the quick brown fox") == 4


def test_average_word_length():
    assert wordstats.average_word_length("ab abcd") == 3.0


def test_longest_word():
    assert wordstats.longest_word("a tiny elephant") == "elephant"


def test_none_input_is_treated_as_empty_text():
    assert wordstats.word_count(None) == 0
    assert wordstats.average_word_length(None) == 0.0
    assert wordstats.longest_word(None) == ""
