from shop.checkout import checkout
from shop.pricing import order_total


def test_order_total():
    assert order_total([(2.5, 2), (1.0, 3)]) == 8.0


def test_checkout():
    assert checkout([(10.0, 1)], coupon="TENOFF") == {"items": 1, "total": 9.0}
