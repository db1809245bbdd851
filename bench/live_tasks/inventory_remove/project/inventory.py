class Inventory:
    """Counts of items in stock."""

    def __init__(self):
        self._counts = {}

    def add(self, name, count=1):
        self._counts[name] = self._counts.get(name, 0) + count

    def remove(self, name, count=1):
        self._counts[name] -= count
        if self._counts[name] <= 0:
            del self._counts[name]

    def count(self, name):
        return self._counts.get(name, 0)
