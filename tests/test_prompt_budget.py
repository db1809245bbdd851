"""What the model sees: a project map in the first prompt (capped, with a count of what was left out) and a
whole prompt that stays within its token budget, however large the parts grow."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.agent import CodingAgent
from glmagent.observation import Observation
from glmagent.planners import ScriptedPlanner
from glmagent.project_map import project_map
from glmagent.prompt import (
    PROMPT_BUDGET_TOKENS,
    ContextBuilder,
    LastIteration,
    _cap,
    _without_example,
    estimate_tokens,
    prompt_tokens,
)
from glmagent.testing import TestOutcome

# -- the project map ----------------------------------------------------------------------------------------


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@e.invalid", *args], cwd=root, check=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path / "repo"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "README.md").write_text("r\n")
    (root / "src" / "pkg" / "core.py").write_text("x = 1\n")
    (root / ".gitignore").write_text("build/\n*.log\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "init")
    (root / "new_module.py").write_text("y = 2\n")  # untracked, not ignored: the model should see it
    (root / "debug.log").write_text("noise\n")  # ignored
    (root / "build").mkdir()
    (root / "build" / "out.bin").write_text("b\n")
    (root / ".hazina").mkdir()
    (root / ".hazina" / "config.toml").write_text("\n")
    return root


def test_in_a_repository_the_map_lists_tracked_and_unignored_files(repo: Path) -> None:
    assert project_map(repo).splitlines() == [".gitignore", "README.md", "new_module.py", "src/pkg/core.py"]


def test_outside_git_a_walk_skips_hidden_and_generated_folders(tmp_path: Path) -> None:
    for name in (
        "a.py",
        "lib/b.py",
        "node_modules/x/index.js",
        ".venv/bin/python",
        ".hazina/c",
        "__pycache__/a.pyc",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert project_map(tmp_path).splitlines() == ["a.py", "lib/b.py"]
    assert project_map(tmp_path / "lib").splitlines() == ["b.py"]


def test_an_empty_project_says_so(tmp_path: Path) -> None:
    assert project_map(tmp_path) == "(no files yet)"


def test_a_large_project_shows_the_shallowest_files_and_counts_the_rest(tmp_path: Path) -> None:
    for index in range(300):
        (tmp_path / "deep" / "er" / f"mod_{index:03}.py").parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "deep" / "er" / f"mod_{index:03}.py").write_text("")
    for name in ("setup.py", "README.md", "src/main.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")

    text = project_map(tmp_path, limit=50)
    lines = text.splitlines()

    assert {"README.md", "setup.py", "src/main.py"} <= set(lines)
    assert lines[-1] == "(253 more files not shown)" and len(lines) == 51
    assert lines[:-1] == sorted(lines[:-1])

    small = project_map(tmp_path, limit=1000, max_chars=600)
    assert len(small) <= 600
    shown = len(small.splitlines()) - 1
    assert small.splitlines()[-1] == f"({303 - shown:,} more files not shown)"


def test_a_walk_cut_short_says_at_least(tmp_path: Path) -> None:
    for index in range(60):
        (tmp_path / f"f{index:02}.txt").write_text("")
    assert project_map(tmp_path, limit=5).splitlines()[-1].startswith("(at least ")


def test_the_first_prompt_carries_the_map_and_later_ones_do_not(repo: Path) -> None:
    planner = ScriptedPlanner([{"thought": "t", "plan": [], "actions": [{"tool": "git_status"}]}])
    task = CodingAgent.create_task("look around", repo, max_iterations=2)
    CodingAgent(planner=planner).run(task)

    first, second = (request[1].content for request in planner.requests)
    assert "# Project files" in first and "src/pkg/core.py" in first and "new_module.py" in first
    assert "debug.log" not in first and ".hazina/config.toml" not in first
    assert "# Project files" not in second


# -- the prompt budget --------------------------------------------------------------------------------------


def _huge_prompt(builder: ContextBuilder, size: int, char: str = "x", *, first: bool = False) -> list:
    """A prompt whose every part is `size` characters; `first`: of a run's first iteration (with the example
    reply in the rules)."""
    return builder.build(
        task="fix it " + char * size,
        test_command="pytest -q",
        memory_summary="".join(f"Iteration {i}:\n- {char * 200}\n\n" for i in range(size // 200)),
        last=None
        if first
        else LastIteration(
            number=3,
            observations=[
                Observation(tool="run", status="ok", summary="s", output=char * size) for _ in range(5)
            ],
        ),
        tests=TestOutcome(
            command="pytest", passed=False, exit_code=1, summary="f", output=char * size, duration_s=1
        ),
        iteration=4,
        max_iterations=5,
        project_map="\n".join(f"src/{char * 20}_{i}.py" for i in range(size // 25)),
    )


@pytest.mark.parametrize("char", ["x", "é", "文", "😀"])
@pytest.mark.parametrize("budget", [4_000, PROMPT_BUDGET_TOKENS, 50_000])
def test_the_whole_prompt_stays_within_its_token_budget_however_large_the_parts(
    budget: int, char: str
) -> None:
    builder = ContextBuilder(prompt_budget=budget)

    messages = _huge_prompt(builder, 200_000, char)

    assert prompt_tokens(messages) <= budget
    user = messages[1].content
    assert user.startswith("# Task\nfix it") and user.endswith("Reply with one JSON object.")
    assert "characters cut" in user
    # the rules stay whole (a later iteration's: without the example reply)
    assert messages[0].content == _without_example(builder.system_prompt("pytest -q"))

    retry = builder.retry(messages, "not json " + char * 50_000, "no JSON object found")
    assert prompt_tokens(retry) <= budget
    assert retry[-1].content.startswith("Your reply was rejected: no JSON object found")


def test_a_small_prompt_is_left_alone() -> None:
    messages = _huge_prompt(ContextBuilder(), 1_000)
    assert "characters cut" not in messages[1].content
    assert prompt_tokens(messages) < 5_500


def test_shrinking_after_a_context_error_keeps_about_a_quarter() -> None:
    builder = ContextBuilder(prompt_budget=50_000)
    messages = _huge_prompt(builder, 200_000, first=True)
    shrunk = builder.shrink(messages)
    # The rules and the schema stay whole; only the example reply goes.
    rules = messages[0].content.split("An example reply", 1)[0]
    assert shrunk[0].content.rstrip() == rules.rstrip()
    assert shrunk[0].schema_text == messages[0].schema_text and "must validate" in shrunk[0].schema_text
    assert "An example reply" in messages[0].content and "An example reply" not in shrunk[0].content
    assert estimate_tokens(shrunk[1].content) <= estimate_tokens(messages[1].content) // 4
    assert shrunk[1].content.startswith("# Task")


def test_the_token_estimate_is_on_the_high_side() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abc") == 1 and estimate_tokens("abcd") == 2
    assert estimate_tokens("文字") == 2 and estimate_tokens("a😀") == 2
    code = "def greet(name):\n    return 'hello ' + name\n"
    assert estimate_tokens(code) >= len(code) / 4


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=3000), st.integers(64, 4000), st.booleans())
def test_cut_text_never_exceeds_its_limit_and_keeps_both_ends(text: str, limit: int, tail: bool) -> None:
    capped = _cap(text, limit, tail=tail)
    assert len(capped) <= max(limit, 0) or capped == text
    if len(text) <= limit:
        assert capped == text
    else:
        assert "characters cut" in capped
        keep = capped.split("characters cut ...]")[-1][1:]
        assert text.endswith(keep)
        if not tail:
            assert text.startswith(capped.split("\n[... ")[0])
