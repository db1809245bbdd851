"""Where allowlist mode can be set, and what a project's file may do: the user's own files (--policy FILE,
policy.toml in the user's config folder) decide, a project's .hazina/policy.toml can only narrow."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_policy_allowlist import ONLY_GIT as GIT_ONLY

from glmagent.cli import main
from glmagent.config import project_policy_files, resolve_settings, split_policy_files

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


GIT_AND_CAT = (
    GIT_ONLY.replace("git-any", "project-git")
    + """
[[allow]]
id = "project-cat"
commands = ["cat"]
match = ["cat app.py"]
"""
)


def user_folder() -> Path:
    folder = Path(os.environ["GLMAGENT_CONFIG_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def project_policy(project: Path, text: str) -> Path:
    path = project / ".hazina" / "policy.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def check(project: Path, command: str, *extra: str, capsys: pytest.CaptureFixture[str]) -> dict:
    main(["policy", "check", "--json", "-C", str(project), *extra, command])
    return json.loads(capsys.readouterr().out)


def test_policy_toml_in_the_users_config_folder_is_picked_up(project: Path) -> None:
    mine = user_folder() / "policy.toml"
    mine.write_text(GIT_ONLY, encoding="utf-8")
    settings = resolve_settings(project, {}, env={})
    assert settings.policy_files == [mine]
    assert split_policy_files(project, settings.policy_files) == ([mine], [])


def test_project_files_are_told_apart_even_when_a_flag_names_them(project: Path) -> None:
    theirs = project_policy(project, GIT_AND_CAT)
    (project / ".hazina" / "config.toml").write_text('policy_files = ["team.toml"]\n', encoding="utf-8")
    team = project / ".hazina" / "team.toml"
    mine = project.parent / "mine.toml"
    assert project_policy_files(project) == [theirs, team]
    settings = resolve_settings(project, {"policy_files": [mine, Path(str(theirs))]}, env={})
    mine_files, project_files = split_policy_files(project, settings.policy_files)
    assert mine_files == [mine] and sorted(project_files) == sorted([theirs, team])


def test_policy_check_uses_the_users_folder_and_the_project_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(project, "cat app.py", capsys=capsys)["allowed"]
    (user_folder() / "policy.toml").write_text(GIT_ONLY, encoding="utf-8")
    decision = check(project, "cat app.py", capsys=capsys)
    assert decision["rule_id"] == "allowlist.not-allowed" and "your allowlist" in decision["reason"]
    assert check(project, "git status", capsys=capsys)["allowed"]
    # The project lists cat too, but a project's allowlist can only narrow the user's.
    project_policy(project, GIT_AND_CAT)
    assert not check(project, "cat app.py", capsys=capsys)["allowed"]
    assert check(project, "git status", capsys=capsys)["allowed"]


def test_a_project_file_can_switch_allowlist_mode_on(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project_policy(project, GIT_ONLY)
    decision = check(project, "ls", capsys=capsys)
    assert decision["rule_id"] == "allowlist.not-allowed"
    assert "the project's allowlist" in decision["reason"]
    # Naming the project's file with --policy does not make it the user's: it still only narrows.
    mine = project.parent / "mine.toml"
    mine.write_text(GIT_AND_CAT, encoding="utf-8")
    both = ["--policy", str(mine), "--policy", str(project / ".hazina" / "policy.toml")]
    assert not check(project, "cat app.py", *both, capsys=capsys)["allowed"]


def test_act_refuses_an_unlisted_command_and_tells_the_planner_why(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project_policy(project, GIT_ONLY)
    action = json.dumps({"tool": "run", "command": "ls -la"})
    assert main(["act", action, "-C", str(project), "--shell", "posix", "--sandbox", "none"]) == 1
    observation = json.loads(capsys.readouterr().out)
    assert observation["status"] == "rejected"
    assert "allowlist.not-allowed" in observation["output"]
    assert "`ls -la` is not on the project's allowlist" in observation["output"]
    assert "git" in observation["output"]  # the planner learns what it may run instead


def test_policy_files_named_by_a_config_file_count_too(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (user_folder() / "config.toml").write_text('policy_files = ["strict.toml"]\n', encoding="utf-8")
    (user_folder() / "strict.toml").write_text(GIT_ONLY, encoding="utf-8")
    assert check(project, "cat app.py", capsys=capsys)["rule_id"] == "allowlist.not-allowed"
    assert check(project, "git status", capsys=capsys)["allowed"]


def test_policy_check_starts_without_the_settings_machinery(project: Path) -> None:
    (user_folder() / "config.toml").write_text('model = "glm-4.6"\n', encoding="utf-8")
    (user_folder() / "policy.toml").write_text(GIT_ONLY, encoding="utf-8")
    project_policy(project, GIT_AND_CAT)
    code = (
        "import sys; from glmagent.cli import main; "
        f"code = main(['policy', 'check', '-C', {str(project)!r}, 'cat app.py']); "
        "print(code, 'glmagent.config' in sys.modules, 'glmagent.planners' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split()[-3:] == ["1", "False", "False"], run.stdout
