"""Property tests: random files and edits, difflib's diff and mangled variants of it.

Whatever the form damage (scrambled or placeholder @@ numbers, wrong counts, no file headers, trailing
whitespace in context, CRLF flipped, hunks shuffled or duplicated, a fence with prose), a diff must apply
to exactly the intended result when its hunks are unambiguous, and otherwise be refused: never a
different result.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.errors import PatchRejected
from glmagent.patching import apply_patch

# Not a Python name: the lines drawn here are not code, and a Python file that stops parsing is refused
# (`syntax_error`, tests/test_patching_syntax.py), which is not what these properties are about.
PATH = "src/module.txt"
SETTINGS = settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class Mangling:
    """Form damage applied to a correct diff; none of it changes what the diff means."""

    numbers: str  # "keep" | "shift" | "zero" | "dots" | "bare"
    wrong_counts: bool
    strip_headers: bool
    trailing_ws: bool
    crlf_diff: bool
    shuffle: bool
    duplicate: bool
    fence: bool
    bare_blank: bool  # blank context lines written as empty lines (their ' ' prefix lost)


manglings = st.builds(
    Mangling,
    numbers=st.sampled_from(["keep", "shift", "zero", "dots", "bare"]),
    wrong_counts=st.booleans(),
    strip_headers=st.booleans(),
    trailing_ws=st.booleans(),
    crlf_diff=st.booleans(),
    shuffle=st.booleans(),
    duplicate=st.booleans(),
    fence=st.booleans(),
    bare_blank=st.booleans(),
)


def refusals_for(how: Mangling) -> set[str]:
    """The refusal reasons that are honest answers to a diff mangled as `how`."""
    reasons = {"ambiguous", "already_applied", "overlap", "stale_context", "placeholder"}
    if how.numbers == "zero" and how.bare_blank:
        # A hunk whose only context was blank lines, written bare, under '@@ -0,0 +0,0 @@' reads exactly
        # like a new-file diff: refusing it as one is right.
        reasons.add("new_file_exists")
    return reasons


def make_diff(old: list[str], new: list[str], context: int) -> str:
    """What difflib writes for old -> new (lines without endings)."""
    lines = difflib.unified_diff(old, new, f"a/{PATH}", f"b/{PATH}", n=context, lineterm="")
    return "\n".join(lines) + "\n"


def split_hunks(diff: str) -> tuple[list[str], list[list[str]]]:
    """(file header lines, hunks as line lists)."""
    head: list[str] = []
    hunks: list[list[str]] = []
    for line in diff.splitlines():
        if line.startswith("@@"):
            hunks.append([line])
        elif hunks:
            hunks[-1].append(line)
        else:
            head.append(line)
    return head, hunks


def mangle(diff: str, how: Mangling, rnd: st.DataObject) -> str:
    head, hunks = split_hunks(diff)
    out_hunks = []
    for hunk in hunks:
        header, body = hunk[0], hunk[1:]
        m = _HEADER.match(header)
        assert m is not None
        a, b, c, d = (int(g) if g is not None else 1 for g in m.groups())
        if how.wrong_counts:
            b = rnd.draw(st.integers(0, 40))
            d = rnd.draw(st.integers(0, 40))
        if how.numbers == "shift":
            # Far outside the file: a useless hint, never pointing at another candidate by chance.
            shift = rnd.draw(st.integers(1000, 5000))
            header = f"@@ -{a + shift},{b} +{c + shift},{d} @@"
        elif how.numbers == "zero":
            header = "@@ -0,0 +0,0 @@"
        elif how.numbers == "dots":
            header = "@@ ... @@"
        elif how.numbers == "bare":
            header = "@@"
        else:
            header = f"@@ -{a},{b} +{c},{d} @@"
        if how.bare_blank:
            body = ["" if line == " " else line for line in body]
        if how.trailing_ws:
            body = [
                line + rnd.draw(st.sampled_from(["", " ", "\t", "  "])) if line.startswith(" ") else line
                for line in body
            ]
        out_hunks.append([header, *body])
    if how.duplicate and out_hunks:
        out_hunks.append(list(out_hunks[rnd.draw(st.integers(0, len(out_hunks) - 1))]))
    if how.shuffle:
        out_hunks = rnd.draw(st.permutations(out_hunks))
    lines = ([] if how.strip_headers else head) + [line for hunk in out_hunks for line in hunk]
    text = "\n".join(lines) + "\n"
    if how.fence:
        text = f"Here is the change you asked for:\n\n```diff\n{text}```\n\nIt keeps the rest as is.\n"
    if how.crlf_diff:
        text = text.replace("\n", "\r\n")
    return text


def encode(lines: list[str], newline: str, final_newline: bool) -> bytes:
    text = newline.join(lines)
    if lines and final_newline:
        text += newline
    return text.encode("utf-8")


@st.composite
def edits(draw: st.DrawFn, old: list[str], fresh: st.SearchStrategy[str]) -> list[str]:
    """A new version of `old`: 1-4 non-overlapping replacements (each may delete and/or insert lines)."""
    count = draw(st.integers(1, 4))
    cuts = sorted(draw(st.lists(st.integers(0, len(old)), min_size=count, max_size=count)))
    new: list[str] = []
    at = 0
    for cut in cuts:
        if cut < at:
            continue
        new.extend(old[at:cut])
        removed = draw(st.integers(0, min(3, len(old) - cut)))
        added = draw(st.lists(fresh, max_size=3))
        new.extend(added)
        at = cut + removed
    new.extend(old[at:])
    return new


unique_counter = iter(range(10**9))


def unique_line() -> st.SearchStrategy[str]:
    """Lines never seen before in this run: edits on unique files stay unique."""
    return st.builds(
        lambda k, pad: f"{'    ' * pad}value_{next(unique_counter)} = {k}",
        st.integers(0, 99),
        st.integers(0, 2),
    )


@given(data=st.data(), size=st.integers(3, 60), context=st.integers(1, 3), how=manglings)
@SETTINGS
def test_unambiguous_diffs_apply_exactly_despite_form_damage(
    data: st.DataObject, size: int, context: int, how: Mangling
) -> None:
    old = data.draw(st.lists(unique_line(), min_size=size, max_size=size))
    new = data.draw(edits(old, unique_line()))
    assume(new != old)
    crlf_file = data.draw(st.booleans())
    final_newline = data.draw(st.booleans())
    newline = "\r\n" if crlf_file else "\n"
    diff = mangle(make_diff(old, new, context), how, data)

    result = apply_patch(PATH, encode(old, newline, final_newline), diff)

    assert result.content == encode(new, newline, final_newline)
    assert result.action == "modify"


ALPHABET = ["", "}", "return x", "x = 1", "    pass", "else:", "a", "b"]


@given(data=st.data(), size=st.integers(2, 30), context=st.integers(1, 3), how=manglings)
@SETTINGS
def test_repetitive_files_apply_exactly_or_are_refused(
    data: st.DataObject, size: int, context: int, how: Mangling
) -> None:
    """With many repeated lines hunks are often ambiguous: then a refusal, never another result."""
    old = data.draw(st.lists(st.sampled_from(ALPHABET), min_size=size, max_size=size))
    new = data.draw(edits(old, st.sampled_from([*ALPHABET, "y = 2", "raise E"])))
    assume(new != old)
    diff = mangle(make_diff(old, new, context), how, data)

    try:
        result = apply_patch(PATH, encode(old, "\n", True), diff)
    except PatchRejected as rejected:
        event(f"refused: {rejected.reason}")
        assert rejected.reason in refusals_for(how)
        return
    event("applied")
    assert result.content == encode(new, "\n", True)


@given(
    data=st.data(),
    block=st.lists(
        st.sampled_from(["x = 1", "y = 2", "call()", "if ok:", "    go()"]), min_size=3, max_size=6
    ),
    header=st.sampled_from(["@@", "@@ ... @@", "@@ -0,0 +0,0 @@", "shift"]),
)
@SETTINGS
def test_context_occurring_twice_is_refused_with_both_places(
    data: st.DataObject, block: list[str], header: str
) -> None:
    before = [f"head_{k}" for k in range(data.draw(st.integers(0, 4)))]
    between = [f"mid_{k}" for k in range(data.draw(st.integers(1, 4)))]
    after = [f"tail_{k}" for k in range(data.draw(st.integers(0, 4)))]
    lines = before + block + between + block + after
    which = data.draw(st.integers(0, len(block) - 1))
    body = [(" " if k != which else "-") + line for k, line in enumerate(block)]
    body.insert(which + 1, "+changed = True")
    first = len(before) + 1
    second = len(before) + len(block) + len(between) + 1
    if header == "shift":
        header = f"@@ -{second + 500},{len(block)} +{second + 500},{len(block) + 1} @@"
    diff = "\n".join([header, *body]) + "\n"

    with pytest.raises(PatchRejected) as rejected:
        apply_patch(PATH, encode(lines, "\n", True), diff)

    assert rejected.value.reason == "ambiguous"
    message = str(rejected.value)
    assert f"lines {first} and {second}" in message
    assert "context" in message


@given(data=st.data(), block=st.lists(st.sampled_from(["x = 1", "y = 2", "call()"]), min_size=2, max_size=5))
@SETTINGS
def test_a_correct_line_number_picks_one_of_several_matches(data: st.DataObject, block: list[str]) -> None:
    lines = ["start", *block, "middle", *block, "end"]
    second = len(block) + 3  # 1-based first line of the second copy
    which = data.draw(st.integers(0, len(block) - 1))
    body = [(" " if k != which else "-") + line for k, line in enumerate(block)]
    body.insert(which + 1, "+changed = True")
    diff = f"@@ -{second},{len(block)} +{second},{len(block)} @@\n" + "\n".join(body) + "\n"
    expected = list(lines)
    expected[second - 1 + which] = "changed = True"

    result = apply_patch(PATH, encode(lines, "\n", True), diff)

    assert result.content == encode(expected, "\n", True)
    assert "header" in " ".join(result.hunks[0].notes)


@given(data=st.data(), size=st.integers(3, 40), prefix=st.sampled_from(["  ", "    ", "\t", "\t\t"]))
@SETTINGS
def test_indentation_drift_maps_added_lines_to_the_file_depth(
    data: st.DataObject, size: int, prefix: str
) -> None:
    """The diff is written without the file's common indentation; added lines must gain it."""
    bare = data.draw(st.lists(unique_line(), min_size=size, max_size=size))
    new_bare = data.draw(edits(bare, unique_line()))
    assume(new_bare != bare)
    diff = make_diff(bare, new_bare, 2)
    indented_old = [prefix + line for line in bare]
    indented_new = [prefix + line for line in new_bare]

    result = apply_patch(PATH, encode(indented_old, "\n", True), diff)

    assert result.content == encode(indented_new, "\n", True)


