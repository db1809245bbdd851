"""What a listing hands a writer, when the listing names many places.

`find ../a ../b … | xargs sed -i …` judges the writer once for each place the listing's words may stand for
(below each start outside the project, and in `.git` or `.hazina` where the listing reaches them). The same
start written twice is one place; past a few places, the commands are judged with a place known only at run
time, as where the listing cannot be followed: a writer blocks (fail-closed), a reader stays allowed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from glmagent.guard import Policy


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Two levels below the temp folder: `..` from the project is not scratch space.
    root = tmp_path_factory.mktemp("listing") / "work" / "app"
    root.mkdir(parents=True)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("print(1)\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


def _starts(template: str, count: int) -> str:
    return " ".join(template.format(i) for i in range(count))


@pytest.mark.parametrize("count", [1, 2, 15, 40, 300])
def test_a_writer_fed_from_starts_outside_the_project_blocks(project: Path, count: int) -> None:
    decision = Policy.default().check(
        f"find {_starts('../d{}', count)} | xargs sed -i s/a/b/", "posix", cwd=str(project)
    )
    assert not decision.allowed
    assert decision.rule_id in ("containment.write-outside-project", "containment.write-unknown-target")


@pytest.mark.parametrize("count", [40, 300])
def test_past_a_few_places_the_place_is_unknown(project: Path, count: int) -> None:
    decision = Policy.default().check(
        f"find {_starts('../d{}', count)} | xargs sed -i s/a/b/", "posix", cwd=str(project)
    )
    assert decision.rule_id == "containment.write-unknown-target"
    assert "../d0" in decision.reason


@pytest.mark.parametrize("count", [1, 40, 300])
def test_the_same_start_again_is_one_place(project: Path, count: int) -> None:
    policy = Policy.default()
    once = policy.check("find ../d | xargs sed -i s/a/b/", "posix", cwd=str(project))
    repeated = policy.check(f"find {_starts('../d', count)} | xargs sed -i s/a/b/", "posix", cwd=str(project))
    assert (
        (repeated.allowed, repeated.rule_id)
        == (once.allowed, once.rule_id)
        == (False, "containment.write-outside-project")
    )


@pytest.mark.parametrize(
    "command",
    [
        "find {} | xargs grep -n TODO",  # a reader's place does not matter
        "find {} -name '*.py' | xargs wc -l",
    ],
)
def test_readers_of_many_places_stay_allowed(project: Path, command: str) -> None:
    decision = Policy.default().check(command.format(_starts("../d{}", 40)), "posix", cwd=str(project))
    assert decision.allowed, decision.reason


def test_many_starts_inside_the_project_stay_allowed(project: Path) -> None:
    decision = Policy.default().check(
        f"find {_starts('src/d{}', 40)} | xargs sed -i s/a/b/", "posix", cwd=str(project)
    )
    assert decision.allowed, decision.reason


def test_a_listing_reaching_git_from_many_starts_still_blocks_what_runs_its_files(project: Path) -> None:
    decision = Policy.default().check(
        f"find . {_starts('../d{}', 40)} | xargs bash", "posix", cwd=str(project)
    )
    assert not decision.allowed


def test_without_a_working_directory_many_starts_block_a_writer() -> None:
    decision = Policy.default().check(f"find {_starts('/srv/d{}', 40)} | xargs sed -i s/a/b/", "posix")
    assert not decision.allowed
