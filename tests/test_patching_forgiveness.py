"""Form is forgiven: each rule that lets an imperfect but clear diff apply."""

from __future__ import annotations

import pytest

from glmagent.patching import apply_patch

APP = """\
import os
import sys


def load(path):
    with open(path) as fh:
        return fh.read()


def save(path, text):
    with open(path, "w") as fh:
        fh.write(text)


def main():
    data = load(sys.argv[1])
    save(sys.argv[2], data.upper())
"""
APP_BYTES = APP.encode()
LOAD_HUNK = """\
 def load(path):
-    with open(path) as fh:
+    with open(path, encoding="utf-8") as fh:
         return fh.read()
"""
LOAD_RESULT = APP.replace("open(path) as fh", 'open(path, encoding="utf-8") as fh').encode()


def apply(diff: str, original: bytes | None = APP_BYTES, path: str = "app.py") -> bytes | None:
    return apply_patch(path, original, diff).content


# -- hunk headers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "@@ -5,3 +5,3 @@",  # correct
        "@@ -50,3 +50,3 @@",  # wrong numbers
        "@@ -5,9 +5,1 @@",  # wrong counts
        "@@ -5 +5 @@",  # counts omitted
        "@@",
        "@@ ... @@",
        "@@ -0,0 +0,0 @@",
        "@@ -5,3 +5,3 @@ def load(path):",  # section heading after the range
    ],
)
def test_hunk_header_numbers_and_counts_are_only_hints(header: str) -> None:
    assert apply(f"--- a/app.py\n+++ b/app.py\n{header}\n{LOAD_HUNK}") == LOAD_RESULT


def test_file_headers_are_optional() -> None:
    assert apply(f"@@\n{LOAD_HUNK}") == LOAD_RESULT


def test_a_hunk_without_an_at_line_after_file_headers() -> None:
    assert apply(f"--- a/app.py\n+++ b/app.py\n{LOAD_HUNK}") == LOAD_RESULT


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ("a/src/app.py", "b/src/app.py", "src/app.py"),
        ("src/app.py", "src/app.py", "src/app.py"),
        ("app.py (original)", "app.py (modified)", "src/app.py"),
        (
            "a/src/app.py\t2024-05-01 10:00:00.000 +0200",
            "b/src/app.py\t2024-05-01 10:01:00.000 +0200",
            "src/app.py",
        ),
        ("src/app.py 2024-05-01 10:00:00", "src/app.py 2024-05-01 10:01:00", "src/app.py"),
        ("a/app.py", "b/app.py", "pkg/src/app.py"),  # header is a path suffix of the target
        ("/home/me/project/src/app.py", "/home/me/project/src/app.py", "src/app.py"),  # target is a suffix
        ('"a/src/app.py"', '"b/src/app.py"', "src/app.py"),
        ("./src/app.py", "./src/app.py", "./src/app.py"),
    ],
)
def test_header_spellings_that_name_the_target(old: str, new: str, path: str) -> None:
    diff = f"--- {old}\n+++ {new}\n@@\n{LOAD_HUNK}"
    assert apply(diff, path=path) == LOAD_RESULT


def test_git_extended_headers_are_accepted() -> None:
    diff = (
        "diff --git a/app.py b/app.py\nindex 3b18e51..a9c1f2e 100644\n--- a/app.py\n+++ b/app.py\n@@\n"
        f"{LOAD_HUNK}"
    )
    assert apply(diff) == LOAD_RESULT


# -- surrounding text ------------------------------------------------------------------------------------


def test_fenced_diff_with_prose_around_it() -> None:
    diff = (
        "Sure, here is the fix.\n\n```diff\n--- a/app.py\n+++ b/app.py\n@@ -5,3 +5,3 @@\n"
        f"{LOAD_HUNK}```\n\n- it now reads UTF-8\n- nothing else changes\n"
    )
    assert apply(diff) == LOAD_RESULT