@given(data=st.data(), size=st.integers(3, 40), context=st.integers(1, 3))
@SETTINGS
def test_reapplying_an_applied_diff_is_refused(data: st.DataObject, size: int, context: int) -> None:
    old = data.draw(st.lists(unique_line(), min_size=size, max_size=size))
    new = data.draw(edits(old, unique_line()))
    assume(new != old)
    diff = make_diff(old, new, context)
    once = apply_patch(PATH, encode(old, "\n", True), diff).content
    assert once is not None

    with pytest.raises(PatchRejected) as rejected:
        apply_patch(PATH, once, diff)

    assert rejected.value.reason in {"already_applied", "stale_context"}


@given(data=st.data(), size=st.integers(3, 40))
@SETTINGS
def test_reported_counts_and_diff_describe_the_real_change(data: st.DataObject, size: int) -> None:
    old = data.draw(st.lists(unique_line(), min_size=size, max_size=size))
    new = data.draw(edits(old, unique_line()))
    assume(new != old)

    result = apply_patch(PATH, encode(old, "\n", True), make_diff(old, new, 3))

    reference = list(difflib.unified_diff(old, new, lineterm="", n=3))[2:]
    added = sum(1 for line in reference if line.startswith("+"))
    removed = sum(1 for line in reference if line.startswith("-"))
    # difflib's own diff may pair lines differently, but the net line count change must agree.
    assert result.added - result.removed == added - removed == len(new) - len(old)
    # The reported diff, applied to the original, gives the result.
    again = apply_patch(PATH, encode(old, "\n", True), result.diff)
    assert again.content == result.content


