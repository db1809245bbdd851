from status import describe


def test_success():
    assert describe(204) == "success"


def test_redirects():
    assert describe(301) == "redirect"
    assert describe(304) == "redirect"


def test_errors():
    assert describe(404) == "client error"
    assert describe(503) == "server error"
    assert describe(99) == "unknown"
