"""Meaning is never guessed: each rejection reason, and that its message lets a model recover."""

from __future__ import annotations

import re

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_patch

STORAGE = b"""import json


def save_users(users, path):
    data = [u.to_dict() for u in users]
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    return len(data)


def save_orders(orders, path):
    data = [o.to_dict() for o in orders]
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    return len(data)
"""
DUMP_HUNK = """\
     with open(path, "w", encoding="utf-8") as fh:
-        json.dump(data, fh)
+        json.dump(data, fh, indent=2)
     return len(data)
"""


def reject(diff: str, original: bytes | None = STORAGE, path: str = "storage.py") -> PatchRejected:
    with pytest.raises(PatchRejected) as caught:
        apply_patch(path, original, diff)
    return caught.value


# -- unparseable -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("diff", ["", "\n\n", "Please change save_users to indent the JSON.\n", "--- a/x\n"])
def test_text_without_hunks_is_unparseable(diff: str) -> None:
    error = reject(diff)
    assert error.reason == "unparseable"
    assert "@@" in str(error)


def test_a_search_replace_block_whose_lines_occur_twice_is_ambiguous() -> None:
    error = reject("<<<<<<< SEARCH\n        json.dump(data, fh)\n=======\n        pass\n>>>>>>> REPLACE\n")
    assert error.reason == "ambiguous"
    assert "SEARCH/REPLACE" in str(error) and "lines 7 and 14" in str(error)


def test_an_unclosed_search_replace_block_is_unparseable() -> None:
    error = reject("<<<<<<< SEARCH\n        json.dump(data, fh)\n        pass\n>>>>>>> REPLACE\n")
    assert error.reason == "unparseable"
    assert "'======='" in str(error)


def test_a_hunk_line_without_prefix_is_quoted_with_its_line_number() -> None:
    diff = (
        "--- a/storage.py\n+++ b/storage.py\n@@\ndef save_users(users, path):\n-    data = 1\n+    data = 2\n"
    )
    error = reject(diff)
    assert error.reason == "unparseable"
    assert "Line 4 of the diff" in str(error)
    assert "'def save_users(users, path):'" in str(error)


def test_binary_patches_are_unparseable() -> None:
    diff = "diff --git a/logo.png b/logo.png\nGIT binary patch\nliteral 12\nabc\n"
    assert reject(diff, b"\x89PNG", "logo.png").reason == "unparseable"


def test_creating_and_deleting_at_once_is_unparseable() -> None:
    diff = "--- /dev/null\n+++ b/storage.py\n@@\n+x\n--- a/storage.py\n+++ /dev/null\n@@\n-x\n"
    assert reject(diff).reason == "unparseable"


# -- ambiguous -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("header", ["@@", "@@ ... @@", "@@ -0,0 +0,0 @@", "@@ -9,3 +9,3 @@"])
def test_a_hunk_matching_two_places_is_ambiguous(header: str) -> None:
    error = reject(f"{header}\n{DUMP_HUNK}")
    message = str(error)
    assert error.reason == "ambiguous"
    assert "matches 2 places" in message
    assert "lines 6 and 13" in message
    assert "def save_users(users, path):" in message  # shows what precedes each place
    assert "def save_orders(orders, path):" in message
    assert "context" in message


def test_a_matching_line_number_resolves_it() -> None:
    result = apply_patch("storage.py", STORAGE, f"@@ -13,4 +13,4 @@\n{DUMP_HUNK}")
    head, tail = STORAGE.split(b"def save_orders")
    assert result.content == head + b"def save_orders" + tail.replace(b"(data, fh)", b"(data, fh, indent=2)")
    assert result.hunks[0].old_start == 13
    assert "used the one at the header's line 13" in result.hunks[0].notes[0]


def test_a_line_number_does_not_rescue_a_hunk_with_too_little_context() -> None:
    text = b"if a:\n    x()\n}\nif b:\n    y()\n}\n"
    error = reject("@@ -3,1 +3,2 @@\n }\n+// end of a\n", text, "t.js")
    assert error.reason == "ambiguous"
    assert "too few" in str(error)


