"""Running commands: POSIX `/bin/sh -c` or PowerShell, with a timeout, separate stdout/stderr and a scrubbed
environment.

Commands never see provider API keys or other secret-looking variables, never read stdin, and a timeout kills
the whole process tree, not only the shell.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Literal, Protocol

from pydantic import BaseModel

from glmagent.errors import ConfigError
from glmagent.secrets import is_secret_name

ShellKind = Literal["posix", "powershell"]
ShellChoice = Literal["auto", "posix", "powershell"]

#: Bytes of each stream kept from the start and from the end; the middle of huge outputs is dropped.
KEEP_HEAD = 48_000
KEEP_TAIL = 48_000


class ProcessResult(BaseModel):
    """What one command did."""

    command: str
    shell: ShellKind
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool = False
    duration_s: float
    stdout_bytes: int
    stderr_bytes: int

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    def combined(self) -> str:
        """stdout then stderr, for summaries that do not care which stream said what."""
        return "\n".join(part for part in (self.stdout, self.stderr) if part)


class ShellBackend(Protocol):
    """Something that runs one command line in a directory."""

    kind: ShellKind

    def run(self, command: str, cwd: Path, timeout: float) -> ProcessResult: ...


def child_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for commands the agent runs: the user's, minus API keys and secret-looking names."""
    source = os.environ if base is None else base
    env = {name: value for name, value in source.items() if not is_secret_name(name)}
    # Commands must never stop to ask: no pagers, no credential prompts.
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat", "NO_COLOR": "1"})
    return env


class _Capture:
    """Drain a pipe on a thread, keeping its head and tail, so a chatty command cannot exhaust memory."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self._thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        for chunk in iter(lambda: stream.read(65536), b""):
            self.total += len(chunk)
            room = KEEP_HEAD - len(self.head)
            if room > 0:
                self.head += chunk[:room]
                chunk = chunk[room:]
            if chunk:
                self.tail += chunk
                if len(self.tail) > KEEP_TAIL:
                    del self.tail[: len(self.tail) - KEEP_TAIL]
        stream.close()

    def text(self, timeout: float = 5.0) -> str:
        self._thread.join(timeout)
        kept = len(self.head) + len(self.tail)
        head = self.head.decode("utf-8", errors="replace")
        if self.total <= kept:
            return head + self.tail.decode("utf-8", errors="replace")
        cut = self.total - kept
        tail = self.tail.decode("utf-8", errors="replace")
        return f"{head}\n[... {cut:,} bytes of output cut ...]\n{tail}"


class _SubprocessShell:
    kind: ShellKind

    def argv(self, command: str) -> list[str]:
        raise NotImplementedError

    def run(self, command: str, cwd: Path, timeout: float) -> ProcessResult:
        """Run `command` in `cwd`; on timeout or Ctrl-C the whole process tree is killed."""
        started = time.monotonic()
        kwargs: dict[str, object] = {}
        if os.name == "nt":
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
        else:
            kwargs["start_new_session"] = True
        # The policy engine vetted `command` before it got here.
        proc = subprocess.Popen(
            self.argv(command),
            cwd=cwd,
            env=child_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **kwargs,  # type: ignore[call-overload]
        )
        assert proc.stdout is not None and proc.stderr is not None
        out, err = _Capture(proc.stdout), _Capture(proc.stderr)
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_tree(proc)
        except BaseException:
            _kill_tree(proc)
            raise
        return ProcessResult(
            command=command,
            shell=self.kind,
            exit_code=None if timed_out else proc.returncode,
            stdout=out.text(),
            stderr=err.text(),
            timed_out=timed_out,
            duration_s=round(time.monotonic() - started, 3),
            stdout_bytes=out.total,
            stderr_bytes=err.total,
        )


def _kill_tree(proc: subprocess.Popen[bytes]) -> None:
    if os.name == "nt":
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)], capture_output=True, check=False)
    else:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
    proc.wait()


class PosixShell(_SubprocessShell):
    """`/bin/sh -c COMMAND`."""

    kind: ShellKind = "posix"

    def __init__(self, executable: str = "/bin/sh") -> None:
        self.executable = executable

    def argv(self, command: str) -> list[str]:
        return [self.executable, "-c", command]


class PowerShell(_SubprocessShell):
    """`pwsh` (or Windows PowerShell) with `-NoProfile -NonInteractive -Command COMMAND`."""

    kind: ShellKind = "powershell"

    def __init__(self, executable: str | None = None) -> None:
        found = (
            executable or shutil.which("pwsh") or shutil.which("powershell.exe") or shutil.which("powershell")
        )
        if not found:
            raise ConfigError(
                "--shell powershell needs PowerShell: neither pwsh nor powershell.exe is on PATH "
                "(install PowerShell 7, or use --shell posix)"
            )
        self.executable = found

    def argv(self, command: str) -> list[str]:
        return [self.executable, "-NoProfile", "-NonInteractive", "-Command", command]


def resolve_shell_kind(choice: ShellChoice) -> ShellKind:
    """`auto` means PowerShell on Windows and POSIX sh everywhere else."""
    if choice == "auto":
        return "powershell" if sys.platform == "win32" else "posix"
    if choice not in ("posix", "powershell"):
        raise ConfigError(f"unknown shell {choice!r}; use auto, posix or powershell")
    return choice


def make_shell(choice: ShellChoice) -> ShellBackend:
    """Build the backend for `--shell auto|posix|powershell`."""
    kind = resolve_shell_kind(choice)
    return PowerShell() if kind == "powershell" else PosixShell()
