from stats import mean, spread


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5


def test_mean_of_nothing_is_zero():
    assert mean([]) == 0.0


def test_spread():
    assert spread([3, 9, 4]) == 6