def test_two_fenced_blocks_for_the_same_file_are_merged() -> None:
    save_hunk = (
        ' def save(path, text):\n-    with open(path, "w") as fh:\n'
        '+    with open(path, "w", encoding="utf-8") as fh:\n'
    )
    diff = f"First:\n```diff\n@@\n{LOAD_HUNK}```\nThen:\n```diff\n@@\n{save_hunk}```\n"
    expected = LOAD_RESULT.replace(b'"w") as fh', b'"w", encoding="utf-8") as fh')
    assert apply(diff) == expected


def test_prose_after_an_unfenced_diff_ends_the_hunk() -> None:
    assert apply(f"@@\n{LOAD_HUNK}That is all.\n") == LOAD_RESULT


def test_a_fence_inside_the_patched_content_is_not_a_delimiter() -> None:
    readme = b"# Title\n\n```python\nprint(1)\n```\n\nEnd.\n"
    diff = "```diff\n@@\n ```python\n-print(1)\n+print(2)\n ```\n```\n"
    assert apply(diff, readme, "README.md") == readme.replace(b"print(1)", b"print(2)")


# -- blank lines and line endings ------------------------------------------------------------------------


def test_an_empty_line_inside_a_hunk_is_blank_context() -> None:
    diff = (
        '@@\n         return fh.read()\n\n\n def save(path, text):\n-    with open(path, "w") as fh:\n'
        '+    with open(path, "x") as fh:\n'
    )
    assert apply(diff) == APP_BYTES.replace(b'"w") as fh', b'"x") as fh')


def test_empty_lines_after_the_last_hunk_line_are_not_context() -> None:
    # Had they been taken as context, the hunk would need blank lines after `return fh.read()` x2.
    diff = f"@@\n{LOAD_HUNK}\n\n\n\n"
    assert apply(diff) == LOAD_RESULT


def test_trailing_empty_lines_are_context_when_the_counts_say_so() -> None:
    text = b"a\nb\n\n\nc\nb\n\nd\n"
    # Only "b" followed by two blank lines identifies line 2; the header counts (3 old, 3 new) vouch for them.
    diff = "@@ -2,3 +2,3 @@\n-b\n+B\n\n\n"
    assert apply(diff, text, "t.txt") == b"a\nB\n\n\nc\nb\n\nd\n"


def test_crlf_diff_on_lf_file_keeps_lf() -> None:
    diff = f"--- a/app.py\n+++ b/app.py\n@@\n{LOAD_HUNK}".replace("\n", "\r\n")
    assert apply(diff) == LOAD_RESULT


def test_lf_diff_on_crlf_file_keeps_crlf() -> None:
    original = APP_BYTES.replace(b"\n", b"\r\n")
    assert apply(f"@@\n{LOAD_HUNK}", original) == LOAD_RESULT.replace(b"\n", b"\r\n")


def test_mixed_line_endings_are_kept_per_line_and_new_lines_take_the_majority() -> None:
    original = b"one\r\ntwo\nthree\r\nfour\r\n"
    diff = "@@\n one\n two\n+two and a half\n three\n"
    assert apply(diff, original, "t.txt") == b"one\r\ntwo\ntwo and a half\r\nthree\r\nfour\r\n"


# -- several hunks ---------------------------------------------------------------------------------------

SAVE_HUNK = """\
 def save(path, text):
     with open(path, "w") as fh:
-        fh.write(text)
+        fh.write(text.rstrip() + "\\n")
"""
BOTH_RESULT = LOAD_RESULT.replace(b"fh.write(text)", b'fh.write(text.rstrip() + "\\n")')


def test_hunks_out_of_order() -> None:
    assert apply(f"@@ -10,4 +10,4 @@\n{SAVE_HUNK}@@ -5,3 +5,3 @@\n{LOAD_HUNK}") == BOTH_RESULT


