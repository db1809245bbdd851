from shipping import shipping_cost


def test_domestic():
    assert shipping_cost("US", 2.0) == 7.0
    assert shipping_cost("CA", 1.0) == 10.0


def test_international():
    assert shipping_cost("MX", 1.0) == 30.0
    assert shipping_cost("DE", 2.0) == 35.0
