from store.format import fmt_price


def receipt_line(name, cents):
    """One line of a receipt: the item and its price."""
    return f"{name}: {fmt_price(cents)}"