def test_a_duplicated_hunk_is_applied_once_and_noted() -> None:
    result = apply_patch("app.py", APP_BYTES, f"@@\n{LOAD_HUNK}@@\n{SAVE_HUNK}@@\n{LOAD_HUNK}")
    assert result.content == BOTH_RESULT
    assert [h.index for h in result.hunks] == [1, 2]
    assert "duplicate hunk #3 dropped" in result.hunks[0].notes


def test_sections_for_the_same_file_are_merged() -> None:
    diff = f"--- a/app.py\n+++ b/app.py\n@@\n{LOAD_HUNK}--- a/app.py\n+++ b/app.py\n@@\n{SAVE_HUNK}"
    assert apply(diff) == BOTH_RESULT


def test_hunks_sharing_unchanged_lines_are_merged() -> None:
    first = (
        ' def save(path, text):\n-    with open(path, "w") as fh:\n+    with open(path, "a") as fh:\n'
        "         fh.write(text)\n"
    )
    second = (
        "         fh.write(text)\n \n \n def main():\n-    data = load(sys.argv[1])\n"
        "+    data = load(sys.argv[-1])\n"
    )
    expected = APP_BYTES.replace(b'"w") as fh', b'"a") as fh').replace(b"argv[1]", b"argv[-1]")
    assert apply(f"@@\n{first}@@\n{second}") == expected


def test_identical_hunks_for_two_places_apply_to_both_when_their_line_numbers_say_so() -> None:
    text = b"def a():\n    x = 1\n    return x\n\n\ndef b():\n    x = 1\n    return x\n"
    hunk = "-    x = 1\n+    x = 2\n     return x\n"
    result = apply_patch("t.py", text, f"@@ -2,2 +2,2 @@\n{hunk}@@ -7,2 +7,2 @@\n{hunk}")
    assert result.content == text.replace(b"x = 1", b"x = 2")


# -- whitespace and punctuation tiers --------------------------------------------------------------------


def test_trailing_whitespace_drift_keeps_the_files_own_context_lines() -> None:
    original = APP_BYTES.replace(b"def load(path):\n", b"def load(path):   \n")
    result = apply_patch("app.py", original, f"@@\n{LOAD_HUNK}")
    assert result.content == LOAD_RESULT.replace(b"def load(path):\n", b"def load(path):   \n")
    assert result.hunks[0].tier == "trailing_ws"


def test_trailing_whitespace_in_the_diff_is_forgiven() -> None:
    diff = (
        "@@\n def load(path):  \n-    with open(path) as fh:\t\n"
        '+    with open(path, encoding="utf-8") as fh:\n'
    )
    assert apply(diff) == LOAD_RESULT


def test_typographic_quotes_in_the_diff_match_ascii_and_are_undone_in_added_lines() -> None:
    original = b"greeting = 'hello'\nprint(greeting)\nname = \"world\"\n"
    diff = "@@\n greeting = \u2018hello\u2019\n-print(greeting)\n+print(greeting, \u2018\u2014\u2019)\n"
    result = apply_patch("t.py", original, diff)
    # The quotes were seen standing in for ASCII ones; the dash was not, so it stays as written.
    assert result.content == "greeting = 'hello'\nprint(greeting, '\u2014')\nname = \"world\"\n".encode()
    assert result.hunks[0].tier == "unicode"


def test_typographic_characters_that_are_the_files_own_are_kept() -> None:
    original = "title = \u201cQuotes\u201d\nbody = 'x'\n".encode()
    diff = "@@\n title = \u201cQuotes\u201d\n-body = 'x'\n+body = \u201cy\u201d\n"
    assert apply(diff, original, "t.py") == "title = \u201cQuotes\u201d\nbody = \u201cy\u201d\n".encode()


def test_nbsp_in_the_diff_matches_a_space() -> None:
    original = b"a = 1\nb = 2\n"
    diff = "@@\n a\u00a0= 1\n-b = 2\n+b = 3\n"
    assert apply(diff, original, "t.py") == b"a = 1\nb = 3\n"


