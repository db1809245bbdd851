from store.format import format_price
from store.receipt import receipt_line


def test_format_price():
    assert format_price(1250) == "12.50 EUR"
    assert format_price(5) == "0.05 EUR"


def test_receipt_line():
    assert receipt_line("tea", 399) == "tea: 3.99 EUR"
