from store.format import format_price


def receipt_line(name, cents):
    """One line of a receipt: the item and its price."""
    return f"{name}: {format_price(cents)}"
