import pytest
from netconf import parse_port


def test_string():
    assert parse_port(" 8080 ") == 8080


def test_int():
    assert parse_port(8080) == 8080


def test_int_out_of_range():
    with pytest.raises(ValueError):
        parse_port(70000)


def test_garbage():
    with pytest.raises(ValueError):
        parse_port("http")
