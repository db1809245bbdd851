from settings import debug_enabled, parse_flag


def test_true_words():
    assert parse_flag("true") is True
    assert parse_flag("1") is True


def test_false_words():
    for text in ("false", "No", " off ", "0", "FALSE"):
        assert parse_flag(text) is False, text


def test_empty_uses_default():
    assert parse_flag("  ", default=True) is True
    assert debug_enabled({}) is False
    assert debug_enabled({"DEBUG": "false"}) is False
