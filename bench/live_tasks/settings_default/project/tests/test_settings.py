import pytest
from settings import load


def test_default_timeout_is_thirty_seconds():
    assert load()["timeout"] == 30


def test_override():
    assert load({"port": 9000})["port"] == 9000


def test_unknown_key():
    with pytest.raises(KeyError):
        load({"colour": "red"})
