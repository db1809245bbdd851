from users import display_name, greeting


def test_full_name():
    assert display_name({"first": "ada", "last": "lovelace", "username": "al"}) == "Ada Lovelace"


def test_missing_names():
    assert display_name({"first": None, "last": "hopper", "username": "gh"}) == "gh"
    assert display_name({"first": "grace", "last": None, "username": "gh"}) == "gh"


def test_greeting():
    assert greeting({"first": None, "last": None, "username": "root"}) == "Welcome back, root!"
