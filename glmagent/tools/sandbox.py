"""The OS sandbox: the second layer under the command policy.

The policy sees command lines; it cannot see what `pytest`, `make` or a project script does once it runs. The
sandbox contains whatever runs — model-proposed commands and the test command alike:

- `BwrapSandbox` (Linux, bubblewrap): the root file system read-only, so toolchains and virtual environments
  anywhere keep working; the project writable except every `.git` and `.hazina` inside it; the temp directory
  writable (except the folder holding the project, when the project itself lives in the temp directory);
  the user's credential stores hidden; no network unless allowed; its own PID namespace, so no
  process outside is visible and everything the command started dies with it.
- `SandboxExecSandbox` (macOS, `sandbox-exec`): the same file-write and network rules as a Seatbelt profile;
  processes are not isolated.
- `NoSandbox`: only the command policy guards commands (Windows, or Linux without bubblewrap).

`resolve_sandbox` turns the `--sandbox auto|bwrap|none` choice into one of these.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Literal, Protocol

from glmagent.errors import ConfigError

SandboxChoice = Literal["auto", "bwrap", "none"]

NO_SANDBOX_NOTICE = "no OS sandbox: only the command policy guards commands"

#: Folders inside the project that commands may read but never write: git's data and the agent's records.
PROTECTED_NAMES = (".git", ".hazina")

#: Credential stores under the home directory, hidden from commands (only those that exist are masked).
CREDENTIAL_PATHS = (
    ".ssh",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".config/gh",
    ".config/hub",
    ".netrc",
    ".git-credentials",
    ".docker",
    ".kube",
    ".gnupg",
    ".password-store",
    ".local/share/keyrings",
    ".pypirc",
    ".npmrc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".terraform.d/credentials.tfrc.json",
    ".vault-token",
)

#: At most this many directories are visited looking for nested `.git` / `.hazina` folders per command.
WALK_LIMIT = 20_000


class Sandbox(Protocol):
    """Turns a command's argv into a contained argv."""

    name: str
    contains_processes: bool
    """True when everything the command starts dies with it (a PID namespace), so no reaper is needed."""

    def describe(self) -> str:
        """One line for the console and the audit record: which layer is active and what it does."""
        ...

    def wrap(self, argv: list[str], cwd: Path) -> list[str]:
        """The argv to execute instead of `argv`, with `cwd` as the command's working directory."""
        ...


class NoSandbox:
    """No OS layer: commands run as the user, guarded by the command policy alone."""

    name = "none"
    contains_processes = False

    def describe(self) -> str:
        return NO_SANDBOX_NOTICE

    def wrap(self, argv: list[str], cwd: Path) -> list[str]:
        return list(argv)


def protected_dirs(root: Path, limit: int = WALK_LIMIT) -> list[Path]:
    """Every `.git` / `.hazina` (folder or file) inside `root`, found by a bounded walk.

    Nested repositories (vendored code, submodules) have hooks and config of their own, so they are protected
    like the top-level one. The walk never descends into a protected folder and stops after `limit` folders.
    """
    found: list[Path] = []
    for visited, (current, dirnames, filenames) in enumerate(os.walk(root), start=1):
        here = Path(current)
        for name in list(dirnames):
            if name.casefold() in PROTECTED_NAMES:
                found.append(here / name)
                dirnames.remove(name)
            elif os.path.islink(here / name):
                dirnames.remove(name)  # a link out of the project is covered by the read-only root
        found.extend(here / name for name in filenames if name.casefold() in PROTECTED_NAMES)
        if visited >= limit:
            break
    return sorted(found)


