"""The observation: PatchResult fields, summary, the resulting diff, context, per-hunk reports; bytes kept."""

from __future__ import annotations

import codecs
import shutil
import subprocess
from pathlib import Path

import pytest

from glmagent.patching import HunkReport, PatchResult, apply_patch

TEXT = b"".join(f"line {i}\n".encode() for i in range(1, 41))


def test_public_surface() -> None:
    import glmagent.patching as patching

    assert sorted(patching.__all__) == [
        "HunkReport",
        "PatchResult",
        "REWRITE_MAX_LINES",
        "apply_edits",
        "apply_patch",
    ]


def test_result_fields_for_a_two_hunk_edit() -> None:
    diff = (
        "@@ -3,3 +3,3 @@\n line 3\n-line 4\n+line four\n line 5\n@@ -30,2 +30,4 @@\n line 30\n+new a\n"
        "+new b\n line 31\n"
    )
    result = apply_patch("src/app.txt", TEXT, diff)
    assert isinstance(result, PatchResult)
    assert result.action == "modify"
    assert (result.added, result.removed) == (3, 1)
    assert result.hunks == [
        HunkReport(index=1, tier="exact", old_start=3, new_start=3, notes=[]),
        HunkReport(index=2, tier="exact", old_start=30, new_start=30, notes=[]),
    ]
    assert result.summary() == "Modified src/app.txt (+3 -1), 2 hunks (exact, exact)"


def test_new_start_accounts_for_earlier_hunks_even_when_listed_later() -> None:
    diff = "@@\n line 30\n-line 31\n line 32\n@@\n line 2\n+a\n+b\n+c\n line 3\n"
    result = apply_patch("t.txt", TEXT, diff)
    first, second = result.hunks
    assert (first.index, first.old_start, first.new_start) == (1, 30, 33)
    assert (second.index, second.old_start, second.new_start) == (2, 2, 2)


def test_summary_names_tiers_and_notes() -> None:
    original = b"a:\n  b: 1\n  c: 2\nd: 3\n"
    result = apply_patch("c.yml", original, "@@\n b: 1\n+b2: 5\n c: 2\n")
    assert result.content == b"a:\n  b: 1\n  b2: 5\n  c: 2\nd: 3\n"
    assert result.summary().startswith("Modified c.yml (+1 -0), 1 hunk (indent); 1 note: ")


def test_counts_describe_the_actual_change_not_the_diff() -> None:
    # The hunk removes and re-adds "line 5" unchanged: only "line 4" really changes.
    diff = "@@\n line 3\n-line 4\n-line 5\n+line four\n+line 5\n line 6\n"
    result = apply_patch("t.txt", TEXT, diff)
    assert (result.added, result.removed) == (1, 1)


def test_the_resulting_diff_is_computed_from_the_file_not_copied_from_the_request() -> None:
    original = b"def f():   \n    return 1\n"
    result = apply_patch(
        "f.py", original, "bad header\n@@ -99 +99 @@\n def f():\n-    return 1\n+    return 2\n"
    )
    assert (
        result.diff == "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n def f():   \n-    return 1\n+    return 2\n"
    )