def test_a_pure_addition_without_context_has_no_anchor() -> None:
    error = reject("@@ -15,0 +16,2 @@\n+\n+VERSION = 2\n")
    assert error.reason == "ambiguous"
    assert "no unchanged or removed lines" in str(error)
    assert "2-3 unchanged lines" in str(error)


def test_a_hunk_whose_unchanged_lines_are_all_blank_is_ambiguous() -> None:
    error = reject("@@\n \n+VERSION = 2\n \n")
    assert error.reason == "ambiguous"
    assert "blank" in str(error)


def test_ignoring_indentation_must_not_make_a_unique_match_out_of_two() -> None:
    text = b"class A:\n    def f(self):\n        return 1\n\nclass B:\n  def f(self):\n    return 1\n"
    error = reject("@@\n def f(self):\n-  return 1\n+  return 2\n", text, "t.py")
    assert error.reason == "ambiguous"
    assert "ignoring indentation" in str(error)
    assert "lines 2 and 6" in str(error)


# -- stale -----------------------------------------------------------------------------------------------


def test_invented_context_is_quoted_and_the_closest_region_shown() -> None:
    diff = (
        "@@ -4,4 +4,4 @@\n def save_users(users, path):\n"
        "     data = [u.to_dict() for u in users if u.active]\n"
        '-    with open(path, "w", encoding="utf-8") as fh:\n+    with open(path, "x") as fh:\n'
    )
    error = reject(diff)
    message = str(error)
    assert error.reason == "stale_context"
    assert "not in the file at all" in message
    assert "'    data = [u.to_dict() for u in users if u.active]'" in message
    assert "closest region of the file is lines 2-" in message
    assert re.search(r"\b5\| +data = \[u\.to_dict\(\) for u in users\]", message)
    assert "Re-read the file" in message


def test_lines_present_but_not_in_that_order_are_stale() -> None:
    diff = "@@\n     return len(data)\n def save_users(users, path):\n-    x = 1\n+    x = 2\n"
    error = reject(diff + "")
    assert error.reason == "stale_context"


BRANCHES = b"""def describe(status):
    if 200 <= status < 300:
        return "success"
    if 400 <= status < 500:
        return "client error"
    return "unknown"
"""


def test_lines_of_the_file_with_lines_left_out_between_them_are_told_so() -> None:
    # A small model lists the lines of a pattern (each `if` of a chain) as though they were one block.
    diff = (
        "<<<<<<< SEARCH\n    if 200 <= status < 300:\n    if 400 <= status < 500:\n=======\n"
        "    if 300 <= status < 400:\n>>>>>>> REPLACE\n"
    )
    message = str(reject(diff, BRANCHES, "status.py"))

    assert "are each in the file (lines 2 and 4), but not one after another" in message
    assert "none left out between them (here line 3)" in message
    assert "Copy every line from 2 to 4" in message
    assert "not there in that order" not in message


def test_lines_missing_from_the_file_are_not_told_as_left_out() -> None:
    diff = "<<<<<<< SEARCH\n    if 200 <= status < 300:\n    if x:\n=======\n    y\n>>>>>>> REPLACE\n"
    message = str(reject(diff, BRANCHES, "status.py"))

    assert "not one after another" not in message and "not in the file at all" in message


def test_editing_an_empty_file_with_context_is_stale() -> None:
    error = reject("@@\n a\n-b\n+c\n", b"", "e.txt")
    assert error.reason == "stale_context"
    assert "empty" in str(error)


def test_a_no_newline_marker_away_from_the_end_of_the_file_is_stale() -> None:
    diff = (
        "@@\n def save_users(users, path):\n-    data = [u.to_dict() for u in users]\n+    data = []\n"
        "\\ No newline at end of file\n"
    )
    error = reject(diff)
    assert error.reason == "stale_context"
    assert "No newline at end of file" in str(error)


