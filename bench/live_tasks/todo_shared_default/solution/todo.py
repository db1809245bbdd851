class TodoList:
    """A list of things to do."""

    def __init__(self, items=None):
        self.items = list(items or [])

    def add(self, text):
        self.items.append(text)

    def pending(self):
        return len(self.items)
