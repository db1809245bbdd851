"""Quote style: in Python and JavaScript/TypeScript a hunk whose lines differ from the file's only by ' vs "
still means those lines; elsewhere the quote is part of the line's meaning and the hunk is refused."""

from __future__ import annotations

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_patch

SETTINGS = b'DEFAULTS = {\n    "retries": 2,\n    "timeout": 3,\n}\n'
SINGLE_QUOTED = "<<<<<<< SEARCH\n    'timeout': 3,\n=======\n    'timeout': 30,\n>>>>>>> REPLACE\n"


@pytest.mark.parametrize("path", ["settings.py", "pkg/settings.pyi", "web/app.js", "web/app.tsx", "APP.PY"])
def test_a_hunk_in_another_quote_style_applies_where_quotes_mean_the_same(path: str) -> None:
    result = apply_patch(path, SETTINGS, SINGLE_QUOTED)
    assert result.content == b"DEFAULTS = {\n    \"retries\": 2,\n    'timeout': 30,\n}\n"
    assert [h.tier for h in result.hunks] == ["quotes"]
    assert "same quote" in " ".join(result.hunks[0].notes)


@pytest.mark.parametrize("path", ["a.c", "a.rb", "a.json", "a.sh", "Makefile", "py"])
def test_where_the_quote_carries_meaning_the_hunk_is_refused(path: str) -> None:
    with pytest.raises(PatchRejected) as caught:
        apply_patch(path, SETTINGS, SINGLE_QUOTED)
    assert caught.value.reason == "stale_context"
    assert "the file has, at line 3" in str(caught.value)


def test_the_files_own_context_lines_are_kept_in_its_quote_style() -> None:
    diff = (
        "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n DEFAULTS = {\n     'retries': 2,\n-    'timeout': 3,\n"
        "+    'timeout': 30,\n"
    )
    result = apply_patch("m.py", SETTINGS, diff)
    assert result.content.splitlines()[1] == b'    "retries": 2,'
    assert result.content.splitlines()[2] == b"    'timeout': 30,"


def test_an_exact_match_is_preferred_over_a_quote_blind_one() -> None:
    src = b"a = 'x'\nb = 1\na = \"x\"\nb = 1\n"
    diff = '<<<<<<< SEARCH\na = "x"\nb = 1\n=======\na = "y"\nb = 1\n>>>>>>> REPLACE\n'
    result = apply_patch("m.py", src, diff)
    assert result.content == b"a = 'x'\nb = 1\na = \"y\"\nb = 1\n"
    assert [h.tier for h in result.hunks] == ["exact"]


def test_two_places_equal_up_to_quotes_are_ambiguous() -> None:
    src = b"a = 'x'\nb = 1\na = 'x'\nb = 2\n"
    diff = '<<<<<<< SEARCH\na = "x"\n=======\na = "y"\n>>>>>>> REPLACE\n'
    with pytest.raises(PatchRejected) as caught:
        apply_patch("m.py", src, diff)
    assert caught.value.reason == "ambiguous"
    assert "quote style" in str(caught.value)


def test_a_change_already_made_in_another_quote_style_is_seen_as_applied() -> None:
    src = b'DEFAULTS = {\n    "retries": 2,\n    "timeout": 30,\n}\n'
    with pytest.raises(PatchRejected) as caught:
        apply_patch("settings.py", src, SINGLE_QUOTED)
    assert caught.value.reason == "already_applied"


def test_a_hunk_that_would_change_nothing_and_matches_nowhere_is_told_both() -> None:
    """The model wrote the code it wants in both halves: the refusal says the halves must differ."""
    src = b"def name(user):\n    return user['first']\n"
    wanted = "    if user['first'] is None:\n        return user['username']\n"
    diff = f"<<<<<<< SEARCH\n{wanted}=======\n{wanted}>>>>>>> REPLACE\n"
    with pytest.raises(PatchRejected) as caught:
        apply_patch("m.py", src, diff)
    assert caught.value.reason == "stale_context"
    assert "would change nothing" in str(caught.value)
    with pytest.raises(PatchRejected) as changing:
        apply_patch("m.py", src, diff.replace("=======\n", "=======\n    pass\n"))
    assert "would change nothing" not in str(changing.value)


def test_a_hunk_with_its_halves_swapped_is_told_so() -> None:
    """Small models put the lines they want in SEARCH and the file's lines in REPLACE: the refusal says
    which half holds what."""
    src = b"def percent(done, total):\n    return round(100 * done / total)\n"
    diff = (
        "<<<<<<< SEARCH\n    if total == 0:\n        return 0\n=======\n"
        "    return round(100 * done / total)\n>>>>>>> REPLACE\n"
    )
    with pytest.raises(PatchRejected) as caught:
        apply_patch("progress.py", src, diff)
    assert caught.value.reason == "already_applied"
    assert "the two halves are swapped" in str(caught.value)