# -- already applied -------------------------------------------------------------------------------------


def test_a_diff_whose_new_side_is_present_is_already_applied() -> None:
    applied = STORAGE.replace(
        b"def save_users(users, path):\n    data = [", b"def save_users(users, path):\n    rows = ["
    )
    diff = (
        "@@\n def save_users(users, path):\n-    data = [u.to_dict() for u in users]\n"
        "+    rows = [u.to_dict() for u in users]\n"
    )
    error = reject(diff, applied)
    assert error.reason == "already_applied"
    assert "already applied" in str(error)
    assert "Re-read the file" in str(error)
    assert "at line 4" in str(error)


def test_additions_already_following_their_context_are_already_applied() -> None:
    text = b"import json\nimport os\n\n\ndef f():\n    pass\n"
    error = reject("@@\n import json\n+import os\n", text, "m.py")
    assert error.reason == "already_applied"
    assert "If you really want these lines a second time" in str(error)


def test_a_blank_line_added_next_to_another_is_not_taken_for_a_reapplied_diff() -> None:
    text = b"import os\n\ndef f():\n    pass\n"
    assert apply_patch("m.py", text, "@@\n import os\n+\n").content == b"import os\n\n\ndef f():\n    pass\n"


def test_creating_a_file_that_already_has_that_content_is_already_applied() -> None:
    error = reject("--- /dev/null\n+++ b/n.py\n@@ -0,0 +1 @@\n+x = 1\n", b"x = 1\n", "n.py")
    assert error.reason == "already_applied"


def test_one_applied_hunk_blocks_the_whole_diff_and_says_the_others_matched() -> None:
    applied = STORAGE.replace(b"import json\n", b"import json\nimport os\n")
    diff = f"@@\n import json\n+import os\n \n \n@@ -14,4 +15,4 @@\n{DUMP_HUNK}"
    error = reject(diff, applied)
    assert error.reason == "already_applied"
    assert "other 1 hunk matched, but nothing was applied" in str(error)


# -- placeholders ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "placeholder",
    [
        "    # ... existing code ...",
        "    # ...",
        "    // ... rest unchanged ...",
        "    # rest of the function unchanged",
        "    ...",
        "    /* ... */",
    ],
)
def test_a_placeholder_replacing_real_code_is_refused(placeholder: str) -> None:
    diff = (
        "@@\n def save_users(users, path):\n-    data = [u.to_dict() for u in users]\n"
        f'-    with open(path, "w", encoding="utf-8") as fh:\n+    data = list(users)\n+{placeholder}\n'
    )
    error = reject(diff)
    assert error.reason == "placeholder"
    assert repr(placeholder) in str(error)
    assert "in place of 2 removed lines" in str(error)
    assert "Write every added line in full" in str(error)


def test_a_strong_placeholder_is_refused_even_without_removals() -> None:
    diff = (
        "@@\n def save_users(users, path):\n+    # ... existing code ...\n"
        "     data = [u.to_dict() for u in users]\n"
    )
    assert reject(diff).reason == "placeholder"


def test_a_placeholder_used_as_context_is_named() -> None:
    diff = (
        "@@\n def save_users(users, path):\n     # ... existing code ...\n-    return len(data)\n"
        "+    return data\n"
    )
    error = reject(diff)
    assert error.reason == "placeholder"
    assert "'    # ... existing code ...'" in str(error)
    assert "smaller hunks" in str(error)


def test_a_placeholder_in_a_new_file_is_refused() -> None:
    assert reject(
        "--- /dev/null\n+++ b/n.py\n@@\n+def f():\n+    # ... rest of code ...\n", None, "n.py"
    ).reason == ("placeholder")


def test_python_ellipsis_added_without_dropping_code_is_fine() -> None:
    text = b"class P(Protocol):\n    def f(self) -> int:\n        pass\n"
    diff = "@@\n     def f(self) -> int:\n         pass\n+\n+    def g(self) -> str:\n+        ...\n"
    assert apply_patch("p.py", text, diff).content == text + b"\n    def g(self) -> str:\n        ...\n"


