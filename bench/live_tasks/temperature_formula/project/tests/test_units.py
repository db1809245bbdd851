from units import to_celsius, to_fahrenheit


def test_boiling():
    assert to_fahrenheit(100) == 212


def test_freezing():
    assert to_fahrenheit(0) == 32


def test_round_trip():
    assert to_celsius(to_fahrenheit(37)) == 37
