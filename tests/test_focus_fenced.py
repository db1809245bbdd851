"""Files in the prompt are shown as they are, between Markdown fences, not behind line numbers.

A small model asked for a file's whole new text copied the `N | ` of the numbered listing into it; the fenced
form is the one it was trained to rewrite (the model alone, shown fenced files, fixed 11 of 24 live tasks).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.focus import FileView, WorkingSet, _cut, fenced
from glmagent.workspace import Workspace


def listing(lines: list[str], header: str = "a.py") -> str:
    width = len(str(len(lines)))
    numbered = [f"{n:>{width}} | {line}" for n, line in enumerate(lines, start=1)]
    return f"{header} ({len(lines)} lines; line numbers are not part of the file):\n" + "\n".join(numbered)


def between_fences(text: str) -> list[list[str]]:
    """The lines of each fenced block of `text`."""
    blocks: list[list[str]] = []
    fence: str | None = None
    for line in text.splitlines()[1:]:
        if fence is None and line.startswith("```"):
            fence, current = line, []
        elif fence is not None and line == fence:
            blocks.append(current)
            fence = None
        elif fence is not None:
            current.append(line)
    return blocks


def test_a_listing_is_its_header_and_the_files_lines_between_fences() -> None:
    lines = ["def f(x):", "", "    return x  # 3 | not a line number", "12 | text of the file"]
    shown = fenced(listing(lines))
    assert shown.splitlines()[0] == "a.py (4 lines):"
    assert between_fences(shown) == [lines]
    assert shown.endswith("\n```")


def test_backticks_in_the_file_get_a_longer_fence() -> None:
    lines = ["Example:", "```python", "print(1)", "````", "done"]
    shown = fenced(listing(lines, "README.md"))
    assert shown.splitlines()[1] == "`````" and shown.splitlines()[-1] == "`````"
    assert between_fences(shown) == [lines]


def test_a_cut_file_shows_two_parts_and_names_the_lines_left_out() -> None:
    lines = [f"value_{n} = {n}  # " + "x" * 40 for n in range(1, 301)]
    shown = fenced(_cut(listing(lines), 3_000))
    head, tail = between_fences(shown)
    assert head == lines[: len(head)] and tail == lines[-len(tail) :]
    first, last = len(head) + 1, 300 - len(tail)
    note = (
        f'[... lines {first}-{last} not shown here; read_file with "lines": "{first}-{last}" shows them ...]'
    )
    assert f"```\n{note}\n```" in shown


def test_a_note_after_the_listing_stays_outside_the_fence() -> None:
    text = listing(["a = 1", "b = 2"]) + "\n[... lines 3-900 of 900 not shown; read them with {...} ...]"
    shown = fenced(text)
    assert between_fences(shown) == [["a = 1", "b = 2"]]
    assert shown.endswith("```\n[... lines 3-900 of 900 not shown; read them with {...} ...]")


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(
        st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30),
        min_size=1,
        max_size=40,
    )
)
def test_whatever_the_lines_the_fenced_text_is_the_file(lines: list[str]) -> None:
    assert between_fences(fenced(listing(lines))) == [lines]


def test_the_working_set_shows_the_file_as_it_is_on_disk(tmp_path: Path) -> None:
    source = '"""Helpers."""\n\n\ndef mean(values):\n    return sum(values) / len(values)\n'
    (tmp_path / "stats.py").write_text(source, encoding="utf-8")
    files = WorkingSet(FileView(Workspace(tmp_path)))
    files.add("stats.py")
    [(path, text)] = files.render()
    assert path == "stats.py" and text.splitlines()[0] == "stats.py (5 lines):"
    assert between_fences(text) == [source.splitlines()]