def test_a_placeholder_like_line_the_file_really_has_is_fine() -> None:
    text = b"def f():\n    # ...\n    return 1\n"
    diff = "@@\n def f():\n     # ...\n-    return 1\n+    return 2\n"
    assert apply_patch("f.py", text, diff).content == b"def f():\n    # ...\n    return 2\n"


# -- new file over an existing one, partial delete --------------------------------------------------------


def test_a_new_file_diff_over_an_existing_file_is_refused() -> None:
    error = reject("--- /dev/null\n+++ b/storage.py\n@@ -0,0 +1,2 @@\n+import json\n+x = 1\n")
    assert error.reason == "new_file_exists"
    assert "already exists with 15 lines" in str(error)
    assert "1| import json" in str(error)


def test_an_at_zero_addition_over_an_existing_file_is_refused() -> None:
    assert reject("--- a/storage.py\n+++ b/storage.py\n@@ -0,0 +1,2 @@\n+a\n+b\n").reason == "new_file_exists"


def test_a_deletion_that_does_not_remove_everything_is_refused() -> None:
    error = reject("--- a/storage.py\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-import json\n-\n-\n")
    assert error.reason == "partial_delete"
    assert "removes 3 lines; the file has 15" in str(error)
    assert "4| def save_users(users, path):" in str(error)


def test_a_deletion_whose_lines_differ_from_the_file_is_refused() -> None:
    error = reject("--- a/t.txt\n+++ /dev/null\n@@\n-a\n-c\n", b"a\nb\n", "t.txt")
    assert error.reason == "partial_delete"
    assert "the file has 'b', the diff removes 'c'" in str(error)


def test_a_deletion_that_keeps_lines_is_refused() -> None:
    assert reject("--- a/t.txt\n+++ /dev/null\n@@\n-a\n b\n", b"a\nb\n", "t.txt").reason == "partial_delete"


# -- wrong file, missing file ----------------------------------------------------------------------------


def test_a_diff_for_another_file_is_refused() -> None:
    error = reject(f"--- a/src/orders.py\n+++ b/src/orders.py\n@@\n{DUMP_HUNK}", path="src/storage.py")
    assert error.reason == "wrong_file"
    assert "src/orders.py" in str(error)
    assert "one file per call" in str(error)


def test_a_diff_touching_two_files_is_refused() -> None:
    diff = (
        f"--- a/storage.py\n+++ b/storage.py\n@@ -6,4 +6,4 @@\n{DUMP_HUNK}--- a/other.py\n"
        "+++ b/other.py\n@@\n-x\n+y\n"
    )
    error = reject(diff)
    assert error.reason == "wrong_file"
    assert "other.py" in str(error)


def test_a_rename_is_refused() -> None:
    diff = (
        "diff --git a/storage.py b/store.py\nsimilarity index 100%\nrename from storage.py\n"
        "rename to store.py\n"
    )
    assert reject(diff).reason == "wrong_file"


def test_a_same_basename_in_another_directory_is_another_file() -> None:
    assert reject(
        f"--- a/lib/storage.py\n+++ b/lib/storage.py\n@@\n{DUMP_HUNK}", path="app/storage.py"
    ).reason == ("wrong_file")


def test_editing_a_missing_file_is_refused() -> None:
    error = reject(f"@@\n{DUMP_HUNK}", None)
    assert error.reason == "missing_file"
    assert "/dev/null" in str(error)


def test_deleting_a_missing_file_is_refused() -> None:
    assert reject("--- a/gone.py\n+++ /dev/null\n@@\n-x\n", None, "gone.py").reason == "missing_file"


# -- overlap ---------------------------------------------------------------------------------------------