@given(
    data=st.data(),
    size=st.integers(4, 40),
    context=st.integers(1, 3),
    how=st.sampled_from(["typo", "invent"]),
)
@SETTINGS
def test_mistyped_or_invented_context_is_refused_and_quoted_unless_the_removed_lines_place_the_change(
    data: st.DataObject, size: int, context: int, how: str
) -> None:
    old = data.draw(st.lists(unique_line(), min_size=size, max_size=size))
    new = data.draw(edits(old, unique_line()))
    assume(new != old)
    head, hunks = split_hunks(make_diff(old, new, context))
    k = data.draw(st.integers(0, len(hunks) - 1))
    hunk = hunks[k]
    context_rows = [i for i, line in enumerate(hunk) if i > 0 and line.startswith(" ")]
    assume(context_rows)
    row = data.draw(st.sampled_from(context_rows))
    bogus = " " + hunk[row][1:].replace("value_", "valeu_")
    if how == "typo":
        hunk[row] = bogus
    else:
        hunk.insert(row, bogus)
    diff = "\n".join([*head, *(line for h in hunks for line in h)]) + "\n"
    kinds = [line[:1] for line in hunk[1:]]
    changed = [i for i, kind in enumerate(kinds) if kind in "+-"]
    one_block = all(kind in "+-" for kind in kinds[changed[0] : changed[-1] + 1])

    if one_block and "-" in kinds:
        # Its removed lines occur at one place only (every line here is unique): the change is made there,
        # exactly as intended, and the note names the context that was ignored.
        result = apply_patch(PATH, encode(old, "\n", True), diff)
        assert result.content == encode(new, "\n", True)
        assert any(repr(bogus[1:]) in note and "ignored" in note for h in result.hunks for note in h.notes)
        return
    with pytest.raises(PatchRejected) as rejected:
        apply_patch(PATH, encode(old, "\n", True), diff)

    assert rejected.value.reason == "stale_context"
    assert repr(bogus[1:]) in str(rejected.value)


