def median(values):
    """The middle value of `values` once sorted."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle]
