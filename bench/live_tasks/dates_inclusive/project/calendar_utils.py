from datetime import date, timedelta


def date_range(start: date, end: date) -> list[date]:
    """Every day from start to end."""
    days = []
    current = start
    while current < end:
        days.append(current)
        current += timedelta(days=1)
    return days
