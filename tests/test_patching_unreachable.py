"""An edit that leaves new Python code after a `return`, `raise`, `continue` or `break` in the same block
is refused before the write (`glmagent.patching._unreachable`): the code would never run, and the tests
alone would not tell the model why its change did nothing."""

from __future__ import annotations

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits, apply_patch

SHIPPING = b'''def shipping_cost(country, weight_kg):
    """What sending a parcel costs."""
    if country == "US":
        return 5.0 + 1.0 * weight_kg
    elif country == "CA":
        return 8.0 + 2.0 * weight_kg
    raise ValueError(f"no rate for {country}")
'''
RAISE = '    raise ValueError(f"no rate for {country}")'


def test_a_branch_written_below_the_final_raise_is_refused_and_the_message_says_where_it_goes() -> None:
    with pytest.raises(PatchRejected) as refused:
        apply_edits(
            "shipping.py", SHIPPING, [([RAISE], [RAISE, "    if country == 'MX':", "        return 25.0"])]
        )
    assert refused.value.reason == "unreachable"
    message = str(refused.value)
    assert "`if country == 'MX':` (line 8) comes after `raise ValueError" in message
    assert "on line 7" in message and "Put the new lines before" in message


def test_the_same_branch_above_the_raise_applies() -> None:
    result = apply_edits(
        "shipping.py", SHIPPING, [([RAISE], ["    if country == 'MX':", "        return 25.0", RAISE])]
    )
    assert b"    if country == 'MX':\n        return 25.0\n    raise" in (result.content or b"")


def test_a_statement_after_a_semicolon_on_a_one_line_if_is_refused_with_why() -> None:
    source = b"def percent(done, total):\n    return round(100 * done / total)\n"
    with pytest.raises(PatchRejected) as refused:
        apply_edits(
            "progress.py",
            source,
            [
                (
                    ["    return round(100 * done / total)"],
                    ["    if total == 0: return 0; return round(100 * done / total)"],
                )
            ],
        )
    assert refused.value.reason == "unreachable"
    assert "`return round(100 * done / total)` (line 2) comes after `return 0` on the same line" in str(
        refused.value
    )
    assert "belongs to that `if`" in str(refused.value)


def test_a_return_put_above_a_docstring_is_refused() -> None:
    source = b'def mean(values):\n    """The mean."""\n    return sum(values) / len(values)\n'
    with pytest.raises(PatchRejected) as refused:
        apply_edits("stats.py", source, [(["def mean(values):"], ["def mean(values):", "    return 0.0"])])
    assert refused.value.reason == "unreachable"


@pytest.mark.parametrize(
    "ender",
    ["continue", "break", "return None", "raise KeyError(key)"],
)
def test_every_statement_that_ends_a_block_counts(ender: str) -> None:
    source = b"def f(items, key):\n    for item in items:\n        print(item)\n"
    with pytest.raises(PatchRejected) as refused:
        apply_edits("f.py", source, [(["        print(item)"], [f"        {ender}", "        print(item)"])])
    assert refused.value.reason == "unreachable"


def test_dead_code_the_file_already_had_does_not_block_an_unrelated_edit() -> None:
    source = b"def f():\n    return 1\n    print('never')\n\n\ndef g():\n    return 2\n"
    result = apply_edits("f.py", source, [(["    return 2"], ["    return 3"])])
    assert b"return 3" in (result.content or b"")


def test_a_return_inside_a_branch_leaves_the_code_after_the_branch_reachable() -> None:
    source = b"def f(x):\n    y = x * 2\n    return y\n"
    result = apply_edits(
        "f.py", source, [(["    y = x * 2"], ["    if x is None:", "        return 0", "    y = x * 2"])]
    )
    assert b"        return 0\n    y = x * 2" in (result.content or b"")


def test_other_languages_and_unparseable_files_are_left_to_the_edit() -> None:
    js = b"function f() {\n  return 1;\n}\n"
    assert apply_edits("f.js", js, [(["  return 1;"], ["  return 1;", "  g();"])]).content
    broken = b"def f(:\n    return 1\n"
    assert apply_edits("f.py", broken, [(["def f(:"], ["def f():"])]).content


def test_a_unified_diff_is_judged_the_same_way() -> None:
    diff = (
        "--- a/shipping.py\n+++ b/shipping.py\n@@ -6,2 +6,4 @@\n"
        "         return 8.0 + 2.0 * weight_kg\n"
        f" {RAISE}\n"
        "+    if country == 'MX':\n"
        "+        return 25.0\n"
    )
    with pytest.raises(PatchRejected) as refused:
        apply_patch("shipping.py", SHIPPING, diff)
    assert refused.value.reason == "unreachable"
    assert "With this diff" in str(refused.value)
