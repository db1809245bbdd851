"""glmagent's own git — `git_status`, `git_diff`, the project map's file list, the start-of-task state —
with no way for a repository to run a program.

A repository handed to glmagent may be hostile (a cloned project, a tarball), and the model can build one
(files named `HEAD`, `config`, `objects/`, `refs/` at the project's root make it a bare repository to git).
git runs programs a repository names in many places: filters (`filter.*.clean`/`smudge`/`process`), diff
drivers and textconv, an external diff, fsmonitor, hooks (`post-index-change` fires on a plain
`git status`), the pager, ssh and credential helpers, merge drivers — and `include.path`/`includeIf` pull
such keys in from other files. `GitRunner` shuts each door:

- **Which repository** is decided once, when the runner is made (the start of a task, before the model
  acts), with `safe.bareRepository=explicit`; it is pinned with `GIT_DIR`/`GIT_WORK_TREE` and a ceiling, so
  a repository the model builds later is never discovered. No repository then: git never runs.
- **No program**: nothing from the system or global config is read (`GIT_CONFIG_NOSYSTEM`, a null
  `GIT_CONFIG_GLOBAL`); every key of the repository's config (includes resolved) that names a program is
  overridden on the command line with an empty value (`neutral_overrides`), hooks point at the null device,
  fsmonitor is off, the pager is `cat`, diffs use `--no-ext-diff --no-textconv`, submodules are not entered,
  and `GIT_OPTIONAL_LOCKS=0` keeps `status` from writing the index. Every `GIT_*` variable of the user's
  environment is dropped, and secrets as for any command.
- **Inside the sandbox**: where one is active, git itself runs in it with nothing writable and no network,
  so a key nobody listed above still cannot reach the machine.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from glmagent.tools.sandbox import NoSandbox, Sandbox, launch
from glmagent.tools.shell import child_environment

#: Settings given to every git call (command-line scope: they win over every config file).
FIXED_OVERRIDES: tuple[tuple[str, str], ...] = (
    ("safe.bareRepository", "explicit"),
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.pager", "cat"),
    ("core.editor", "false"),
    ("core.askPass", ""),
    ("core.sshCommand", ""),
    ("core.gitProxy", ""),
    ("core.attributesFile", os.devnull),
    ("core.alternateRefsCommand", ""),
    ("core.quotepath", "off"),
    ("credential.helper", ""),
    ("color.ui", "false"),
    ("protocol.allow", "never"),
    ("status.submoduleSummary", "false"),
    ("submodule.recurse", "false"),
    ("diff.ignoreSubmodules", "all"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
)

#: Variable names (the last part of a key) whose value git may execute, in any section: `filter.x.clean`,
#: `diff.x.textconv`, `merge.x.driver`, `credential.<url>.helper`, `gpg.program`, `hook.x.command`, ...
PROGRAM_VARIABLES = frozenset(
    {
        "clean",
        "smudge",
        "process",
        "textconv",
        "command",
        "driver",
        "program",
        "helper",
        "cmd",
        "askpass",
        "sshcommand",
        "gitproxy",
        "editor",
        "pager",
        "fsmonitor",
        "hookspath",
        "alternaterefscommand",
        "packobjectshook",
        "uploadpack",
        "receivepack",
        "vcs",
        "proxycommand",
        "external",
    }
)
#: Sections all of whose keys name programs or switch them on (`pager.log = less`, `alias.x = !sh`).
PROGRAM_SECTIONS = frozenset({"pager", "alias"})
#: Values that switch a key off rather than emptying it.
_OFF = {"fsmonitor": "false", "required": "false", "pager": "false"}


class GitResult:
    """Exit code and output of one git invocation."""

    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr


@dataclass(frozen=True)
class Repository:
    """Where the project's repository is: its git folder and its work tree (the project or an ancestor)."""

    git_dir: Path
    work_tree: Path


NO_REPOSITORY = (
    "not a git repository: the project had no repository of its own (nor an enclosing one) when the task "
    "started, so git_status and git_diff have nothing to show; use `run` with `ls` or read_file instead"
)


def neutral_overrides(keys: Iterable[str]) -> list[tuple[str, str]]:
    """For each config key that can name a program, the override that switches it off."""
    found: dict[str, str] = {}
    for key in keys:
        parts = key.split(".")
        if len(parts) < 2:
            continue
        section, variable = parts[0].lower(), parts[-1].lower()
        if section == "filter" and variable == "required":
            found[key] = "false"
        elif section in PROGRAM_SECTIONS:
            found[key] = "false" if section == "pager" else ""
        elif variable in PROGRAM_VARIABLES:
            found[key] = _OFF.get(variable, "")
    return list(found.items())


