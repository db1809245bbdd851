"""apply_diff's `content` form: a file's whole new text as one JSON string, the form the prompt teaches
first. Small models write code far better as a file than as search lines recalled from it (the README's
live-model measurements); underneath it is one edit with an empty `search`, so every check of a file sent
whole applies (most lines kept, every definition kept, syntax, names, placeholders), and its refusals speak
of `content`."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import jsonschema
import pytest
from conftest import plan, run_scripted
from pydantic import ValidationError

from glmagent.audit._timeline import _model_change
from glmagent.contract import Action, parse_planner_output
from glmagent.prompt import ContextBuilder
from glmagent.strict_schema import strict_planner_schema
from glmagent.tools.files import apply_diff
from glmagent.workspace import Workspace

STATS = 'def mean(values):\n    """The mean."""\n    return sum(values) / len(values)\n'
FIXED = (
    'def mean(values):\n    """The mean."""\n    if not values:\n        return 0.0\n'
    "    return sum(values) / len(values)\n"
)
SCHEMA = json.loads((Path(__file__).parent.parent / "schemas" / "planner_output.schema.json").read_text())


def _apply(tmp_path: Path, content: str, original: str | None = STATS, name: str = "stats.py"):
    if original is not None:
        (tmp_path / name).write_text(original, encoding="utf-8")
    action = Action(tool="apply_diff", path=name, content=content)
    return apply_diff(
        Workspace(tmp_path), name, action.change_text() or "", edits=action.change_edits(), content=True
    )


# -- the contract and the schemas ------------------------------------------------------------------------


def test_content_is_one_of_the_three_forms_and_only_one() -> None:
    assert Action(tool="apply_diff", path="a.py", content="x = 1\n").change_edits()[0].search == []
    for extra in ({"edits": [{"search": ["a"], "replace": ["b"]}]}, {"diff": "@@\n-a\n+b\n"}):
        with pytest.raises(ValidationError, match="exactly one of content or edits or diff"):
            Action(tool="apply_diff", path="a.py", content="x = 1\n", **extra)
    with pytest.raises(ValidationError, match=r"at least 1"):
        Action(tool="apply_diff", path="a.py", content="")


def test_both_schemas_take_a_content_action_and_refuse_it_beside_another_form() -> None:
    reply = {
        "thought": "t",
        "plan": [],
        "actions": [{"tool": "apply_diff", "path": "a.py", "content": "x\n"}],
    }
    both = {**reply, "actions": [{**reply["actions"][0], "diff": "@@\n-a\n+b\n"}]}
    for schema in (SCHEMA, strict_planner_schema()):
        validator = jsonschema.Draft202012Validator(schema)
        assert validator.is_valid(reply)
        assert not validator.is_valid(both)


def test_the_text_of_a_content_change_is_a_block_with_an_empty_search() -> None:
    action = Action(tool="apply_diff", path="stats.py", content=FIXED)

    assert action.change_text() == "<<<<<<< SEARCH\n=======\n" + FIXED + ">>>>>>> REPLACE\n"
    assert "if not values:" in (_model_change(action.model_dump(mode="json", exclude_none=True)) or "")


def test_the_prompt_teaches_content_first_and_its_example_is_a_valid_reply() -> None:
    system = ContextBuilder().system_prompt("pytest -q")

    assert "Required fields: path, content" in system
    example = system.split('is written \\" in JSON:\n', 1)[1].split("\n", 1)[0]
    [action] = parse_planner_output(example).actions
    assert action.content is not None and action.edits is None and action.diff is None
    # Line breaks and a quote escaped, as the model must write them inside one JSON string.
    assert "\\n" in example and '\\"' in example and '"' in action.content
    assert "edits" in system  # still taught for longer files


# -- applying ------------------------------------------------------------------------------------------------


def test_a_short_file_sent_whole_is_written(tmp_path: Path) -> None:
    observation = _apply(tmp_path, FIXED)

    assert observation.status == "ok", observation.output
    assert (tmp_path / "stats.py").read_text() == FIXED
    assert "+2 -0" in observation.summary


def test_content_with_the_prompts_line_numbers_is_read_without_them(tmp_path: Path) -> None:
    numbered = "\n".join(f"{n} | {line}" for n, line in enumerate(FIXED.splitlines(), 1))

    observation = _apply(tmp_path, numbered)

    assert observation.status == "ok", observation.output
    assert (tmp_path / "stats.py").read_text() == FIXED


def test_a_new_file_is_created_from_content(tmp_path: Path) -> None:
    observation = _apply(tmp_path, "VALUE = 1\n", original=None, name="new.py")

    assert observation.status == "ok", observation.output
    assert (tmp_path / "new.py").read_text() == "VALUE = 1\n"


def test_content_that_drops_a_definition_is_refused_in_content_terms(tmp_path: Path) -> None:
    original = "import math\n\n\n" + STATS + "\n\ndef root(value):\n    return math.sqrt(value)\n"

    observation = _apply(tmp_path, "import math\n\n\n" + FIXED, original=original)

    assert observation.status == "failed"
    assert (tmp_path / "stats.py").read_text() == original
    assert "`content` sends stats.py whole" in observation.output and "root" in observation.output
    assert "search" not in observation.output.lower()


def test_content_holding_one_of_the_files_functions_replaces_only_that_one(tmp_path: Path) -> None:
    other = "\n\ndef total(values):\n    return sum(values)\n"

    observation = _apply(tmp_path, FIXED, original=STATS + other)

    assert observation.status == "ok", observation.output
    assert (tmp_path / "stats.py").read_text() == FIXED + other


def test_content_over_a_long_file_replaces_only_the_function_it_holds(tmp_path: Path) -> None:
    filler = "".join(f"\n\ndef f{n}():\n    return {n}\n" for n in range(60))
    original = STATS + filler

    whole = _apply(tmp_path, FIXED + filler.replace("return 0\n", "return 100\n"), original=original)
    assert whole.status == "failed" and "at most 150 may be sent whole" in whole.output
    assert "`content` sends stats.py whole" in whole.output

    one = _apply(tmp_path, FIXED, original=original)
    assert one.status == "ok", one.output
    assert (tmp_path / "stats.py").read_text() == FIXED + filler


def test_content_that_breaks_the_syntax_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    observation = _apply(tmp_path, FIXED.replace("if not values:", "if not values"))

    assert observation.status == "failed"
    assert observation.details["reason"] == "syntax_error"
    assert (tmp_path / "stats.py").read_text() == STATS
    assert "edit #1" not in observation.output


# -- the loop ------------------------------------------------------------------------------------------------

CHECK = f"{shlex.quote(sys.executable)} -c 'from stats import mean; assert mean([]) == 0.0'"


def _run(tmp_path: Path, replies: list[dict]) -> tuple[Path, bool, list[dict]]:
    project = tmp_path / "stats"
    project.mkdir()
    (project / "stats.py").write_text(STATS)
    result, _planner, records = run_scripted(
        project, replies, test_command=CHECK, description="mean([]) should return 0.0", max_iterations=2
    )
    return project, result.success, [r for r in records if r["event"] == "action"]


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_the_loop_fixes_a_file_sent_whole_and_the_audit_keeps_it(tmp_path: Path) -> None:
    fix = {"tool": "apply_diff", "path": "stats.py", "content": FIXED}

    project, success, [record] = _run(tmp_path, [plan(fix)])

    assert success
    assert (project / "stats.py").read_text() == FIXED
    assert record["action"]["content"] == FIXED


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_content_equal_to_the_file_is_a_failure_told_in_content_terms(tmp_path: Path) -> None:
    same = {"tool": "apply_diff", "path": "stats.py", "content": STATS}

    project, success, [record] = _run(tmp_path, [plan(same)])

    assert not success and (project / "stats.py").read_text() == STATS
    assert record["status"] == "failed"
    assert record["details"]["reason"] == "already_applied"
    told = _apply(tmp_path, STATS).output
    assert "nothing would change, and the fix is still to be made" in told
    assert "already applied" not in told


# -- a class sent with only the methods that change ----------------------------------------------------------

INVENTORY = '''class Inventory:
    """Counts of items in stock."""

    def __init__(self):
        self._counts = {}

    def remove(self, name, count=1):
        self._counts[name] -= count

    def count(self, name):
        return self._counts.get(name, 0)
'''
REMOVE_FIXED = """    def remove(self, name, count=1):
        if name not in self._counts:
            return False
        self._counts[name] -= count
