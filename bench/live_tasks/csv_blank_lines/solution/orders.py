def read_rows(text):
    """(name, quantity) pairs from lines like "apples, 3"."""
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        name, quantity = line.split(",")
        rows.append((name.strip(), int(quantity)))
    return rows


def total_quantity(text):
    return sum(quantity for _, quantity in read_rows(text))
