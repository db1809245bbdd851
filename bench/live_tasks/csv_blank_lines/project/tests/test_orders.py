from orders import read_rows, total_quantity


def test_rows():
    assert read_rows("apples, 3\npears,2") == [("apples", 3), ("pears", 2)]


def test_blank_lines():
    assert read_rows("apples, 3\n\n   \npears, 2\n") == [("apples", 3), ("pears", 2)]


def test_total():
    assert total_quantity("a,1\n\nb,4") == 5
