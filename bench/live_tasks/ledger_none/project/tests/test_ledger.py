from ledger import Entry, balance, largest

ENTRIES = [Entry("rent", -800.0), Entry("pending", None), Entry("salary", 2500.0)]


def test_balance_skips_missing_amounts():
    assert balance(ENTRIES) == 1700.0


def test_largest_skips_missing_amounts():
    assert largest(ENTRIES).label == "salary"
    assert largest([Entry("pending", None), Entry("fee", -5.0)]).label == "fee"
    assert largest([Entry("salary", 2500.0), Entry("pending", None), Entry("rent", -800.0)]).label == "salary"


def test_largest_of_nothing():
    assert largest([]) is None
