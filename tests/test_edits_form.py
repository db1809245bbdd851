"""apply_diff's `edits` form: the change as search/replace line lists, with no markers to parse and no
line-break escapes to write. The same placement, refusals and checks as SEARCH/REPLACE text; the contract
takes exactly one of `edits` and `diff`; the loop applies, remembers and records it."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from conftest import plan
from pydantic import ValidationError

from glmagent.agent import CodingAgent
from glmagent.audit._timeline import _model_change
from glmagent.config import Settings
from glmagent.contract import Action, Edit, InvalidPlannerOutput, edits_as_text, parse_planner_output
from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits, apply_patch
from glmagent.planners.scripted import ScriptedPlanner

STATS = b'def mean(values):\n    """The mean."""\n    return sum(values) / len(values)\n'
FIXED = (
    b'def mean(values):\n    """The mean."""\n    if not values:\n        return 0.0\n'
    b"    return sum(values) / len(values)\n"
)
SEARCH = ["    return sum(values) / len(values)"]
REPLACE = ["    if not values:", "        return 0.0", "    return sum(values) / len(values)"]


def _refused(content: bytes, edits: list[tuple[list[str], list[str]]]) -> PatchRejected:
    with pytest.raises(PatchRejected) as refused:
        apply_edits("stats.py", content, edits)
    return refused.value


# -- applying ------------------------------------------------------------------------------------------------


def test_an_edit_changes_the_one_place_its_search_lines_are() -> None:
    result = apply_edits("stats.py", STATS, [(SEARCH, REPLACE)])

    assert result.content == FIXED
    assert (result.added, result.removed) == (2, 0)


def test_edits_and_the_same_search_replace_text_give_the_same_file() -> None:
    edit = Edit(search=SEARCH, replace=REPLACE)

    assert apply_patch("stats.py", STATS, edits_as_text([edit])).content == FIXED


def test_a_line_that_looks_like_a_marker_is_just_a_line() -> None:
    # In SEARCH/REPLACE text a `=======` line ends the SEARCH part; as a list item it is the file's line.
    content = b"HEADER = '''\n=======\n'''\n"

    result = apply_edits("banner.py", content, [(["======="], ["-------"])])

    assert result.content == b"HEADER = '''\n-------\n'''\n"
    with pytest.raises(PatchRejected):
        apply_patch("banner.py", content, edits_as_text([Edit(search=["======="], replace=["-------"])]))


def test_a_line_break_inside_a_list_item_counts_as_two_lines() -> None:
    # Small models write a few lines as one string now and then: "    if not values:\n        return 0.0".
    replace = ["    if not values:\n        return 0.0", "    return sum(values) / len(values)"]

    assert apply_edits("stats.py", STATS, [(SEARCH, replace)]).content == FIXED


def test_a_line_break_ending_an_item_only_ends_its_line() -> None:
    # The live bench's 1.5B model sent a whole file as `["def read_rows(text):\n", "    rows = []\n", ...]`:
    # read as two lines each, every line got a blank one after it.
    whole = [line + "\n" for line in FIXED.decode().splitlines()]
    replace = ["    if not values:\n", "        return 0.0\n", "    return sum(values) / len(values)\n"]

    assert apply_edits("stats.py", STATS, [([], whole)]).content == FIXED
    assert apply_edits("stats.py", STATS, [([SEARCH[0] + "\n"], replace)]).content == FIXED
    assert apply_edits(
        "stats.py", STATS, [(SEARCH, [*REPLACE[:2], "\n", REPLACE[2]])]
    ).content == FIXED.replace(b"0.0\n", b"0.0\n\n")
    edit = Edit(search=[SEARCH[0] + "\n"], replace=replace)
    assert apply_patch("stats.py", STATS, edits_as_text([edit])).content == FIXED


ORDERS = (
    b"def read_rows(text):\n    rows = []\n    for line in text.splitlines():\n"
    b'        name, quantity = line.split(", ")\n'
    b"        rows.append((name, int(quantity)))\n    return rows\n"
)


def test_a_line_cut_at_a_bare_quote_is_read_whole_where_the_file_has_it() -> None:
    # The live bench's 1.5B model wrote `line.split(", ")` with its quotes bare: the server, holding it to the
    # schema, ended the item at the first `"` and read `)` as the next one. The whole file as it sent it:
    cut = ["def read_rows(text):\n", "    rows = []\n", "    for line in text.splitlines():\n"]
    cut += [
        "        if not line.strip():\n",
        "            continue\n",
        "        name, quantity = line.split(",
    ]
    cut += [")\n", "        rows.append((name, int(quantity)))\n", "    return rows\n"]

    result = apply_edits("orders.py", ORDERS, [([], cut)])

    assert result.content == ORDERS.replace(
        b"        name,", b"        if not line.strip():\n            continue\n        name,"
    )
    assert "replace item 6" in result.hunks[0].notes[0] and 'write it \\"' in result.hunks[0].notes[0]


def test_the_same_cut_on_the_replace_side_is_joined_as_on_the_search_side() -> None:
    search = ["        name, quantity = line.split(", ")"]
    replace = ["        name, quantity = line.split(", ") if line.strip() else ('', 0)"]

    result = apply_edits("orders.py", ORDERS, [(search, replace)])

    assert b"line.split(\", \") if line.strip() else ('', 0)\n" in (result.content or b"")


def test_a_cut_line_at_the_end_of_a_replace_item_of_several_lines_is_joined_too() -> None:
    # A live run's reply: the replace item holds the new guard and, after a line break, the line it was
    # cut in; the search side was joined, the replace side was written as `line.split(` and `)`.
    search = ["    name, quantity = line.split(", ")"]
    replace = ["    if not line.strip(): continue\n    name, quantity = line.split(", ")"]

    result = apply_edits("orders.py", ORDERS, [(search, replace)])

    assert result.content == ORDERS.replace(
        b"        name,", b"        if not line.strip(): continue\n        name,"
    )
    assert "replace item 1" in result.hunks[0].notes[0]


def test_a_cut_line_at_the_start_of_an_item_of_several_lines_is_joined() -> None:
    cut = ["    for line in text.splitlines():\n        name, quantity = line.split("]
    cut += [")\n        rows.append((name, int(quantity)))"]

    result = apply_edits("orders.py", ORDERS, [(cut, [*cut, "    # checked"])])

    assert result.content == ORDERS.replace(b"quantity)))\n", b"quantity)))\n    # checked\n")


@pytest.mark.parametrize(
    ("line", "pieces"),
    [
        ('    return ", ".join(names)', ["    return ", ".join(names)"]),
        ('    return text.split(",")', ["    return text.split(", ")"]),  # no space: the "," separator
        ('    print(", ", ", ")', ["    print(", ", ", ")"]),  # three pieces
    ],
)
def test_every_way_a_bare_quote_cuts_a_line_is_joined(line: str, pieces: list[str]) -> None:
    content = f"def f(names, text):\n{line}\n".encode()

    result = apply_edits("f.py", content, [(pieces, [*pieces, "    # checked"])])

    assert result.content == content + b"    # checked\n"


def test_lines_meant_to_be_separate_stay_separate() -> None:
    # `f(` and `)` joined would not be a line of the file, and a first piece that is the file's own line is
    # never joined to what follows.
    content = b"x = f(\n)\nA = 1\n"

    assert apply_edits("x.py", content, [(["x = f(", ")"], ["x = f(", "    1,", ")"])]).content == (
        b"x = f(\n    1,\n)\nA = 1\n"
    )
    assert apply_edits("n.py", None, [([], ["s = t.split(", ")"])]).content == b"s = t.split(\n)\n"


def test_several_edits_are_applied_together_or_not_at_all() -> None:
    good = (SEARCH, REPLACE)
    stale = (["    return total / count"], ["    return 0"])

    assert _refused(STATS, [good, stale]).reason == "stale_context"
    two = apply_edits("stats.py", STATS, [good, (['    """The mean."""'], ['    """The mean of values."""'])])
    assert two.content == FIXED.replace(b"The mean.", b"The mean of values.")


def test_an_edit_that_changes_nothing_is_left_out_of_the_ones_that_do() -> None:
    # The live bench's model (word_case) listed lines it kept as an edit of its own beside the two that
    # fixed the task; those lines were not quite the file's, and the whole apply_diff was refused.
    kept = (["mean(values)", '"""The mean."""'], ["mean(values)", '"""The mean."""'])

    result = apply_edits("stats.py", STATS, [kept, (SEARCH, REPLACE)])

    assert result.content == FIXED
    assert (
        "edit #1 changes nothing (its search and replace lines are the same): left out"
        in result.hunks[0].notes
    )
    assert _refused(STATS, [kept]).reason == "stale_context"  # alone, it is judged as before


def test_an_empty_search_sends_a_short_file_whole() -> None:
    whole = FIXED.decode().splitlines()

    result = apply_edits("stats.py", STATS, [([], whole)])

    assert result.content == FIXED
    assert "whole file rewritten" in result.hunks[0].notes[0]


def test_an_empty_search_over_no_file_creates_it() -> None:
    result = apply_edits("new.py", None, [([], ["X = 1"])])

    assert (result.action, result.content) == ("create", b"X = 1\n")


def test_an_edit_with_nothing_in_it_is_refused_by_number() -> None:
    refused = _refused(STATS, [(SEARCH, REPLACE), ([], [])])

    assert refused.reason == "unparseable" and "Edit #2 is empty" in str(refused)


def test_search_lines_that_are_not_in_the_file_are_refused_with_the_files_lines() -> None:
    refused = _refused(STATS, [(["    return sum(vals) / len(vals)"], ["    return 0.0"])])

    assert refused.reason == "stale_context"
    assert "return sum(values) / len(values)" in str(refused)


def test_search_lines_copied_with_the_prompts_line_numbers_still_apply() -> None:
    numbered = ['2 |     """The mean."""', "3 |     return sum(values) / len(values)"]
    replace = ['    """The mean."""', *REPLACE]

    result = apply_edits("stats.py", STATS, [(numbered, replace)])

    assert result.content == FIXED
    assert "line numbers" in result.hunks[0].notes[0]


def test_an_edit_that_breaks_python_syntax_is_refused() -> None:
    refused = _refused(STATS, [(SEARCH, ["    return sum(values) / len(values"])])

    assert refused.reason == "syntax_error"


# -- refusals in the terms of edits -------------------------------------------------------------------------

MODULE = (
    b'import os\n\n\ndef mean(values):\n    """Average of values."""\n'
    b"    return sum(values) / len(values)\n\n\n"
    b"def total(values):\n    return sum(values)\n\n\ndef total2(values):\n    return sum(values)\n"
)
MEAN = "    return sum(values) / len(values)"
GUARD = ["    if not values:", "        return 0.0"]
#: Words of diff text a model that sent edits never wrote (`apply_diff`, the tool's name, aside).
DIFF_TERMS = re.compile(
    r"\bhunks?\b|SEARCH|REPLACE|unchanged/removed|' '/'-'|@@|(?<!apply_)\bdiff\b|context line"
)

REFUSALS = {
    "invented lines": [(["the", "cat"], ["The", "cat"])],
    "mistyped line": [([MEAN.replace("values)", "values or 1)")], ["    return 0"])],
    "same on both sides": [(["the", "cat"], ["the", "cat"])],
    "two places match": [(["    return sum(values)"], ["    return 0"])],
    "blank search": [([""], ["x = 1"])],
    "placeholder searched": [(["def mean(values):", "    # ... rest unchanged ...", MEAN], ["x"])],
    "placeholder added": [(["def mean(values):"], ["def mean(values):", "    # ... existing code ..."])],
    "whole file losing lines": [([], ["x = 1"])],
    "broken syntax": [([MEAN], ["    return sum(values) /"])],
    "name left undefined": [(["def mean(values):"], ["def mean(items):"])],
    "lines left out between": [(["def mean(values):", MEAN], ["x = 1"])],
    "one of two edits stale": [([MEAN], ["    return 0"]), (["nope"], ["x"])],
    "overlapping edits": [([MEAN], ["    return 0"]), (['    """Average of values."""', MEAN], ["x"])],
    "swapped halves": [([*GUARD, MEAN], [MEAN])],
}


@pytest.mark.parametrize("edits", REFUSALS.values(), ids=REFUSALS.keys())
def test_a_refused_edit_is_told_in_the_terms_of_edits_not_of_diff_text(edits: list) -> None:
    refused = _refused(MODULE, edits)

    prose = [line for line in str(refused).splitlines() if "|" not in line and not line.startswith("{")]
    assert prose and not [line for line in prose if DIFF_TERMS.search(line)]
    assert "edit" in str(refused).lower()


def test_swapped_halves_are_answered_with_the_edit_to_send_which_then_applies() -> None:
    refused = _refused(MODULE, [([*GUARD, MEAN], [MEAN])])

    assert refused.reason == "already_applied"
    edit = json.loads(refused.suggestion)
    assert edit == {"search": [MEAN], "replace": [*GUARD, MEAN]}
    assert refused.suggestion in str(refused)
    result = apply_edits("stats.py", MODULE, [(edit["search"], edit["replace"])])
    assert result.content is not None and b"return 0.0" in result.content


def test_file_lines_a_refusal_quotes_are_kept_as_the_file_has_them() -> None:
    comment = "# its unchanged/removed lines are a diff's"
    refused = _refused(f"{comment}\nx = 1\ny = 2\n".encode(), [([comment, "x = 2", "y = 2"], ["x = 3"])])

    assert f"1| {comment}" in str(refused)  # the closest region, as the file has it


# -- the contract --------------------------------------------------------------------------------------------


def _reply(action: dict) -> str:
    return json.dumps({"thought": "t", "plan": [], "actions": [action]})


def test_an_apply_diff_with_edits_is_a_valid_reply() -> None:
    edits = [{"search": SEARCH, "replace": REPLACE}]

    [action] = parse_planner_output(
        _reply({"tool": "apply_diff", "path": "stats.py", "edits": edits})
    ).actions

    assert action.edits == [Edit(search=SEARCH, replace=REPLACE)]
    assert action.change_text() == edits_as_text(action.edits)
    assert action.change_text().startswith("<<<<<<< SEARCH\n    return sum")


@pytest.mark.parametrize(
    "fields",
    [
        {},  # neither
        {"diff": "@@\n-a\n+b\n", "edits": [{"search": ["a"], "replace": ["b"]}]},  # both
        {"edits": []},  # no place to change
        {"edits": [{"search": "a", "replace": ["b"]}]},  # a string, not a list of lines
        {"edits": [{"search": ["a"]}]},  # no replace
        {"edits": [{"search": ["a"], "replace": ["b"], "where": 3}]},  # a field that means nothing
    ],
)
def test_apply_diff_takes_exactly_one_well_formed_change(fields: dict) -> None:
    with pytest.raises(InvalidPlannerOutput):
        parse_planner_output(_reply({"tool": "apply_diff", "path": "stats.py", **fields}))
    with pytest.raises(ValidationError):
        Action.model_validate({"tool": "apply_diff", "path": "stats.py", **fields})


# -- the loop ------------------------------------------------------------------------------------------------

CHECK = f"{shlex.quote(sys.executable)} -c 'from stats import mean; assert mean([]) == 0.0'"
FIX = {"tool": "apply_diff", "path": "stats.py", "edits": [{"search": SEARCH, "replace": REPLACE}]}


def _run(tmp_path: Path, replies: list[dict]) -> tuple[Path, bool, list[dict]]:
    project = tmp_path / "stats"
    project.mkdir()
    (project / "stats.py").write_bytes(STATS)
    planner = ScriptedPlanner(replies)
    agent = CodingAgent(planner=planner, settings=Settings(provider="replay", shell="posix", sandbox="none"))
    task = CodingAgent.create_task(
        "mean([]) should return 0.0", project, max_iterations=2, test_command=CHECK, task_id="t"
    )
    result = agent.run(task)
    log = project / ".hazina" / "agent-memory" / "t.jsonl"
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return project, result.success, [r for r in records if r["event"] == "action"]


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_the_loop_applies_edits_and_the_audit_keeps_them(tmp_path: Path) -> None:
    project, success, [record] = _run(tmp_path, [plan(FIX)])

    assert success
    assert (project / "stats.py").read_bytes() == FIXED
    assert record["status"] == "ok"
    assert record["action"]["edits"] == FIX["edits"]
    assert "if not values:" in (_model_change(record["action"]) or "")


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_a_refused_edit_sent_again_unchanged_is_not_run_twice(tmp_path: Path) -> None:
    stale = {"tool": "apply_diff", "path": "stats.py", "edits": [{"search": ["nope"], "replace": ["x"]}]}

    _, success, records = _run(tmp_path, [plan(stale), plan(stale)])

    assert not success
    assert [r["details"].get("reason") for r in records] == ["stale_context", "repeated"]


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_an_edit_that_replaces_lines_by_themselves_is_a_failure_told_in_edits_terms(tmp_path: Path) -> None:
    same = {"tool": "apply_diff", "path": "stats.py", "edits": [{"search": SEARCH, "replace": SEARCH}]}

    project, success, [record] = _run(tmp_path, [plan(same)])

    assert not success and (project / "stats.py").read_bytes() == STATS
    assert record["status"] == "failed"
    assert record["summary"] == "Edit of stats.py not applied: its replace lines equal its search lines"


def test_an_audit_record_with_edits_this_version_did_not_write_is_still_shown() -> None:
    odd = {"tool": "apply_diff", "edits": [{"search": "a"}]}

    assert _model_change(odd) == json.dumps(odd["edits"])
    assert _model_change({"tool": "apply_diff", "diff": "@@\n-a\n+b\n"}) == "@@\n-a\n+b\n"
    assert _model_change({"tool": "run"}) is None
