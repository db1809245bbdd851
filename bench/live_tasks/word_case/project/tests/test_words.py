from words import most_common, word_counts


def test_case_insensitive():
    assert word_counts("The cat saw the dog") == {"the": 2, "cat": 1, "saw": 1, "dog": 1}


def test_most_common():
    assert most_common("Go go GO stop") == "go"


def test_empty():
    assert most_common("") is None