def test_the_resulting_diff_marks_a_missing_final_newline() -> None:
    result = apply_patch("t.txt", b"a\nb", "@@\n a\n-b\n+c\n")
    assert result.diff.endswith("-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_resulting_diff_applies_with_git(tmp_path: Path) -> None:
    original = TEXT.replace(b"\n", b"\r\n")
    diff = "@@\n line 10\n-line 11\n+eleven\n line 12\n@@\n line 39\n line 40\n+line 41\n"
    result = apply_patch("t.txt", original, diff)
    (tmp_path / "t.txt").write_bytes(original)
    (tmp_path / "r.diff").write_text(result.diff, encoding="utf-8", newline="")
    subprocess.run(
        ["git", "apply", "--ignore-whitespace", "r.diff"], cwd=tmp_path, check=True, capture_output=True
    )
    assert (tmp_path / "t.txt").read_bytes().replace(b"\r\n", b"\n") == (result.content or b"").replace(
        b"\r\n", b"\n"
    )


def test_context_shows_numbered_lines_around_each_change() -> None:
    result = apply_patch("t.txt", TEXT, "@@\n line 19\n-line 20\n+twenty\n line 21\n")
    assert result.context == (
        "lines 18-22:\n18   line 18\n19   line 19\n     (1 line removed here)\n20 + twenty\n"
        "21   line 21\n22   line 22"
    )


def test_create_result() -> None:
    result = apply_patch("n.py", None, "--- /dev/null\n+++ b/n.py\n@@ -0,0 +1,2 @@\n+a = 1\n+b = 2\n")
    assert result.summary() == "Created n.py (+2 -0)"
    assert result.diff == "--- /dev/null\n+++ b/n.py\n@@ -0,0 +1,2 @@\n+a = 1\n+b = 2\n"
    assert "1 + a = 1" in result.context
    assert [(h.tier, h.old_start, h.new_start) for h in result.hunks] == [("create", 0, 1)]


def test_delete_result() -> None:
    result = apply_patch("old.py", b"a\nb\n", "--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n")
    assert result.diff == "--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n"
    assert result.context == ""


def test_a_context_only_hunk_changes_nothing_and_says_so() -> None:
    result = apply_patch("t.txt", TEXT, "@@\n line 3\n line 4\n")
    assert result.content == TEXT
    assert (result.added, result.removed, result.diff) == (0, 0, "")
    assert result.hunks[0].notes == ["changes nothing (context only)"]


# -- the file's own form, byte for byte ------------------------------------------------------------------


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "utf-16-be", "utf-32"])
def test_bom_and_encoding_are_kept(codec: str) -> None:
    text = "caf\u00e9 = 1\nna\u00efve = 2\n"
    original = text.encode(codec)
    if codec == "utf-16-be":
        original = codecs.BOM_UTF16_BE + original
    result = apply_patch("t.py", original, "@@\n caf\u00e9 = 1\n-na\u00efve = 2\n+na\u00efve = 3\n")
    expected = text.replace("= 2", "= 3").encode(codec)
    if codec == "utf-16-be":
        expected = codecs.BOM_UTF16_BE + expected
    assert result.content == expected


def test_a_legacy_8bit_file_keeps_its_bytes() -> None:
    original = "caf\u00e9\n\u20ac 5\nend\n".encode("cp1252")
    result = apply_patch("t.txt", original, "@@\n caf\u00e9\n-\u20ac 5\n+\u20ac 6\n")
    assert result.content == "caf\u00e9\n\u20ac 6\nend\n".encode("cp1252")


def test_untouched_bytes_are_copied_verbatim() -> None:
    # Odd bytes far from the change (a form feed, a lone CR, trailing spaces) survive unchanged.
    original = b"a = 1\x0c\nb = '\r'  \nc = 3\n\n\nd = 4\ne = 5\n"
    result = apply_patch("t.py", original, "@@\n d = 4\n-e = 5\n+e = 6\n")
    assert result.content == original.replace(b"e = 5", b"e = 6")


def test_large_file_with_many_hunks_applies_every_hunk() -> None:
    """How fast, against git apply, is bench/diff_bench.py's job; here: every hunk lands, none twice."""
    lines = [f"value_{i} = compute({i * 7919 % 10007})" for i in range(20_000)]
    original = ("\n".join(lines) + "\n").encode()
    parts = []
    for at in range(50, 20_000, 200):
        parts.append(f"@@ -{at - 1},5 +{at - 1},5 @@")
        parts += [" " + line for line in lines[at - 2 : at]] + ["-" + lines[at], "+" + lines[at] + "  # x"]
        parts += [" " + line for line in lines[at + 1 : at + 3]]
    diff = "\n".join(parts) + "\n"
    result = apply_patch("big.py", original, diff)
    assert len(result.hunks) == 100
    assert result.added == result.removed == 100
    changed = [line for line in result.content.decode().splitlines() if line.endswith("  # x")]
    assert changed == [lines[at] + "  # x" for at in range(50, 20_000, 200)]
