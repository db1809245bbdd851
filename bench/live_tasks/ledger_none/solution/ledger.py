from dataclasses import dataclass


@dataclass
class Entry:
    label: str
    amount: float | None


def balance(entries):
    """Sum of all amounts."""
    total = 0.0
    for entry in entries:
        if entry.amount is not None:
            total += entry.amount
    return total


def largest(entries):
    """The entry with the largest amount, or None when there is none."""
    best = None
    for entry in entries:
        if entry.amount is None:
            continue
        if best is None or entry.amount > best.amount:
            best = entry
    return best
