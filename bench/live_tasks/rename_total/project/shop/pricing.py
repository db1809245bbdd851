def calc_total(items):
    """Total price of (price, quantity) pairs, rounded to cents."""
    return round(sum(price * quantity for price, quantity in items), 2)


def discounted(total, percent):
    return round(total * (100 - percent) / 100, 2)