CORPUS_FILES = sorted(
    (p.parent.name, p.read_bytes().decode("utf-8"))
    for p in (Path(__file__).parent / "corpus" / "diffs").glob("*/before")
)


@given(data=st.data(), context=st.integers(1, 3), how=manglings)
@SETTINGS
def test_real_source_files_apply_exactly_or_are_refused(
    data: st.DataObject, context: int, how: Mangling
) -> None:
    """Real code repeats itself (blank lines, braces, twin functions): edits there apply or are refused."""
    _, text = data.draw(st.sampled_from(CORPUS_FILES))
    old = text.split("\n")
    final_newline = old[-1] == ""
    if final_newline:
        old.pop()
    # New lines copy real lines (so they may repeat) or are fresh.
    new = data.draw(edits(old, st.one_of(st.sampled_from(old), unique_line())))
    assume(new != old)
    newline = "\r\n" if "\r\n" in text else "\n"
    old = [line.rstrip("\r") for line in old]
    new = [line.rstrip("\r") for line in new]
    diff = mangle(make_diff(old, new, context), how, data)

    try:
        result = apply_patch(PATH, encode(old, newline, final_newline), diff)
    except PatchRejected as rejected:
        event(f"refused: {rejected.reason}")
        assert rejected.reason in refusals_for(how)
        return
    event("applied")
    assert result.content == encode(new, newline, final_newline)
