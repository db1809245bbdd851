def chunks(items, size):
    """`items` split into lists of `size` items (the last one may be shorter)."""
    out = []
    for start in range(0, len(items) - size + 1, size):
        out.append(items[start:start + size])
    return out