def git_environment(
    overrides: Iterable[tuple[str, str]],
    repository: Repository | None = None,
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment of one git call: the commands' environment without any `GIT_*` variable, no system
    or global config, `overrides` as command-line settings, and the repository pinned."""
    env = {k: v for k, v in child_environment(base).items() if not k.upper().startswith("GIT_")}
    env.update(
        {
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_ATTR_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_OPTIONAL_LOCKS": "0",
            "GIT_PAGER": "cat",
            "GIT_NO_REPLACE_OBJECTS": "1",
            "GIT_PROTOCOL_FROM_USER": "0",
            "GIT_EDITOR": "false",
            "GIT_ASKPASS": "",
            "SSH_ASKPASS": "",
        }
    )
    pairs = [*FIXED_OVERRIDES, *overrides]
    env["GIT_CONFIG_COUNT"] = str(len(pairs))
    for index, (key, value) in enumerate(pairs):
        env[f"GIT_CONFIG_KEY_{index}"] = key
        env[f"GIT_CONFIG_VALUE_{index}"] = value
    if repository is not None:
        env["GIT_DIR"] = str(repository.git_dir)
        env["GIT_WORK_TREE"] = str(repository.work_tree)
        env["GIT_CEILING_DIRECTORIES"] = str(repository.work_tree.parent)
    return env


class GitRunner:
    """Runs git for one project, pinned to the repository found when the runner was made."""

    def __init__(self, root: Path, sandbox: Sandbox | None = None, *, timeout: float = 60.0) -> None:
        self.root = root.resolve()
        self.sandbox = sandbox or NoSandbox()
        self.timeout = timeout
        self.repository = self._locate()
        """None when the project is in no repository (git never runs then)."""

    def _locate(self) -> Repository | None:
        # Discovery is the one call that must look around; it reads config but runs nothing, and
        # `safe.bareRepository=explicit` refuses a bare repository found by walking (the model's kind).
        done = self._execute(["rev-parse", "--absolute-git-dir", "--show-toplevel"], repository=None, keys=[])
        lines = done.stdout.splitlines()
        if done.exit_code != 0 or len(lines) != 2 or not lines[1].strip():
            return None
        git_dir, work_tree = Path(lines[0]), Path(lines[1])
        if not git_dir.is_absolute() or not work_tree.is_absolute():
            return None
        if self.root != work_tree and not self.root.is_relative_to(work_tree):
            return None
        return Repository(git_dir=git_dir, work_tree=work_tree)

    def run(self, *args: str, timeout: float | None = None) -> GitResult:
        """Run `git ARGS` in the project root against the pinned repository."""
        if self.repository is None:
            return GitResult(128, "", f"fatal: {NO_REPOSITORY}")
        listed = self._execute(
            ["config", "--list", "--includes", "--name-only", "-z"], repository=self.repository, keys=[]
        )
        keys = [key for key in listed.stdout.split("\0") if key] if listed.exit_code == 0 else []
        return self._execute(list(args), repository=self.repository, keys=keys, timeout=timeout)

    def _execute(
        self,
        args: list[str],
        *,
        repository: Repository | None,
        keys: list[str],
        timeout: float | None = None,
    ) -> GitResult:
        limit = self.timeout if timeout is None else timeout
        env = git_environment(neutral_overrides(keys), repository)
        if repository is None:
            # Discovery: the user's own safe.directory settings may be needed to accept the repository.
            for name in ("GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL"):
                env.pop(name, None)
        visible = (repository.git_dir, repository.work_tree) if repository else ()
        try:
            contained = launch(
                self.sandbox, ["git", "--no-pager", *args], self.root, read_only=True, visible=visible
            )
        except OSError as error:
            return GitResult(126, "", f"git could not be contained: {error}")
        try:
            done = subprocess.run(
                contained.argv,
                cwd=self.root,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=limit,
                check=False,
                pass_fds=contained.pass_fds,
            )
        except FileNotFoundError:
            return GitResult(127, "", "git is not installed or not on PATH")
        except subprocess.TimeoutExpired:
            return GitResult(124, "", f"git {' '.join(args)} timed out after {limit:.0f}s")
        finally:
            contained.close()
        return GitResult(
            done.returncode,
            done.stdout.decode("utf-8", errors="replace"),
            done.stderr.decode("utf-8", errors="replace"),
        )

    def status(self) -> GitResult:
        """Short status with the branch line, limited to the project (which may be a subfolder)."""
        return self.run(
            "status", "--short", "--branch", "--untracked-files=all", "--ignore-submodules=all", "--", "."
        )

    def diff(self, relative_path: str | None = None) -> GitResult:
        """Unstaged and staged changes against HEAD (or the index when there is no commit yet)."""
        # --relative and the `.` pathspec keep a subfolder's diff to that subfolder, paths relative to it.
        args = [
            "diff",
            "--no-ext-diff",
            "--no-textconv",
            "--no-color",
            "--relative",
            "--ignore-submodules=all",
        ]
        against_head = self.run(*args, "HEAD", "--", relative_path or ".")
        if against_head.exit_code == 128 and "HEAD" in against_head.stderr:
            # No commit yet: the changes against the index. (Tried second rather than asking `rev-parse`
            # first: every git call costs a sandbox start.)
            return self.run(*args, "--", relative_path or ".")
        return against_head

    def files(self) -> list[str] | None:
        """Tracked files and untracked ones not ignored, relative to the project; None without git."""
        done = self.run("ls-files", "--cached", "--others", "--exclude-standard", "-z", timeout=30)
        if done.exit_code != 0:
            return None
        return [p for p in done.stdout.split("\0") if p]


def run_git(root: Path, *args: str, timeout: float = 60.0) -> GitResult:
    """Run one git command in `root` (no sandbox), with the same protections as `GitRunner`."""
    return GitRunner(root, timeout=timeout).run(*args)


def git_status(root: Path) -> GitResult:
    """`GitRunner(root).status()`."""
    return GitRunner(root).status()


def git_diff(root: Path, relative_path: str | None = None) -> GitResult:
    """`GitRunner(root).diff(relative_path)`."""
    return GitRunner(root).diff(relative_path)
