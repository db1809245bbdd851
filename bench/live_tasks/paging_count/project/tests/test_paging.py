import pytest
from paging import page_count, page_items


def test_exact_multiple():
    assert page_count(20, 10) == 2


def test_partial_last_page():
    assert page_count(21, 10) == 3


def test_no_items():
    assert page_count(0, 10) == 0


def test_bad_size():
    with pytest.raises(ValueError):
        page_count(5, 0)


def test_page_items():
    assert page_items(list(range(25)), 3, 10) == [20, 21, 22, 23, 24]