"""


def test_a_class_sent_with_one_method_replaces_that_method_and_keeps_the_rest(tmp_path: Path) -> None:
    # The live bench's inventory_remove: the class line and the one method fixed, sent as the whole file.
    observation = _apply(
        tmp_path, "class Inventory:\n" + REMOVE_FIXED, original=INVENTORY, name="inventory.py"
    )

    assert observation.status == "ok", observation.output
    fixed = INVENTORY.replace(
        "    def remove(self, name, count=1):\n        self._counts[name] -= count\n", REMOVE_FIXED
    )
    assert (tmp_path / "inventory.py").read_text() == fixed
    assert "Inventory with only remove of its methods" in observation.output


def test_a_class_part_indented_otherwise_is_indented_as_the_class_is(tmp_path: Path) -> None:
    two_spaces = "\n".join(line[2:] if line.startswith("  ") else line for line in REMOVE_FIXED.split("\n"))

    observation = _apply(tmp_path, "class Inventory:\n" + two_spaces, original=INVENTORY, name="inventory.py")

    assert observation.status == "ok", observation.output
    assert REMOVE_FIXED in (tmp_path / "inventory.py").read_text()


def test_a_class_part_with_a_method_the_class_lacks_is_not_read_as_a_part(tmp_path: Path) -> None:
    sent = "class Inventory:\n" + REMOVE_FIXED + "\n    def clear(self):\n        self._counts = {}\n"

    observation = _apply(tmp_path, sent, original=INVENTORY, name="inventory.py")

    assert observation.status == "failed"
    assert (tmp_path / "inventory.py").read_text() == INVENTORY
