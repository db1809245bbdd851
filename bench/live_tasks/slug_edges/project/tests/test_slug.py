from slug import slugify


def test_simple():
    assert slugify("Hello World") == "hello-world"


def test_edges():
    assert slugify("  Hello, World!  ") == "hello-world"
    assert slugify("--Top 10--") == "top-10"
