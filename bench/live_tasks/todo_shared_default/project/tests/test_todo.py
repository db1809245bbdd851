from todo import TodoList


def test_lists_are_independent():
    first = TodoList()
    first.add("milk")
    second = TodoList()
    assert second.items == []
    assert first.pending() == 1


def test_given_items():
    assert TodoList(["a", "b"]).pending() == 2
