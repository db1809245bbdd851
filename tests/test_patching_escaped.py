"""Content of a Python file whose line breaks came escaped twice is read as the lines they stand for.

From the live bench's audit logs: progress_clamp's `content` was one line,
`def percent_done(done, total):\\n    \\"\\"\\"How much ...`, refused as "other content"; grades_branch's fix
came the same way and was refused while it would have passed the tests.
"""

from __future__ import annotations

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits

PROGRESS = (
    b"def percent_done(done, total):\n"
    b'    """How much of the work is done, as a whole percentage."""\n'
    b"    return round(100 * done / total)\n"
    b"\n\n"
    b"def bar(done, total, width=20):\n"
    b"    return '#' * percent_done(done, total)\n"
)
FIXED = (
    "def percent_done(done, total):\n"
    '    """How much of the work is done, as a whole percentage."""\n'
    "    if total == 0:\n"
    "        return 0\n"
    "    return round(100 * done / total)\n"
)


def escaped(text: str) -> str:
    """The text escaped once more, as the model sent it: one line."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def send(path: str, original: bytes, content: str) -> bytes:
    result = apply_edits(path, original, [([], content.removesuffix("\n").split("\n"))], content=True)
    assert result.content is not None
    return result.content


def test_content_escaped_twice_is_read_as_its_lines() -> None:
    line = escaped(FIXED)
    assert "\n" not in line and line.count("\\n") == 5

    result = apply_edits("progress.py", PROGRESS, [([], [line])], content=True)

    assert result.content == FIXED.encode() + PROGRESS[PROGRESS.index(b"\n\ndef bar") :]
    assert "escaped line breaks" in result.summary()


def test_an_edit_whose_replace_line_is_escaped_twice_is_read_as_its_lines() -> None:
    search = ["    return round(100 * done / total)"]
    replace = [escaped("    if total == 0:\n        return 0\n    return round(100 * done / total)")]

    result = apply_edits("progress.py", PROGRESS, [(search, replace)])

    assert result.content is not None and b"    if total == 0:\n        return 0\n" in result.content


def test_a_strings_own_escape_is_kept_as_written() -> None:
    # valid as written: no second reading, the `\n` stays inside the string
    original = b"def join(lines):\n    return ''.join(lines)\n"
    content = 'def join(lines):\n    return "\\n".join(lines)\n'

    assert send("text.py", original, content) == content.encode()


@pytest.mark.parametrize(
    ("path", "content"),
    [
        # not Python: nothing checks a reading, so none is tried
        ("notes.txt", "first\\nsecond\\nthird"),
        # decoded, it still does not parse: the refusal of the content as written stands
        ("progress.py", "def percent_done(done, total):\\n    return (\\n"),
    ],
    ids=["not python", "still invalid"],
)
def test_no_second_reading_is_kept_that_cannot_be_checked_or_does_not_parse(path: str, content: str) -> None:
    original = PROGRESS if path.endswith(".py") else b"first\nsecond\n"
    try:
        result = send(path, original, content)
    except PatchRejected as refused:
        assert "escaped line breaks" not in str(refused)
    else:
        assert b"\\n" in result  # applied as written, escapes and all