def test_hunks_changing_the_same_lines_overlap() -> None:
    first = " def save_users(users, path):\n-    data = [u.to_dict() for u in users]\n+    data = []\n"
    second = (
        "-    data = [u.to_dict() for u in users]\n+    data = None\n"
        '     with open(path, "w", encoding="utf-8") as fh:\n         json.dump(data, fh)\n'
        "     return len(data)\n \n \n def save_orders(orders, path):\n"
    )
    error = reject(f"@@\n{first}@@\n{second}")
    assert error.reason == "overlap"
    assert "hunk #1" in str(error) and "hunk #2" in str(error)
    assert "lines 4-5" in str(error)
    assert "Merge them into one hunk" in str(error)


def test_two_hunks_inserting_at_the_same_place_overlap() -> None:
    text = b"a\nb\nc\nd\n"
    error = reject("@@\n a\n b\n+x\n c\n@@\n b\n+y\n c\n d\n", text, "t.txt")
    assert error.reason == "overlap"


# -- indentation -----------------------------------------------------------------------------------------


def test_lines_shifted_by_different_amounts_are_inconsistent() -> None:
    text = b"def f():\n    if x:\n        return 1\n    return 0\n"
    diff = "@@\n  if x:\n         return 1\n+        log()\n  return 0\n"
    error = reject(diff, text, "f.py")
    assert error.reason == "inconsistent_indent"
    assert "diff '        return 1'" not in str(error)  # quoted lines are the differing ones
    assert "diff ' if x:'" in str(error)


def test_an_added_line_shallower_than_the_shift_is_inconsistent() -> None:
    text = b"class A:\n    def f(self):\n        return 1\n"
    # The diff is 8 spaces deeper than the file; an added line at 4 spaces cannot lose 8.
    diff = "@@\n             def f(self):\n-                return 1\n+    return 2\n"
    error = reject(diff, text, "a.py")
    assert error.reason == "inconsistent_indent"
    assert "'    return 2'" in str(error)


def test_a_one_space_shift_means_lost_prefixes_and_is_refused() -> None:
    text = b"class A:\n    def f(self):\n        a = 1\n        return a\n"
    # The model wrote context lines without their ' ' prefix, so they look one space shallower.
    diff = "@@\n    def f(self):\n        a = 1\n+        b = 2\n        return a\n"
    error = reject(diff, text, "f.py")
    assert error.reason == "inconsistent_indent"
    assert "' ' prefix" in str(error)


# -- encoding --------------------------------------------------------------------------------------------


def test_a_binary_file_is_refused() -> None:
    assert reject("@@\n a\n-b\n+c\n", b"a\x00b\n", "blob.bin").reason == "encoding"


def test_a_character_the_files_encoding_cannot_hold_is_refused() -> None:
    text = "caf\u00e9\nbar\n".encode("cp1252")
    error = reject("@@\n caf\u00e9\n-bar\n+\u4e2d\u6587\n", text, "t.txt")
    assert error.reason == "encoding"
    assert "cp1252" in str(error)


def test_a_file_claiming_utf16_that_is_not_is_refused() -> None:
    assert reject("@@\n a\n-b\n+c\n", b"\xff\xfea\x00\x00\xd8", "t.txt").reason == "encoding"


def test_a_brace_only_context_matching_many_places_is_ambiguous() -> None:
    text = b"function a() {\n  x();\n}\n\nfunction b() {\n  y();\n}\n"
    error = reject("@@ -3,1 +3,2 @@\n }\n+// done\n", text, "t.js")
    assert error.reason == "ambiguous"
    assert "lines 3 and 7" in str(error)


def test_new_file_hunks_in_no_clear_order_are_unparseable() -> None:
    error = reject("--- /dev/null\n+++ b/n.txt\n@@\n+a\n@@\n+b\n", None, "n.txt")
    assert error.reason == "unparseable"
    assert "one hunk" in str(error)


