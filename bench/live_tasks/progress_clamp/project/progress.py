def percent_done(done, total):
    """How much of the work is done, as a whole percentage."""
    return round(100 * done / total)


def bar(done, total, width=20):
    filled = width * percent_done(done, total) // 100
    return "#" * filled + "." * (width - filled)
