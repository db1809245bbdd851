"""A Python file sent whole in a JSON string comes back with its strings requoted and its docstrings left out
(a `"` inside JSON must be escaped, and small models avoid it): lines that differ from the file's only so are
read as the file's, dropped docstrings are kept, and nothing else is touched."""

from __future__ import annotations

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits
from glmagent.patching._file_style import in_file_style

STATUS = b'''def describe(status: int) -> str:
    """A one-word description of an HTTP status code."""
    if 200 <= status < 300:
        return "success"
    if 400 <= status < 500:
        return "client error"
    if 500 <= status < 600:
        return "server error"
    return "unknown"
'''
# The live bench's first reply to http_status_branch: the fix, in single quotes, without the docstring.
SENT = """def describe(status: int) -> str:
    if 200 <= status < 300:
        return 'success'
    if 400 <= status < 500:
        return 'client error'
    if 500 <= status < 600:
        return 'server error'
    if 301 == status or 304 == status:
        return 'redirect'
    return 'unknown'"""


def test_a_fix_sent_in_other_quotes_without_the_docstring_changes_only_the_fix() -> None:
    result = apply_edits("status.py", STATUS, [([], SENT.split("\n"))], content=True)

    assert result.content == STATUS.replace(
        b'    return "unknown"',
        b"    if 301 == status or 304 == status:\n        return 'redirect'\n    return \"unknown\"",
    )
    assert (result.added, result.removed) == (2, 0)
    note = result.hunks[0].notes[0]
    assert "4 lines differing from the file's only in the quotes" in note and "docstring of describe" in note


def test_content_whose_strings_change_their_values_is_still_other_content() -> None:
    changed = SENT
    for word in ("success", "client error", "server error", "unknown"):
        changed = changed.replace(f"'{word}'", f"'{word.upper()}'")

    changed = changed.replace("< 300", "<= 299").replace("< 500", "<= 499")

    with pytest.raises(PatchRejected, match="leaves out 6 of the file's lines"):
        apply_edits("status.py", STATUS, [([], changed.split("\n"))], content=True)


@pytest.mark.parametrize(
    ("file_line", "sent", "kept_as_file"),
    [
        ('x = "it\'s"', "x = 'it\\'s'", True),  # an escape: the same value
        ('x = "a"', "x = 'b'", False),  # another value
        ('x = f"{a}"', "x = f'{a}'", False),  # an f-string is not a plain literal: only its text counts
        ('x = b"a"', "x = 'a'", False),  # bytes and str differ
        ('x = "a"  # "b"', "x = 'a'  # 'b'", False),  # a comment's text is not a literal
        ('call("a", "b")', "call('a', 'b')", True),
        ('    """Doc of `f`."""', '    "Doc of `f`."', True),  # a docstring's triple quotes sent single
        ('    """Doc."""', "    'Doc!'", False),
    ],
)
def test_a_line_is_read_as_the_files_only_when_every_literal_keeps_its_value(
    file_line: str, sent: str, kept_as_file: bool
) -> None:
    lines, notes = in_file_style([file_line], [sent])

    assert lines == [file_line if kept_as_file else sent]
    assert bool(notes) is kept_as_file


def test_two_file_lines_that_read_alike_leave_the_sent_line_as_it_is() -> None:
    old = ['a = "x\'y"', "a = 'x\"y'"]

    assert in_file_style(old, ["a = 'x'y'"]) == (["a = 'x'y'"], [])


def test_docstrings_left_out_are_kept_and_changed_ones_are_the_senders() -> None:
    old = [
        '"""Module."""',
        "class A:",
        '    """A thing."""',
        "    def f(self):",
        '        """F it."""',
        "        return 1",
        "def g():",
        '    """G."""',
        "    return 2",
    ]
    new = ["class A:", "    def f(self):", "        return 3"]
    new += ["def g():", '    """G, better."""', "    return 2"]

    lines, notes = in_file_style(old, new)

    assert lines == [
        '"""Module."""',
        "class A:",
        '    """A thing."""',
        "    def f(self):",
        '        """F it."""',
        "        return 3",
        "def g():",
        '    """G, better."""',
        "    return 2",
    ]
    assert notes == ["the docstrings of A, A.f, the module kept"]


def test_a_docstring_is_not_put_back_where_its_lines_would_need_another_indentation() -> None:
    old = ["def f():", '    """Doc\n    more."""', "    return 1"]
    new = ["def f():", "  return 2"]

    assert in_file_style(old, new) == (new, [])


def test_content_that_does_not_parse_is_left_to_the_syntax_check() -> None:
    old = ["def f():", '    """Doc."""', '    return "a"']
    new = ["def f(:", "    return 'a'"]

    lines, _notes = in_file_style(old, new)
    assert lines == ["def f(:", '    return "a"']  # the quote-only line is read so; no docstring is added


def test_a_docstring_requoted_until_it_no_longer_parses_is_read_as_the_files() -> None:
    # rename_price in the live run: the docstring's triple quotes sent single, its inner quotes left bare.
    old = ["def fmt_price(cents):", '    """Cents as text: 1250 -> "12.50 EUR"."""', "    return cents / 100"]
    new = ["def fmt_price(cents):", '    "Cents as text: 1250 -> "12.50 EUR"."', "    return cents / 100.0"]

    lines, notes = in_file_style(old, new)

    assert lines == [old[0], old[1], new[2]]
    assert notes


def test_the_same_words_outside_a_docstring_stay_as_sent() -> None:
    old = ["def f():", '    """Doc."""', '    x = "Doc."']
    new = ["def f():", '    """Doc."""', "    x = Doc."]

    assert in_file_style(old, new) == (new, [])


def test_a_docstring_is_kept_only_for_the_same_kind_of_definition() -> None:
    old = ["def f():", '    """Doc."""', "    return 1"]
    new = ["class f:", "    x = 1"]

    assert in_file_style(old, new) == (new, [])


def test_a_docstring_the_content_writes_over_several_lines_is_the_contents() -> None:
    # http_status_branch in live run 41: the one-line docstring grown into three lines. Its first line holds
    # the file's words; read as the file's one-line docstring it left the rest as code (a syntax error).
    sent = SENT.replace(
        "def describe(status: int) -> str:\n",
        'def describe(status: int) -> str:\n    """A one-word description of an HTTP status code.\n'
        "    3xx codes are 'redirect'.\n"
        '    """\n',
    )

    result = apply_edits("status.py", STATUS, [([], sent.split("\n"))], content=True)

    text = result.content.decode()
    assert (
        '    """A one-word description of an HTTP status code.\n    3xx codes are \'redirect\'.\n    """\n'
        in text
    )
    compile(text, "status.py", "exec")
