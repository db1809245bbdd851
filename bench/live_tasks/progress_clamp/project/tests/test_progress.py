from progress import bar, percent_done


def test_half():
    assert percent_done(5, 10) == 50


def test_nothing_to_do():
    assert percent_done(0, 0) == 0


def test_overshoot():
    assert percent_done(12, 10) == 100


def test_bar():
    assert bar(1, 2, width=4) == "##.."