class BwrapSandbox:
    """bubblewrap: read-only system, writable project (minus `.git`/`.hazina`), no network, own PIDs."""

    name = "bwrap"
    contains_processes = True

    def __init__(
        self,
        root: Path,
        *,
        allow_network: bool = False,
        executable: str = "bwrap",
        home: Path | None = None,
        temp_dir: Path | None = None,
    ) -> None:
        self.root = root.resolve()
        self.allow_network = allow_network
        self.executable = executable
        self.home = (home or Path.home()).resolve()
        self.temp_dir = (temp_dir or Path(tempfile.gettempdir())).resolve()

    def describe(self) -> str:
        network = "network allowed" if self.allow_network else "no network"
        return (
            f"OS sandbox: bubblewrap (system read-only; {self.root.name or self.root}/ writable except .git/ "
            f"and .hazina/; temp writable; credential stores hidden; {network}; own process namespace)"
        )

    def wrap(self, argv: list[str], cwd: Path) -> list[str]:
        args = [self.executable, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        if self.temp_dir.is_dir() and not self.temp_dir.is_relative_to(self.root):
            args += ["--bind", str(self.temp_dir), str(self.temp_dir)]
            if self.root.is_relative_to(self.temp_dir):
                # A project inside the temp directory: its neighbours (`../x`) stay read-only; only the
                # rest of the temp directory is scratch space.
                top = self.temp_dir / self.root.relative_to(self.temp_dir).parts[0]
                if top != self.root:
                    args += ["--ro-bind", str(top), str(top)]
        args += ["--bind", str(self.root), str(self.root)]
        for path in protected_dirs(self.root):
            args += ["--ro-bind", str(path), str(path)]
        args += self._credential_masks()
        args += ["--unshare-all"]
        if self.allow_network:
            args += ["--share-net"]
        args += ["--die-with-parent", "--new-session", "--chdir", str(cwd), "--", *argv]
        return args

    def _credential_masks(self) -> list[str]:
        masks: list[str] = []
        if self.home == Path("/") or self.root.is_relative_to(self.home / ".ssh"):
            return masks
        for relative in CREDENTIAL_PATHS:
            path = self.home / relative
            if path.is_symlink():
                # Mount points must not be links; the link's target is hidden instead when it is a store.
                path = path.resolve()
            if path.is_dir():
                masks += ["--tmpfs", str(path), "--remount-ro", str(path)]
            elif path.is_file():
                masks += ["--ro-bind", "/dev/null", str(path)]
        return masks


class SandboxExecSandbox:
    """macOS Seatbelt (`sandbox-exec`): writes only in the project (minus `.git`/`.hazina`) and temp folders,
    credential stores unreadable, no network unless allowed. Processes are not isolated."""

    name = "sandbox-exec"
    contains_processes = False

    def __init__(
        self,
        root: Path,
        *,
        allow_network: bool = False,
        executable: str = "/usr/bin/sandbox-exec",
        home: Path | None = None,
        temp_dirs: tuple[Path, ...] | None = None,
    ) -> None:
        self.root = root.resolve()
        self.allow_network = allow_network
        self.executable = executable
        self.home = (home or Path.home()).resolve()
        self.temp_dirs = temp_dirs or tuple(
            {Path(tempfile.gettempdir()).resolve(), Path("/private/tmp"), Path("/private/var/folders")}
        )

    def describe(self) -> str:
        network = "network allowed" if self.allow_network else "no network"
        return (
            f"OS sandbox: macOS sandbox-exec (writes only in {self.root.name}/ except .git/ and .hazina/, "
            f"and temp; credential stores unreadable; {network}; processes not isolated)"
        )

    def profile(self) -> str:
        """The Seatbelt profile; later rules win, so the denials for protected folders come last."""

        def quoted(path: Path) -> str:
            return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'

        writable = [self.root, *self.temp_dirs]
        lines = [
            "(version 1)",
            "(allow default)",
            "(deny file-write*)",
            "(allow file-write* " + " ".join(f"(subpath {quoted(p)})" for p in writable) + ")",
            '(allow file-write* (literal "/dev/null") (literal "/dev/stdout") (literal "/dev/stderr")'
            ' (regex #"^/dev/fd/") (regex #"^/dev/tty"))',
        ]
        protected = [self.root / name for name in PROTECTED_NAMES] + [
            p for p in protected_dirs(self.root) if p.parent != self.root
        ]
        lines.append("(deny file-write* " + " ".join(f"(subpath {quoted(p)})" for p in protected) + ")")
        secrets = " ".join(f"(subpath {quoted(self.home / rel)})" for rel in CREDENTIAL_PATHS)
        lines.append(f"(deny file-read* {secrets})")
        if not self.allow_network:
            lines.append('(deny network* (remote ip "*:*"))')
            lines.append("(deny network-outbound (remote unix-socket))")
        return "\n".join(lines) + "\n"

    def wrap(self, argv: list[str], cwd: Path) -> list[str]:
        return [self.executable, "-p", self.profile(), *argv]


@functools.lru_cache(maxsize=4)
def bwrap_problem(executable: str = "bwrap") -> str | None:
    """Why bubblewrap cannot be used here, or None when a trial sandbox ran (probed once per process)."""
    if not sys.platform.startswith("linux"):
        return "bubblewrap exists on Linux only"
    found = shutil.which(executable)
    if found is None:
        return "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    probe = [found, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all"]
    probe += ["--die-with-parent", "--new-session", "--", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=15, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap could not start a sandbox: {error}"
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = detail[-1] if detail else f"exit {done.returncode}"
        return f"bwrap could not start a sandbox ({reason}); user namespaces may be disabled"
    return None


def resolve_sandbox(choice: SandboxChoice, root: Path, *, allow_network: bool = False) -> Sandbox:
    """The sandbox for `--sandbox`: `auto` picks the best the OS offers and falls back to none."""
    if choice == "none":
        return NoSandbox()
    if choice == "bwrap":
        problem = bwrap_problem()
        if problem:
            raise ConfigError(f"--sandbox bwrap: {problem}; use --sandbox auto or none")
        return BwrapSandbox(root, allow_network=allow_network, executable=shutil.which("bwrap") or "bwrap")
    if choice != "auto":
        raise ConfigError(f"unknown sandbox {choice!r}; use auto, bwrap or none")
    if sys.platform.startswith("linux") and bwrap_problem() is None:
        return BwrapSandbox(root, allow_network=allow_network, executable=shutil.which("bwrap") or "bwrap")
    if sys.platform == "darwin" and Path("/usr/bin/sandbox-exec").exists():
        return SandboxExecSandbox(root, allow_network=allow_network)
    return NoSandbox()
