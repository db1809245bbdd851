"""ToolExecutor with real files, real git and real processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from glmagent.contract import Action, ToolName
from glmagent.guard import Policy
from glmagent.tools.executor import ToolExecutor
from glmagent.tools.files import READ_MAX_LINES
from glmagent.tools.shell import PosixShell
from glmagent.workspace import Workspace

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


@pytest.fixture
def executor(project: Path) -> ToolExecutor:
    return ToolExecutor(Workspace(project), PosixShell(), Policy.default(), command_timeout=20)


def act(executor: ToolExecutor, **fields: str) -> object:
    return executor.execute(Action.model_validate(fields))


def test_read_file_numbers_lines(executor: ToolExecutor) -> None:
    observation = act(executor, tool="read_file", path="app.py")
    assert observation.status == "ok" and observation.summary == "Read app.py (2 lines)"
    assert "1 | def greet(name):" in observation.output


def test_read_file_is_capped_with_a_note(executor: ToolExecutor, project: Path) -> None:
    (project / "big.txt").write_text("".join(f"line {i}\n" for i in range(READ_MAX_LINES + 500)))
    observation = act(executor, tool="read_file", path="big.txt")
    assert f"lines {READ_MAX_LINES + 1}-{READ_MAX_LINES + 500}" in observation.output
    assert f"line {READ_MAX_LINES + 10}\n" not in observation.output


@pytest.mark.parametrize("path", ["../outside.txt", "/etc/passwd", "link"])
def test_path_escapes_are_rejected(executor: ToolExecutor, project: Path, path: str) -> None:
    (project.parent / "outside.txt").write_text("secret")
    (project / "link").symlink_to(project.parent / "outside.txt")
    observation = act(executor, tool="read_file", path=path)
    assert observation.status == "rejected" and "outside the working directory" in observation.output
    assert "secret" not in observation.output


def test_missing_and_binary_files_fail_clearly(executor: ToolExecutor, project: Path) -> None:
    (project / "blob.bin").write_bytes(b"\x00\x01\x02")
    assert "no such file" in act(executor, tool="read_file", path="nope.py").summary
    assert "binary" in act(executor, tool="read_file", path="blob.bin").summary


def test_apply_diff_goes_through_the_applier_and_writes_the_file(
    executor: ToolExecutor, project: Path
) -> None:
    diff = (
        "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def greet(name):\n"
        "-    return 'hello ' + name\n+    return f'hello {name}'\n"
    )
    observation = act(executor, tool="apply_diff", path="app.py", diff=diff)
    assert observation.status == "ok" and observation.summary == "Modified app.py (+1 -1)"
    assert (project / "app.py").read_text() == "def greet(name):\n    return f'hello {name}'\n"


def test_apply_diff_that_does_not_match_leaves_the_file_untouched(
    executor: ToolExecutor, project: Path
) -> None:
    before = (project / "app.py").read_bytes()
    diff = "@@ -1,2 +1,2 @@\n def greet(person):\n-    return person\n+    return None\n"
    observation = act(executor, tool="apply_diff", path="app.py", diff=diff)
    assert observation.status == "failed" and "NOT applied" in observation.output
    assert (project / "app.py").read_bytes() == before


def test_apply_diff_refuses_protected_folders(executor: ToolExecutor, project: Path) -> None:
    diff = "--- /dev/null\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+echo pwned\n"
    observation = act(executor, tool="apply_diff", path=".git/hooks/post-checkout", diff=diff)
    assert observation.status == "rejected" and not (project / ".git").exists()


def test_apply_diff_refuses_an_editors_settings(executor: ToolExecutor, project: Path) -> None:
    # VS Code obeys `chat.tools.autoApprove` in a folder's own settings: its agent stops asking.
    (project / ".vscode").mkdir()
    (project / ".vscode" / "settings.json").write_text("{}\n")
    diff = (
        "--- a/.vscode/settings.json\n+++ b/.vscode/settings.json\n@@ -1 +1 @@\n-{}\n"
        '+{ "chat.tools.autoApprove": true }\n'
    )
    observation = act(executor, tool="apply_diff", path=".vscode/settings.json", diff=diff)
    assert observation.status == "rejected" and "settings" in observation.output
    assert (project / ".vscode" / "settings.json").read_text() == "{}\n"


def test_run_reports_exit_code_and_both_streams(executor: ToolExecutor) -> None:
    observation = act(executor, tool="run", command="echo out; echo err >&2; exit 4")
    assert observation.status == "failed" and observation.details["exit_code"] == 4
    assert "--- stdout ---\nout" in observation.output and "--- stderr ---\nerr" in observation.output


def test_blocked_command_never_runs(executor: ToolExecutor, project: Path) -> None:
    observation = act(executor, tool="run", command="touch made; rm -rf app.py")
    assert observation.status == "rejected" and not (project / "made").exists()
    assert (project / "app.py").exists()
    assert observation.details["policy"]["allowed"] is False


class _FaultyPolicy:
    """A policy with a bug: it raises on every command."""

    def check(self, command: str, shell: str, *, cwd: Path | None = None) -> object:
        raise OverflowError("Python int too large to convert to C int")


def test_a_fault_in_the_policy_blocks_the_command_and_keeps_the_run_going(project: Path) -> None:
    executor = ToolExecutor(Workspace(project), PosixShell(), _FaultyPolicy(), command_timeout=20)  # type: ignore[arg-type]
    observation = act(executor, tool="run", command="touch made")
    assert observation.status == "rejected" and not (project / "made").exists()
    assert "policy failed while checking it (OverflowError)" in observation.output
    assert observation.details["policy_fault"].startswith("OverflowError")
    assert act(executor, tool="read_file", path="app.py").status == "ok"  # the executor still works


def test_command_timeout_is_reported(project: Path) -> None:
    executor = ToolExecutor(Workspace(project), PosixShell(), Policy.default(), command_timeout=0.5)
    observation = act(executor, tool="run", command="sleep 20")
    assert observation.status == "failed" and "timed out" in observation.summary


def test_git_tools_in_a_repository(git_project: Path, executor: ToolExecutor) -> None:
    # The executor is made after `git init`: the repository is decided when it is made, never later.
    (git_project / "app.py").write_text("changed\n")
    status = act(executor, tool="git_status")
    assert status.status == "ok" and " M app.py" in status.output
    diff = act(executor, tool="git_diff", path="app.py")
    assert diff.status == "ok" and "+changed" in diff.output


def test_git_tools_outside_a_repository_fail_clearly(executor: ToolExecutor) -> None:
    observation = act(executor, tool="git_status")
    assert observation.status == "failed" and "not a git repository" in observation.output.lower()


def test_hostile_repository_config_cannot_make_git_execute_code(
    executor: ToolExecutor, git_project: Path
) -> None:
    marker = git_project.parent / "pwned"
    for key in ("core.fsmonitor", "diff.external"):
        subprocess.run(["git", "config", key, f"touch {marker}"], cwd=git_project, check=True)
    (git_project / "app.py").write_text("changed\n")
    act(executor, tool="git_status")
    act(executor, tool="git_diff")
    assert not marker.exists()


def test_executor_knows_exactly_five_tools(executor: ToolExecutor) -> None:
    assert set(executor._handlers) == set(ToolName)