# -- indentation -----------------------------------------------------------------------------------------


def test_yaml_written_shallower_gets_the_files_depth() -> None:
    original = b"services:\n  web:\n    environment:\n      LEVEL: info\n    ports:\n      - 80\n"
    diff = "@@\n   environment:\n     LEVEL: info\n+    DEBUG: 'false'\n   ports:\n"
    result = apply_patch("c.yml", original, diff)
    assert result.content == original.replace(b"LEVEL: info\n", b"LEVEL: info\n      DEBUG: 'false'\n")
    assert result.hunks[0].tier == "indent"
    assert "2 spaces deeper" in result.hunks[0].notes[0]


def test_python_written_deeper_loses_the_extra_depth() -> None:
    original = b"def f(x):\n    if x:\n        return 1\n    return 0\n"
    diff = "@@\n         if x:\n-            return 1\n+            return 2\n         return 0\n"
    assert apply(diff, original, "t.py") == original.replace(b"return 1", b"return 2")


def test_go_written_with_spaces_keeps_tabs() -> None:
    original = b"func main() {\n\tx := 1\n\tif x > 0 {\n\t\tprintln(x)\n\t}\n}\n"
    diff = "@@\n     if x > 0 {\n         println(x)\n+        println(x + 1)\n     }\n"
    expected = original.replace(b"\t\tprintln(x)\n", b"\t\tprintln(x)\n\t\tprintln(x + 1)\n")
    assert apply(diff, original, "main.go") == expected


def test_makefile_recipe_keeps_its_tab() -> None:
    original = b"build:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n"
    diff = "@@\n test:\n-    go test ./...\n+    go test -race ./...\n"
    assert apply(diff, original, "Makefile") == original.replace(b"\tgo test ./...", b"\tgo test -race ./...")


def test_tabs_in_the_diff_become_the_files_spaces() -> None:
    original = b"def f():\n    a = 1\n    if a:\n        b = 2\n"
    diff = "@@\n \tif a:\n-\t\tb = 2\n+\t\tb = 3\n+\t\tc = 4\n"
    assert apply(diff, original, "t.py") == b"def f():\n    a = 1\n    if a:\n        b = 3\n        c = 4\n"


# -- one skipped context line ----------------------------------------------------------------------------


def test_one_line_left_out_of_the_leading_context_is_kept() -> None:
    original = (
        b"class A:\n    def add(self, x):\n        # guard\n        if x:\n            raise ValueError\n"
        b"        self.x = x\n"
    )
    diff = (
        "@@\n     def add(self, x):\n         if x:\n-            raise ValueError\n"
        "+            raise TypeError\n         self.x = x\n"
    )
    result = apply_patch("a.py", original, diff)
    assert result.content == original.replace(b"ValueError", b"TypeError")
    assert "skipped context line 3" in result.hunks[0].notes[0]


def test_one_line_left_out_of_the_trailing_context_is_kept() -> None:
    original = b"def f():\n    a = 1\n    b = 2\n    # note\n    c = 3\n    return a\n"
    diff = "@@\n def f():\n-    a = 1\n+    a = 10\n     b = 2\n     c = 3\n"
    assert apply(diff, original, "f.py") == original.replace(b"a = 1\n", b"a = 10\n")


# -- final newline ---------------------------------------------------------------------------------------


def test_a_missing_final_newline_is_preserved_when_the_diff_does_not_mention_it() -> None:
    assert apply("@@\n a\n-b\n+B\n", b"a\nb", "t.txt") == b"a\nB"


def test_adding_after_a_last_line_without_newline() -> None:
    assert apply("@@\n a\n b\n+c\n", b"a\nb", "t.txt") == b"a\nb\nc"


