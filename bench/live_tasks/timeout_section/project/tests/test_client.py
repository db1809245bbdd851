from client import describe, timeout_for


def test_configured():
    assert timeout_for({"network": {"timeout": 5}}) == 5


def test_missing():
    assert timeout_for({}) == 30
    assert timeout_for({"network": {}}) == 30
    assert describe({"other": 1}) == "waiting up to 30 s"
