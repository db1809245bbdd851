from datetime import date

from calendar_utils import date_range


def test_includes_both_ends():
    assert date_range(date(2024, 2, 27), date(2024, 3, 1)) == [
        date(2024, 2, 27),
        date(2024, 2, 28),
        date(2024, 2, 29),
        date(2024, 3, 1),
    ]


def test_single_day():
    assert date_range(date(2024, 1, 1), date(2024, 1, 1)) == [date(2024, 1, 1)]


def test_end_before_start():
    assert date_range(date(2024, 1, 2), date(2024, 1, 1)) == []
