"""The applier's parts on their own: header paths, placeholders, indentation mapping, parsing, text."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.errors import PatchRejected
from glmagent.patching._indent import derive_indent_map
from glmagent.patching._match import LineIndex
from glmagent.patching._parse import parse_diff
from glmagent.patching._paths import header_agrees
from glmagent.patching._placeholder import placeholder_strength
from glmagent.patching._report import Opcode, unified_diff
from glmagent.patching._text import decode_file, diff_lines, split_text

# -- header paths ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "path", "agrees"),
    [
        ("a/src/x.py", "src/x.py", True),
        ("b/src/x.py", "src/x.py", True),
        ("x.py", "src/x.py", True),
        ("a/x.py", "src/x.py", True),
        ("/abs/repo/src/x.py", "src/x.py", True),
        ("src/x.py (working copy)", "src/x.py", True),
        ("src/x.py\t2020-01-01 00:00:00", "src/x.py", True),
        ("src\\x.py", "src/x.py", True),
        ("a/src/y.py", "src/x.py", False),
        ("a/lib/x.py", "src/x.py", False),
        ("a/xx.py", "src/x.py", False),  # suffix must be whole path components
        ("a/b/x.py", "b/x.py", True),  # a real directory called b
        ("original/x.py", "src/x.py", True),
        ("src/x.py.orig", "src/x.py", True),
        ("x.py~", "src/x.py", True),
        ("lib/x.py", "src/x.py", False),
        ("src/x.pyc", "src/x.py", False),
    ],
)
def test_header_agreement(raw: str, path: str, agrees: bool) -> None:
    assert header_agrees(raw, path) is agrees


# -- placeholders ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "strength"),
    [
        ("...", "weak"),
        ("        ...", "weak"),
        ("\u2026", "weak"),
        ("# ...", "strong"),
        ("// ... rest unchanged ...", "strong"),
        ("    # ... existing code ...", "strong"),
        ("/* ... */", "strong"),
        ("<!-- ... -->", "strong"),
        ("-- ... other columns ...", "strong"),
        ("// rest of the function unchanged", "strong"),
        ("# Other methods unchanged", "strong"),
        ("... existing code ...", "strong"),
        ("[...]", "strong"),
        ("{ ... existing code ... }", "strong"),
        ("/* ... **/", "strong"),
        ("(" + " " * 40 + "...)", "strong"),
        ("(" + " " * 40 + "x", None),  # no closing bracket: code
        ("# (" + " " * 40 + "x", None),
        ("# keep this value unchanged for old clients", None),
        ("# unchanged", None),
        ("...rest,", None),  # JS spread
        ("foo(...args)", None),
        ("x = ...", None),
        ('print("...")', None),
        ("# Loading data...", None),
        ("", None),
    ],
)
def test_placeholder_strength(line: str, strength: str | None) -> None:
    assert placeholder_strength(line) == strength


# -- indentation mapping ---------------------------------------------------------------------------------


def test_identity_when_indents_agree() -> None:
    mapping = derive_indent_map([("  a", "  a"), ("b", "b")])
    assert mapping is not None and mapping.identity


def test_prefix_added() -> None:
    mapping = derive_indent_map([("a:", "  a:"), ("  b: 1", "    b: 1"), ("", "")])
    assert mapping is not None
    assert mapping.apply("  c: 2") == "    c: 2"
    assert mapping.apply("") == ""


def test_prefix_removed_and_too_shallow_lines() -> None:
    mapping = derive_indent_map([("        x", "    x"), ("            y", "        y")])
    assert mapping is not None
    assert mapping.apply("            z") == "        z"
    assert mapping.apply("  w") is None


def test_spaces_to_tabs_prefers_no_depth_shift() -> None:
    mapping = derive_indent_map([("    x := 1", "\tx := 1")])
    assert mapping is not None
    assert mapping.apply("        y()") == "\t\ty()"


def test_tabs_to_spaces() -> None:
    mapping = derive_indent_map([("\tif a:", "    if a:"), ("\t\tb()", "        b()")])
    assert mapping is not None
    assert mapping.apply("\t\t\tc()") == "            c()"


def test_inconsistent_shift_has_no_mapping() -> None:
    assert derive_indent_map([("a", "  a"), ("  b", "  b")]) is None


# -- parsing ---------------------------------------------------------------------------------------------


def test_prose_and_fences_around_hunks_are_dropped() -> None:
    sections = parse_diff("Intro\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\nOutro - with a dash\n")
    assert len(sections) == 1
    (hunk,) = sections[0].hunks
    assert (hunk.kinds, hunk.texts) == (["-", "+"], ["a", "b"])
    assert (hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count) == (1, None, 1, None)


def test_a_removed_sql_comment_is_not_a_file_header() -> None:
    (section,) = parse_diff("@@\n select 1;\n--- old comment\n+++ new comment\n select 2;\n")
    assert section.hunks[0].kinds == [" ", "-", "+", " "]
    assert section.hunks[0].texts[1] == "-- old comment"


def test_no_newline_markers_attach_to_their_side() -> None:
    (section,) = parse_diff("@@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n")
    hunk = section.hunks[0]
    assert (hunk.old_no_eol, hunk.new_no_eol) == (True, True)


def test_git_headers_set_create_and_delete() -> None:
    (created,) = parse_diff(
        "diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x\n"
    )
    assert created.old_null and not created.new_null
    (deleted,) = parse_diff("--- a/n\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n")
    assert deleted.new_null and deleted.names == ["a/n"]


def test_hunk_numbering_runs_across_sections() -> None:
    sections = parse_diff("--- a/x\n+++ b/x\n@@\n-a\n+b\n--- a/x\n+++ b/x\n@@\n-c\n+d\n@@\n-e\n+f\n")
    assert [h.index for s in sections for h in s.hunks] == [1, 2, 3]


def test_a_hunk_with_no_lines_is_unparseable() -> None:
    with pytest.raises(PatchRejected) as caught:
        parse_diff("@@ -1 +1 @@\n@@ -3 +3 @@\n-a\n+b\n")
    assert caught.value.reason == "unparseable"


# -- text ------------------------------------------------------------------------------------------------


def test_diff_lines_drop_cr_and_bom() -> None:
    assert diff_lines("\ufeff@@\r\n a\r\n-b\r\n") == ["@@", " a", "-b"]


def test_split_text_uniform_and_mixed() -> None:
    lf = split_text("a\nb")
    assert (lf.lines, lf.final_newline, lf.newline, lf.eols) == (["a", "b"], False, "\n", None)
    crlf = split_text("a\r\nb\r\n")
    assert (crlf.lines, crlf.newline, crlf.eols) == (["a", "b"], "\r\n", None)
    mixed = split_text("a\r\nb\nc\r\n")
    assert (mixed.lines, mixed.eols, mixed.newline) == (["a", "b", "c"], ["\r\n", "\n", "\r\n"], "\r\n")
    assert mixed.span(0, 2) == len("a\r\nb\n")


def test_decode_keeps_bom_and_encoding() -> None:
    decoded = decode_file(b"\xef\xbb\xbfx\n")
    assert (decoded.bom, decoded.encoding, decoded.lines) == (b"\xef\xbb\xbf", "utf-8", ["x"])


def test_index_finds_every_match_and_wildcards() -> None:
    index = LineIndex(["a", "b", "a", "b", "c"])
    assert index.find(["a", "b"], "exact") == [0, 2]
    assert index.find(["a", None, "a"], "exact") == [0]
    assert index.find(["A"], "exact") == []
    assert LineIndex(["  a ", "b"]).find(["a", "b"], "indent") == [0]


# -- report rendering ------------------------------------------------------------------------------------


@given(
    old=st.lists(st.sampled_from("abcdefg"), max_size=30),
    new=st.lists(st.sampled_from("abcxyz"), max_size=30),
)
@settings(max_examples=examples(200), deadline=None)
def test_unified_diff_renders_like_difflib(old: list[str], new: list[str]) -> None:
    assume(old != new)
    ops = [Opcode(*op) for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()]
    expected = "\n".join(difflib.unified_diff(old, new, "a/p", "b/p", lineterm="")) + "\n"
    assert unified_diff("p", old, True, new, True, ops) == expected