def test_a_resent_diff_whose_old_lines_also_fit_a_twin_function_is_already_applied() -> None:
    # The diff was applied to save_users (line 6); sent again, its old lines now only match save_orders.
    applied = STORAGE.replace(b"json.dump(data, fh)\n", b"json.dump(data, fh, indent=2)\n", 1)
    error = reject(f"@@ -6,4 +6,4 @@\n{DUMP_HUNK}", applied)
    assert error.reason == "already_applied"
    assert "already at line 6, where its header points" in str(error)
    assert "also occur at line 13" in str(error)


def test_copying_a_change_from_a_twin_function_is_allowed_when_the_header_points_there() -> None:
    applied = STORAGE.replace(b"json.dump(data, fh)\n", b"json.dump(data, fh, indent=2)\n", 1)
    result = apply_patch("storage.py", applied, f"@@ -13,4 +13,4 @@\n{DUMP_HUNK}")
    assert result.content == STORAGE.replace(b"json.dump(data, fh)\n", b"json.dump(data, fh, indent=2)\n")


# -- swapped halves: the diff it most likely meant, written out ------------------------------------------
# Small models write the code they want under SEARCH and the file's line it belongs next to under REPLACE.
# Nothing is applied; the refusal shows the diff in the right order, indented like the file.
ORDERS = (
    b"def parse(text):\n    rows = []\n    for line in text.splitlines():\n"
    b'        name, qty = line.split(",")\n        rows.append((name, int(qty)))\n    return rows\n'
)
SLUG = b"import re\n\n\ndef slug(title):\n    return re.sub(r'[^a-z0-9]+', '-', title.lower())\n"


def _suggested(message: str) -> str:
    """The diff a refusal tells the model to send."""
    return message.split("send exactly this:\n", 1)[1]


def test_a_guard_written_under_search_is_shown_as_an_addition_before_the_line_under_replace() -> None:
    swapped = (
        "<<<<<<< SEARCH\n    if not line.strip():\n        continue\n=======\n"
        '    name, qty = line.split(",")\n>>>>>>> REPLACE\n'
    )
    error = reject(swapped, ORDERS, "orders.py")
    assert error.reason == "already_applied"
    assert "To add your SEARCH lines before line 4" in str(error)
    fixed = apply_patch("orders.py", ORDERS, _suggested(str(error))).content
    assert fixed is not None and fixed == ORDERS.replace(
        b'        name, qty = line.split(",")\n',
        b'        if not line.strip():\n            continue\n        name, qty = line.split(",")\n',
    )


def test_a_changed_line_written_under_search_is_shown_as_a_change_of_the_line_under_replace() -> None:
    swapped = (
        "<<<<<<< SEARCH\n    return re.sub(r'[^a-z0-9]+', '-', title.lower()).strip('-')\n=======\n"
        "    return re.sub(r'[^a-z0-9]+', '-', title.lower())\n>>>>>>> REPLACE\n"
    )
    error = reject(swapped, SLUG, "slug.py")
    assert "To change line 5 into your SEARCH lines" in str(error)
    fixed = apply_patch("slug.py", SLUG, _suggested(str(error))).content or b""
    assert fixed.endswith(b"title.lower()).strip('-')\n") and fixed.count(b"return") == 1


def test_a_unified_hunk_with_swapped_sides_gets_a_unified_suggestion() -> None:
    swapped = (
        '@@\n-        if not line.strip():\n-            continue\n+        name, qty = line.split(",")\n'
    )
    error = reject(swapped, ORDERS, "orders.py")
    suggestion = _suggested(str(error))
    assert suggestion.startswith("@@\n-")
    assert b"continue" in (apply_patch("orders.py", ORDERS, suggestion).content or b"")


def test_a_hunk_with_unchanged_lines_gets_no_guessed_diff() -> None:
    # its context is the file's: whatever it meant, it is not a simple swap
    diff = (
        "@@\n     for line in text.splitlines():\n-        if not line:\n"
        + '+        name, qty = line.split(",")\n'
    )
    error = reject(diff, ORDERS, "orders.py")
    assert error.reason == "already_applied" and "send exactly this" not in str(error)
