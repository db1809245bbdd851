"""`git_status` and `git_diff`, through the git CLI with repository-controlled hooks switched off."""

from __future__ import annotations

import subprocess
from pathlib import Path

from glmagent.tools.shell import child_environment

# A repository the agent is pointed at may be hostile: its config could name an fsmonitor hook, an external
# diff driver or a textconv filter, each of which git would execute. These switches keep git read-only.
_SAFE_GIT = ("git", "-c", "core.fsmonitor=false", "-c", "core.quotepath=off", "-c", "color.ui=false")


class GitResult:
    """Exit code and output of one git invocation."""

    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr


def run_git(root: Path, *args: str, timeout: float = 60.0) -> GitResult:
    """Run one git command in `root` with a scrubbed environment."""
    try:
        done = subprocess.run(
            [*_SAFE_GIT, *args],
            cwd=root,
            env=child_environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError:
        return GitResult(127, "", "git is not installed or not on PATH")
    except subprocess.TimeoutExpired:
        return GitResult(124, "", f"git {' '.join(args)} timed out after {timeout:.0f}s")
    return GitResult(
        done.returncode,
        done.stdout.decode("utf-8", errors="replace"),
        done.stderr.decode("utf-8", errors="replace"),
    )


def git_status(root: Path) -> GitResult:
    """Short status with the branch line, limited to `root` (which may be a subfolder of a repository)."""
    return run_git(root, "status", "--short", "--branch", "--untracked-files=all", "--", ".")


def git_diff(root: Path, relative_path: str | None = None) -> GitResult:
    """Unstaged and staged changes against HEAD (or the index when there is no commit yet)."""
    # --relative and the `.` pathspec keep a subfolder's diff to that subfolder, paths relative to it.
    args = ["diff", "--no-ext-diff", "--no-textconv", "--no-color", "--relative"]
    has_head = run_git(root, "rev-parse", "--verify", "--quiet", "HEAD").exit_code == 0
    if has_head:
        args.append("HEAD")
    args += ["--", relative_path or "."]
    return run_git(root, *args)
