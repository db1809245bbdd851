def format_price(cents):
    """A price in cents as text: 1250 -> "12.50 EUR"."""
    return f"{cents // 100}.{cents % 100:02d} EUR"
