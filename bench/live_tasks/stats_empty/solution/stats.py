"""Small statistics helpers."""


def mean(values):
    """Return the arithmetic mean of values."""
    if not values:
        return 0.0
    return sum(values) / len(values)


def spread(values):
    """Return the difference between the largest and the smallest value."""
    return max(values) - min(values)
