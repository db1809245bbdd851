"""The OS sandbox: the second layer under the command policy.

The policy sees command lines; it cannot see what `pytest`, `make` or a project script does once it runs. The
sandbox contains whatever runs — model-proposed commands and the test command alike:

- `BwrapSandbox` (Linux, bubblewrap): the root file system read-only, so toolchains and virtual environments
  anywhere keep working; the project writable except every `.git` and `.hazina` inside it and every
  editor's or coding agent's own settings (`.vscode`, `.claude`, `.mcp.json`, ...); a private, empty
  temp directory (where the project or a toolchain lives in the temp directory, that folder stays visible,
  read-only); the user's secrets at home and the sockets of the user's session hidden, and no Unix socket can
  be created at all (a seccomp filter, `_seccomp.py`); no network unless allowed; its own PID namespace, so
  no process outside is visible and everything the command started dies with it. glmagent's own git runs
  in the same sandbox with nothing writable (`launch(..., read_only=True)`).
- `SandboxExecSandbox` (macOS, `sandbox-exec`): the same file-write and network rules as a Seatbelt profile;
  processes are not isolated.
- `NoSandbox`: only the command policy guards commands (Windows, or Linux without bubblewrap).

`resolve_sandbox` turns the `--sandbox auto|bwrap|none` choice into one of these.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from glmagent.agent_settings import OBEYED_FILES, TOOL_FOLDERS, WORKSPACE_SUFFIX
from glmagent.errors import ConfigError
from glmagent.tools._hidden import (
    HIDDEN_HOME_PATHS,
    KNOWN_HOME_DOTFILES,
    hidden_home_paths,
    runtime_paths,
)
from glmagent.tools._seccomp import filter_pipe, unix_socket_filter

SandboxChoice = Literal["auto", "bwrap", "none"]

NO_SANDBOX_NOTICE = "no OS sandbox: only the command policy guards commands"

#: Folders inside the project that commands may read but never write: git's data and the agent's records.
PROTECTED_NAMES = (".git", ".hazina")

#: Credential stores under the home directory, hidden from commands (only those that exist are masked); the
#: sandbox hides every other dotfile at home too (see `glmagent.tools._hidden`).
CREDENTIAL_PATHS = (
    *KNOWN_HOME_DOTFILES,
    *(path for paths in HIDDEN_HOME_PATHS.values() for path in paths),
)

#: At most this many directories are visited looking for nested `.git` / `.hazina` folders per command.
WALK_LIMIT = 20_000


@dataclass
class Launch:
    """What to execute for one contained command: the argv, and the descriptors the child must inherit
    (bubblewrap reads its seccomp filter from one). `close()` after the process started."""

    argv: list[str]
    pass_fds: tuple[int, ...] = field(default=())

    def close(self) -> None:
        for fd in self.pass_fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.pass_fds = ()


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

    def launch(
        self, argv: list[str], cwd: Path, *, read_only: bool = False, visible: Sequence[Path] = ()
    ) -> Launch:
        """`wrap` plus what the process must inherit; `read_only` makes nothing writable and allows no
        network (glmagent's own git), `visible` names folders outside the project it must still see."""
        ...


def launch(
    sandbox: Sandbox, argv: list[str], cwd: Path, *, read_only: bool = False, visible: Sequence[Path] = ()
) -> Launch:
    """`sandbox.launch(...)`, for sandboxes written before it existed too (they only `wrap`)."""
    method = getattr(sandbox, "launch", None)
    if callable(method):
        return method(argv, cwd, read_only=read_only, visible=visible)  # type: ignore[no-any-return]
    return Launch(sandbox.wrap(argv, cwd))


class NoSandbox:
    """No OS layer: commands run as the user, guarded by the command policy alone."""

    name = "none"
    contains_processes = False

    def describe(self) -> str:
        return NO_SANDBOX_NOTICE

    def wrap(self, argv: list[str], cwd: Path) -> list[str]:
        return list(argv)

    def launch(
        self, argv: list[str], cwd: Path, *, read_only: bool = False, visible: Sequence[Path] = ()
    ) -> Launch:
        return Launch(list(argv))


def _kept_read_only(name: str) -> bool:
    folded = name.casefold()
    return (
        folded in PROTECTED_NAMES
        or folded in TOOL_FOLDERS
        or folded in OBEYED_FILES
        or folded.endswith(WORKSPACE_SUFFIX)
    )


def protected_dirs(root: Path, limit: int = WALK_LIMIT) -> list[Path]:
    """Every `.git` / `.hazina` (folder or file) inside `root`, and every editor's or coding agent's own
    settings there (`.vscode`, `.claude`, `.mcp.json`, `*.code-workspace`: `glmagent.agent_settings`), found
    by a bounded walk.

    Nested repositories (vendored code, submodules) have hooks and config of their own, so they are protected
    like the top-level one. A tool folder is kept whole: its settings, hooks and tool servers run code later,
    unasked. The walk never descends into a protected folder and stops after `limit` folders.
    """
    found: list[Path] = []
    for visited, (current, dirnames, filenames) in enumerate(os.walk(root), start=1):
        here = Path(current)
        for name in list(dirnames):
            if _kept_read_only(name):
                found.append(here / name)
                dirnames.remove(name)
            elif os.path.islink(here / name):
                dirnames.remove(name)  # a link out of the project is covered by the read-only root
        found.extend(here / name for name in filenames if _kept_read_only(name))
        if visited >= limit:
            break
    return sorted(found)


class BwrapSandbox:
    """bubblewrap: read-only system, writable project (minus `.git`/`.hazina`), private temp, secrets and
    session sockets hidden, no Unix sockets, no network, own PIDs."""

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
        hidden: Iterable[str | Path] = (),
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.root = root.resolve()
        self.allow_network = allow_network
        self.executable = executable
        self.home = (home or Path.home()).resolve()
        self.temp_dir = (temp_dir or Path(tempfile.gettempdir())).resolve()
        self.environ = dict(os.environ if environ is None else environ)
        self.hidden = tuple(expand_user_path(p, self.home) for p in hidden)
        """Paths the user asked to hide too (`sandbox_hide`)."""

    def describe(self) -> str:
        network = "network allowed" if self.allow_network else "no network"
        sockets = "; no Unix sockets" if unix_socket_filter() is not None else ""
        return (
            f"OS sandbox: bubblewrap (system read-only; {self.root.name or self.root}/ writable except .git/ "
            f"and .hazina/; private temp; home secrets and session sockets hidden{sockets}; {network}; "
            "own process namespace)"
        )

    def wrap(self, argv: list[str], cwd: Path) -> list[str]:
        """The mounts and namespaces; `launch` adds the seccomp filter, which travels as a descriptor."""
        return self._argv(argv, cwd, read_only=False, visible=(), seccomp_fd=None)

    def launch(
        self, argv: list[str], cwd: Path, *, read_only: bool = False, visible: Sequence[Path] = ()
    ) -> Launch:
        program = unix_socket_filter()
        if program is None:
            return Launch(self._argv(argv, cwd, read_only=read_only, visible=visible, seccomp_fd=None))
        fd = filter_pipe(program)
        try:
            wrapped = self._argv(argv, cwd, read_only=read_only, visible=visible, seccomp_fd=fd)
        except BaseException:
            os.close(fd)
            raise
        return Launch(wrapped, (fd,))

    def _argv(
        self,
        argv: list[str],
        cwd: Path,
        *,
        read_only: bool,
        visible: Sequence[Path],
        seccomp_fd: int | None,
    ) -> list[str]:
        args = [self.executable, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        shown = self._temp_args(args, [self.root, *visible])
        if not read_only:
            args += ["--bind", str(self.root), str(self.root)]
            for path in protected_dirs(self.root):
                args += ["--ro-bind", str(path), str(path)]
        args += self._masks(shown)
        args += ["--unshare-all"]
        if self.allow_network and not read_only:
            args += ["--share-net"]
        if seccomp_fd is not None:
            args += ["--seccomp", str(seccomp_fd)]
        args += ["--die-with-parent", "--new-session", "--chdir", str(cwd), "--", *argv]
        return args

    def _temp_dirs(self) -> list[Path]:
        """The temp directories made private (not one holding the project: that one stays as it is)."""
        found: list[Path] = []
        for candidate in (self.temp_dir, Path("/tmp")):
            try:
                real = candidate.resolve()
            except OSError:
                continue
            if real.is_dir() and real not in found and real != Path("/") and not _holds(self.root, real):
                found.append(real)
        return found

    def _temp_args(self, args: list[str], needed: Sequence[Path]) -> list[Path]:
        """A private, empty, writable temp directory; the folders in it that the project, the home or a
        toolchain on PATH live in stay visible (read-only). Returns the temp folders shown."""
        shown: list[Path] = []
        for temp in self._temp_dirs():
            args += ["--tmpfs", str(temp)]
            for path in [*needed, self.home, *_toolchain_paths(self.environ)]:
                if path != temp and path.is_relative_to(temp):
                    top = temp / path.relative_to(temp).parts[0]
                    if top not in shown and os.path.isdir(top) and not os.path.islink(top):
                        args += ["--ro-bind", str(top), str(top)]
                        shown.append(top)
        return shown

    def _masks(self, shown_in_temp: Sequence[Path]) -> list[str]:
        """Mounts hiding the home's secrets and the session's sockets (only paths that exist)."""
        temps = [str(t) for t in self._temp_dirs()]
        shown = [str(s) for s in shown_in_temp]
        keep = [str(self.root), str(self.home), "/", *temps]
        masks: list[str] = []
        seen: set[str] = set()
        candidates: list[str] = []
        if self.home != Path("/"):
            candidates += hidden_home_paths(self.home)
        candidates += (str(p) for p in runtime_paths(self.environ, self.home))
        candidates += (str(p) for p in self.hidden)
        realpath, lexists, isdir = os.path.realpath, os.path.lexists, os.path.isdir
        for candidate in candidates:
            # Mount points must not be links (nor lie under one): the real path is hidden instead.
            path = realpath(candidate)
            if path in seen or not lexists(path) or any(_within(k, path) for k in keep):
                continue
            if any(_within(path, t) for t in temps) and not any(_within(path, s) for s in shown):
                continue  # already gone with the private temp directory
            seen.add(path)
            # A read-only bind of an empty folder (or of /dev/null) costs a fraction of a tmpfs mount.
            masks += ["--ro-bind", _empty_folder() if isdir(path) else "/dev/null", path]
        return masks


_EMPTY_PREFIX = "glmagent-empty-"


@functools.lru_cache(maxsize=1)
def _empty_folder() -> str:
    """An empty, read-only folder of this process, bound over folders the sandbox hides (removed at exit;
    one left by a process that was killed outright is removed by the next one)."""
    temp = tempfile.gettempdir()
    _remove_orphaned_folders(temp)
    folder = tempfile.mkdtemp(prefix=f"{_EMPTY_PREFIX}{os.getpid()}-", dir=temp)
    os.chmod(folder, 0o555)
    atexit.register(_remove_folder, folder)
    return folder


def _remove_orphaned_folders(temp: str) -> None:
    """Remove the empty folders of this user's glmagent processes that are gone: no exit handler runs in a
    process killed with SIGKILL. The folder's name carries its process's ID; a folder of another user, one
    that is not empty, or one of a process still running is left alone."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    with contextlib.suppress(OSError), os.scandir(temp) as entries:
        for entry in entries:
            pid = entry.name[len(_EMPTY_PREFIX) :].partition("-")[0]
            if not entry.name.startswith(_EMPTY_PREFIX) or not pid.isdigit() or _running(int(pid)):
                continue
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                if entry.is_dir(follow_symlinks=False) and info.st_uid == uid:
                    _remove_folder(entry.path)  # rmdir: only an empty folder goes


def _running(pid: int) -> bool:
    """Is a process with this ID running (whoever's it is)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # another user's process (it exists), or no process ID at all: left alone
    return True


def _remove_folder(folder: str) -> None:
    with contextlib.suppress(OSError):
        os.chmod(folder, 0o700)
        os.rmdir(folder)


def _within(path: str, folder: str) -> bool:
    """True when `path` is `folder` or lies inside it (plain strings: no pathlib on the hot path)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def expand_user_path(path: str | Path, home: Path) -> Path:
    """A configured path: `~/x` and relative paths are in the home, absolute paths stay as they are."""
    text = str(path).strip()
    if text == "~" or text.startswith("~/"):
        return home / text[2:]
    candidate = Path(text)
    return candidate if candidate.is_absolute() else home / candidate


def _holds(folder: Path, path: Path) -> bool:
    """True when `folder` is `path` or one of its ancestors (hiding it would hide `path`)."""
    return path == folder or path.is_relative_to(folder)


def _toolchain_paths(environ: Mapping[str, str]) -> list[Path]:
    """Where the commands' toolchains live: PATH entries, active virtual or conda environments, and the
    Python running glmagent (test commands often name it by its full path)."""
    found = [Path(entry) for entry in environ.get("PATH", "").split(os.pathsep) if entry.startswith("/")]
    found += [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent]
    for name in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        value = environ.get(name, "")
        if value.startswith("/"):
            found.append(Path(value))
    return found


class SandboxExecSandbox:
    """macOS Seatbelt (`sandbox-exec`): writes only in the project (minus `.git`/`.hazina`) and temp folders,
    credential stores and shell files unreadable, no Unix sockets, no network unless allowed. Processes are
    not isolated."""

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
        hidden: Iterable[str | Path] = (),
    ) -> None:
        self.root = root.resolve()
        self.allow_network = allow_network
        self.executable = executable
        self.home = (home or Path.home()).resolve()
        self.temp_dirs = temp_dirs or tuple(
            {Path(tempfile.gettempdir()).resolve(), Path("/private/tmp"), Path("/private/var/folders")}
        )
        self.hidden = tuple(expand_user_path(p, self.home) for p in hidden)

    def describe(self) -> str:
        network = "network allowed" if self.allow_network else "no network"
        return (
            f"OS sandbox: macOS sandbox-exec (writes only in {self.root.name}/ except .git/ and .hazina/, "
            f"and temp; credential stores unreadable; no Unix sockets; {network}; processes not isolated)"
        )

    def profile(self, *, read_only: bool = False) -> str:
        """The Seatbelt profile; later rules win, so the denials for protected folders come last."""

        def quoted(path: Path) -> str:
            return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'

        writable = [] if read_only else [self.root, *self.temp_dirs]
        lines = ["(version 1)", "(allow default)", "(deny file-write*)"]
        if writable:
            lines.append("(allow file-write* " + " ".join(f"(subpath {quoted(p)})" for p in writable) + ")")
        lines.append(
            '(allow file-write* (literal "/dev/null") (literal "/dev/stdout") (literal "/dev/stderr")'
            ' (regex #"^/dev/fd/") (regex #"^/dev/tty"))'
        )
        if not read_only:
            # (the project's own are denied whether or not they exist yet: a rule may name a missing path)
            top = (*PROTECTED_NAMES, *sorted(TOOL_FOLDERS), *OBEYED_FILES)
            protected = [self.root / name for name in top] + [
                p for p in protected_dirs(self.root) if p.parent != self.root or p.name.casefold() not in top
            ]
            lines.append("(deny file-write* " + " ".join(f"(subpath {quoted(p)})" for p in protected) + ")")
        hidden = [self.home / rel for rel in CREDENTIAL_PATHS] + list(self.hidden)
        secrets = " ".join(f"(subpath {quoted(p)})" for p in hidden)
        lines.append(f"(deny file-read* {secrets})")
        lines.append("(deny network-outbound (remote unix-socket))")
        if not self.allow_network or read_only:
            lines.append('(deny network* (remote ip "*:*"))')
        return "\n".join(lines) + "\n"

    def wrap(self, argv: list[str], cwd: Path) -> list[str]:
        return [self.executable, "-p", self.profile(), *argv]

    def launch(
        self, argv: list[str], cwd: Path, *, read_only: bool = False, visible: Sequence[Path] = ()
    ) -> Launch:
        return Launch([self.executable, "-p", self.profile(read_only=read_only), *argv])


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


def resolve_sandbox(
    choice: SandboxChoice, root: Path, *, allow_network: bool = False, hidden: Iterable[str | Path] = ()
) -> Sandbox:
    """The sandbox for `--sandbox`: `auto` picks the best the OS offers and falls back to none; `hidden`
    names extra paths commands must not see (`sandbox_hide`)."""
    if choice == "none":
        return NoSandbox()
    if choice == "bwrap":
        problem = bwrap_problem()
        if problem:
            raise ConfigError(f"--sandbox bwrap: {problem}; use --sandbox auto or none")
        return BwrapSandbox(
            root, allow_network=allow_network, executable=shutil.which("bwrap") or "bwrap", hidden=hidden
        )
    if choice != "auto":
        raise ConfigError(f"unknown sandbox {choice!r}; use auto, bwrap or none")
    if sys.platform.startswith("linux") and bwrap_problem() is None:
        return BwrapSandbox(
            root, allow_network=allow_network, executable=shutil.which("bwrap") or "bwrap", hidden=hidden
        )
    if sys.platform == "darwin" and Path("/usr/bin/sandbox-exec").exists():
        return SandboxExecSandbox(root, allow_network=allow_network, hidden=hidden)
    return NoSandbox()
