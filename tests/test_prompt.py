"""ContextBuilder: what the planner sees, and that it stays bounded."""

from __future__ import annotations

import json

from glmagent.observation import Observation
from glmagent.prompt import ContextBuilder, LastIteration
from glmagent.testing import TestOutcome


def _build(**overrides: object) -> str:
    arguments: dict[str, object] = {
        "task": "add null checks to parser.py",
        "test_command": "pytest -q",
        "memory_summary": "Iteration 1:\n- Read parser.py (10 lines)\n",
        "last": LastIteration(
            number=1,
            observations=[Observation(tool="run", status="failed", summary="s", output="OUTPUT-MARK")],
        ),
        "tests": TestOutcome(
            command="pytest -q",
            passed=False,
            exit_code=1,
            summary="pytest failed",
            output="E assert",
            duration_s=1,
        ),
        "iteration": 2,
        "max_iterations": 5,
    }
    arguments.update(overrides)
    messages = ContextBuilder().build(**arguments)  # type: ignore[arg-type]
    return "\n".join(m.text() for m in messages)


def test_prompt_has_task_tests_memory_observations_and_schema() -> None:
    text = _build()
    for needle in (
        "add null checks to parser.py",
        "`pytest -q`",
        "Read parser.py (10 lines)",
        "OUTPUT-MARK",
        "Latest test run: FAILED",
        '"anyOf"',
        "apply_diff",
        "Required fields: path, content",
    ):
        assert needle in text


def test_large_observations_are_cut_with_a_note() -> None:
    huge = Observation(tool="run", status="ok", summary="s", output="A" * 100_000)
    text = _build(last=LastIteration(number=1, observations=[huge]))
    assert "characters cut" in text and len(text) < 40_000


def test_old_memory_is_trimmed_at_an_iteration_boundary() -> None:
    summary = "".join(f"Iteration {i}:\n- Ran `step {i}` (exit 0)\n\n" for i in range(1, 500))
    text = _build(memory_summary=summary)
    assert "earlier iterations omitted" in text and "Iteration 499:" in text and "Iteration 1:\n" not in text


def test_only_a_runs_first_prompt_holds_the_example_reply() -> None:
    # Small models stuck on a fix copied the example (its file, its code) into later replies,
    # never into a first one: it teaches the first reply's form and goes after that.
    builder = ContextBuilder()
    common = {
        "task": "fix it",
        "test_command": "pytest -q",
        "memory_summary": "",
        "tests": None,
        "max_iterations": 5,
    }
    first = builder.build(last=None, iteration=1, **common)
    later = builder.build(last=LastIteration(number=1, observations=[]), iteration=2, **common)
    assert "app/greet.py" in first[0].content
    assert "app/greet.py" not in later[0].content and "punctuation" not in later[0].content
    assert first[0].content.startswith(later[0].content.rstrip())  # the rules stay, whole
    assert later[0].schema_text == first[0].schema_text and "must validate" in later[0].text()


def test_the_example_reply_sends_one_definition_and_nothing_a_model_could_copy_above_it() -> None:
    # A preamble in the example (`import logging`, `log = ...`) came back at the top of small models' files.
    import ast

    from glmagent.prompt import _EXAMPLE_REPLY

    system = ContextBuilder().system_prompt("pytest -q")
    example = json.loads(system.split("in JSON:\n", 1)[1].split("\n", 1)[0])
    assert example == _EXAMPLE_REPLY
    [action] = example["actions"]
    body = ast.parse(action["content"]).body
    assert [type(node).__name__ for node in body] == ["FunctionDef"]
    assert '"' in action["content"] and "\\n" not in action["content"]


def test_an_applied_edit_of_a_file_shown_in_full_is_not_followed_by_its_numbered_lines() -> None:
    # Small models copied this numbered, '+'-marked block back as the file's content; the file itself is
    # shown under # Files, so the prompt leaves the block out (a file not shown there keeps it).
    from glmagent.observation import AROUND_CHANGES

    output = (
        "Modified app.py (+1 -0), 1 hunk (exact)\nResulting change:\n--- a/app.py\n+++ b/app.py\n"
        f"@@ -1 +1,2 @@\n x = 1\n+y = 2\n{AROUND_CHANGES}\nlines 1-2:\n1     x = 1\n2 +   y = 2"
    )
    edit = Observation(
        tool="apply_diff",
        status="ok",
        summary="Modified app.py (+1 -0)",
        output=output,
        details={"path": "app.py"},
    )
    last = LastIteration(number=1, observations=[edit])

    shown = _build(last=last, files=[("app.py", "```\nx = 1\ny = 2\n```")])
    not_shown = _build(last=last)

    assert "+y = 2" in shown and "2 +   y = 2" not in shown and AROUND_CHANGES not in shown
    assert "current content is under # Files below" in shown
    assert "2 +   y = 2" in not_shown
