from scores import average_score


def test_numbers():
    assert average_score([3, 4]) == 3.5


def test_strings():
    assert average_score(["3", "4.5"]) == 3.8
    assert average_score([" 2 ", 4]) == 3.0