def test_markers_on_both_sides_keep_the_missing_final_newline() -> None:
    diff = "@@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n\\ No newline at end of file\n"
    assert apply(diff, b"a\nb", "t.txt") == b"a\nb\nc"


def test_removing_the_marker_adds_the_final_newline() -> None:
    assert apply("@@\n a\n-b\n\\ No newline at end of file\n+b\n", b"a\nb", "t.txt") == b"a\nb\n"


def test_adding_the_marker_removes_the_final_newline() -> None:
    assert apply("@@\n a\n-b\n+b\n\\ No newline at end of file\n", b"a\nb\n", "t.txt") == b"a\nb"


def test_removing_the_last_lines_of_a_file_without_final_newline() -> None:
    assert apply("@@\n a\n-b\n-c\n", b"a\nb\nc", "t.txt") == b"a"


# -- create and delete -----------------------------------------------------------------------------------


def test_create_with_dev_null() -> None:
    result = apply_patch("new.py", None, "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n")
    assert (result.action, result.content, result.added) == ("create", b"x = 1\ny = 2\n", 2)


def test_create_without_dev_null_when_the_file_is_missing_and_only_lines_are_added() -> None:
    result = apply_patch("new.py", None, "--- a/new.py\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+x = 1\n+\n+y = 2\n")
    assert result.content == b"x = 1\n\ny = 2\n"


def test_create_with_git_new_file_mode_and_no_final_newline() -> None:
    diff = (
        "diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n"
        "+hi\n\\ No newline at end of file\n"
    )
    assert apply(diff, None, "n.txt") == b"hi"


def test_create_where_a_blank_line_lost_its_plus() -> None:
    assert apply("--- /dev/null\n+++ b/n.py\n@@\n+a = 1\n\n+b = 2\n", None, "n.py") == b"a = 1\n\nb = 2\n"


def test_create_over_an_existing_empty_file() -> None:
    result = apply_patch("n.py", b"", "--- /dev/null\n+++ b/n.py\n@@\n+a = 1\n")
    assert (result.action, result.content) == ("modify", b"a = 1\n")


def test_create_an_empty_file() -> None:
    result = apply_patch("empty.txt", None, "--- /dev/null\n+++ b/empty.txt\n")
    assert (result.action, result.content) == ("create", b"")


def test_delete_when_every_line_is_removed() -> None:
    diff = "--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a = 1\n-b = 2\n"
    result = apply_patch("old.py", b"a = 1\nb = 2\n", diff)
    assert (result.action, result.content, result.removed) == ("delete", None, 2)
    assert result.summary() == "Deleted old.py (-2)"


def test_delete_forgives_trailing_blank_lines_left_out() -> None:
    diff = "--- a/old.py\n+++ /dev/null\n@@\n-a = 1\n-b = 2\n"
    assert apply_patch("old.py", b"a = 1\nb = 2\n\n\n", diff).action == "delete"


def test_removing_every_line_without_dev_null_empties_the_file() -> None:
    result = apply_patch("old.py", b"a = 1\nb = 2\n", "--- a/old.py\n+++ b/old.py\n@@\n-a = 1\n-b = 2\n")
    assert (result.action, result.content) == ("modify", b"")


def test_a_classic_mac_diff_with_cr_line_ends() -> None:
    assert apply(f"@@\n{LOAD_HUNK}".replace("\n", "\r")) == LOAD_RESULT


def test_a_new_file_in_two_hunks_joined_by_their_line_numbers() -> None:
    diff = "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +3,1 @@\n+c\n@@ -0,0 +1,2 @@\n+a\n+b\n"
    assert apply(diff, None, "n.txt") == b"a\nb\nc\n"


def test_short_context_applies_when_it_is_unique() -> None:
    text = b"package main\n\nfunc main() {\n}\n"
    assert apply("@@\n func main() {\n+\tprintln(1)\n }\n", text, "m.go") == text.replace(
        b"{\n}", b"{\n\tprintln(1)\n}"
    )
