from inventory import Inventory


def test_remove_present():
    stock = Inventory()
    stock.add("apple", 3)
    assert stock.remove("apple") is True
    assert stock.count("apple") == 2


def test_remove_missing():
    stock = Inventory()
    assert stock.remove("pear") is False
    assert stock.count("pear") == 0


def test_remove_last():
    stock = Inventory()
    stock.add("fig")
    assert stock.remove("fig") is True
    assert stock.count("fig") == 0
