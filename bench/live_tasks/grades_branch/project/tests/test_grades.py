import pytest
from grades import letter_grade, report


def test_top():
    assert letter_grade(95) == "A"


def test_fail():
    assert letter_grade(42) == "F"
    assert letter_grade(0) == "F"


def test_report():
    assert report({"ann": 81, "bob": 12}) == {"ann": "B", "bob": "F"}


def test_out_of_range():
    with pytest.raises(ValueError):
        letter_grade(101)
