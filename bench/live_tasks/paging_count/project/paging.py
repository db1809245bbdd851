def page_count(total, size):
    """Number of pages needed to show `total` items, `size` items per page."""
    if size <= 0:
        raise ValueError("size must be positive")
    return total // size + 1


def page_items(items, page, size):
    """The items on the 1-based page `page`."""
    start = (page - 1) * size
    return items[start : start + size]
