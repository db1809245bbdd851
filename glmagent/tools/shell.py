"""Running commands: POSIX `/bin/sh -c` or PowerShell, with a timeout, separate stdout/stderr and a scrubbed
environment, inside the OS sandbox when there is one.

Commands never see provider API keys or other secret-looking variables, never read stdin, and cannot open an
interactive editor. Everything a command starts is gone when it ends or times out: on Linux a PID namespace
(bubblewrap) or a subreaper process (`_reaper.py`) collects detached children and background jobs, on Windows
a job object; the agent never waits on a pipe an orphan holds open for more than a short grace.
"""

from __future__ import annotations

import base64
import contextlib
import os
import re
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
from glmagent.secrets import is_hidden_variable
from glmagent.tools.sandbox import NoSandbox, Sandbox, launch

ShellKind = Literal["posix", "powershell"]
ShellChoice = Literal["auto", "posix", "powershell"]

#: Bytes of each stream kept from the start and from the end; the middle of huge outputs is dropped.
KEEP_HEAD = 48_000
KEEP_TAIL = 48_000

#: Seconds to wait for the output pipes to close after the command ended, before returning what arrived.
PIPE_GRACE_S = 1.0
#: Seconds a stopped command (timeout, Ctrl-C) gets to clean up its descendants before everything is killed.
STOP_GRACE_S = 1.0

_REAPER = Path(__file__).with_name("_reaper.py")

#: What a command that tries to open an editor gets instead: a failure that says what to do.
EDITOR_REFUSAL = (
    "echo 'glmagent: commands cannot open an interactive editor; pass the text on the command line "
    '(for example git commit -m "message")\' >&2; exit 1'
)
_PROXY_CREDENTIALS = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*://)?[^/@\s]+@", re.IGNORECASE)

#: Variables that lead to the user's session (agents, terminal multiplexers, the desktop, the Docker daemon):
#: commands need none of them, and each is a way to act outside the sandbox.
SESSION_VARIABLES = frozenset(
    {
        "SSH_AUTH_SOCK",
        "SSH_AGENT_PID",
        "GPG_AGENT_INFO",
        "DBUS_SESSION_BUS_ADDRESS",
        "TMUX",
        "TMUX_PANE",
        "STY",
        "DISPLAY",
        "WAYLAND_DISPLAY",
        "XAUTHORITY",
        "DOCKER_HOST",
        "KRB5CCNAME",
    }
)


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
    """The environment for commands the agent runs: the user's, minus API keys, secret-looking names and the
    provider's declared key variable, minus the variables leading into the user's session, proxy URLs
    without their credentials, and editors that fail at once instead of waiting for a human."""
    source = os.environ if base is None else base
    env = {
        name: value
        for name, value in source.items()
        if not is_hidden_variable(name) and name not in SESSION_VARIABLES
    }
    for name, value in list(env.items()):
        if name.casefold().endswith("_proxy"):
            env[name] = _PROXY_CREDENTIALS.sub(lambda m: m.group("scheme") or "", value.strip())
    # Commands must never stop to ask: no pagers, no credential prompts, no editors.
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat", "NO_COLOR": "1"})
    env.update({"GIT_EDITOR": EDITOR_REFUSAL, "GIT_SEQUENCE_EDITOR": EDITOR_REFUSAL})
    env.update({"EDITOR": "false", "VISUAL": "false"})
    # Python's bytecode cache trusts a module whose size and whole-second mtime match the compiled one; the
    # loop rewrites files and reruns the tests within a second (an edit left out, then put back), so a
    # cache written by one run could serve stale code to the next. Nothing the agent runs writes one.
    env["PYTHONDONTWRITEBYTECODE"] = "1"
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

    def text(self, timeout: float = PIPE_GRACE_S) -> str:
        """What arrived; waits at most `timeout` for the pipe to close (an orphan may hold it open)."""
        self._thread.join(timeout)
        head_bytes, tail_bytes, total = bytes(self.head), bytes(self.tail), self.total
        kept = len(head_bytes) + len(tail_bytes)
        head = head_bytes.decode("utf-8", errors="replace")
        if total <= kept:
            return head + tail_bytes.decode("utf-8", errors="replace")
        cut = total - kept
        tail = tail_bytes.decode("utf-8", errors="replace")
        return f"{head}\n[... {cut:,} bytes of output cut ...]\n{tail}"


class _SubprocessShell:
    kind: ShellKind
    sandbox: Sandbox

    def argv(self, command: str) -> list[str]:
        raise NotImplementedError

    def describe_containment(self) -> str:
        """Which OS layer contains the commands this backend runs."""
        return self.sandbox.describe()

    def contained_argv(self, command: str, cwd: Path) -> list[str]:
        """The argv actually executed (without the descriptors `run` passes along: see `Sandbox.launch`)."""
        return self._reaped(self.sandbox.wrap(self.argv(command), cwd))

    def _reaped(self, argv: list[str]) -> list[str]:
        """`argv` under the reaper where nothing else collects orphans."""
        if not self.sandbox.contains_processes and sys.platform.startswith("linux"):
            argv = [sys.executable, "-I", "-S", str(_REAPER), *argv]
        return argv

    def run(self, command: str, cwd: Path, timeout: float) -> ProcessResult:
        """Run `command` in `cwd`; on timeout or Ctrl-C everything it started is stopped."""
        started = time.monotonic()
        if "\x00" in command:
            return _refused(command, self.kind, "the command contains a NUL byte, which no shell can run")
        kwargs: dict[str, object] = {}
        if os.name == "nt":
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
        else:
            kwargs["start_new_session"] = True
        # The policy engine vetted `command` before it got here.
        try:
            contained = launch(self.sandbox, self.argv(command), cwd)
        except OSError as error:
            return _refused(command, self.kind, f"the sandbox could not be prepared: {error}")
        try:
            proc = subprocess.Popen(
                self._reaped(contained.argv),
                cwd=cwd,
                env=child_environment(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=contained.pass_fds,
                **kwargs,  # type: ignore[call-overload]
            )
        except (OSError, ValueError) as error:
            return _refused(command, self.kind, f"the command could not be started: {error}")
        finally:
            contained.close()
        job = _WindowsJob.attach(proc) if os.name == "nt" else None
        assert proc.stdout is not None and proc.stderr is not None
        out, err = _Capture(proc.stdout), _Capture(proc.stderr)
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _stop_tree(proc, graceful=self.sandbox.contains_processes or _uses_reaper())
        except BaseException:
            _stop_tree(proc, graceful=self.sandbox.contains_processes or _uses_reaper())
            raise
        finally:
            if job is not None:
                job.close()
        if not timed_out and os.name != "nt" and not (self.sandbox.contains_processes or _uses_reaper()):
            # macOS without a reaper: what is still in the command's process group goes with it.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
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


def _uses_reaper() -> bool:
    return sys.platform.startswith("linux")


def _refused(command: str, kind: ShellKind, reason: str) -> ProcessResult:
    return ProcessResult(
        command=command,
        shell=kind,
        exit_code=126,
        stdout="",
        stderr=f"glmagent: {reason}",
        duration_s=0.0,
        stdout_bytes=0,
        stderr_bytes=0,
    )


def _stop_tree(proc: subprocess.Popen[bytes], *, graceful: bool) -> None:
    """Stop a command and everything it started.

    With a reaper or a PID namespace in front of the command, SIGTERM lets that layer kill every
    descendant (even ones in their own sessions) before it exits; whatever is left after a short grace, and
    everything on systems without such a layer, gets SIGKILL by process group.
    """
    if os.name == "nt":
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)], capture_output=True, check=False)
        proc.wait()
        return
    if graceful:
        with contextlib.suppress(ProcessLookupError):
            proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=STOP_GRACE_S)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    proc.wait()


class _WindowsJob:
    """A Windows job object with kill-on-close: closing it ends every process the command started."""

    def __init__(self, handle: int) -> None:
        self.handle = handle

    @classmethod
    def attach(cls, proc: subprocess.Popen[bytes]) -> _WindowsJob | None:
        try:
            import ctypes
            from ctypes import wintypes

            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]

            class _Basic(ctypes.Structure):
                _fields_ = [
                    ("PerProcessUserTimeLimit", ctypes.c_int64),
                    ("PerJobUserTimeLimit", ctypes.c_int64),
                    ("LimitFlags", wintypes.DWORD),
                    ("MinimumWorkingSetSize", ctypes.c_size_t),
                    ("MaximumWorkingSetSize", ctypes.c_size_t),
                    ("ActiveProcessLimit", wintypes.DWORD),
                    ("Affinity", ctypes.c_size_t),
                    ("PriorityClass", wintypes.DWORD),
                    ("SchedulingClass", wintypes.DWORD),
                ]

            class _Io(ctypes.Structure):
                _fields_ = [(name, ctypes.c_uint64) for name in ("r", "w", "o", "rb", "wb", "ob")]

            class _Extended(ctypes.Structure):
                _fields_ = [
                    ("BasicLimitInformation", _Basic),
                    ("IoInfo", _Io),
                    ("ProcessMemoryLimit", ctypes.c_size_t),
                    ("JobMemoryLimit", ctypes.c_size_t),
                    ("PeakProcessMemoryUsed", ctypes.c_size_t),
                    ("PeakJobMemoryUsed", ctypes.c_size_t),
                ]

            job = kernel32.CreateJobObjectW(None, None)
            if not job:
                return None
            info = _Extended()
            info.BasicLimitInformation.LimitFlags = 0x2000  # JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
            extended_limit_information = 9
            kernel32.SetInformationJobObject(
                job, extended_limit_information, ctypes.byref(info), ctypes.sizeof(info)
            )
            kernel32.AssignProcessToJobObject(job, int(proc._handle))  # type: ignore[attr-defined]
            return cls(job)
        except (OSError, AttributeError, ImportError):
            return None

    def close(self) -> None:
        import ctypes

        ctypes.WinDLL("kernel32").CloseHandle(self.handle)  # type: ignore[attr-defined]


class PosixShell(_SubprocessShell):
    """`/bin/sh -c COMMAND`."""

    kind: ShellKind = "posix"

    def __init__(self, executable: str = "/bin/sh", sandbox: Sandbox | None = None) -> None:
        self.executable = executable
        self.sandbox = sandbox or NoSandbox()

    def argv(self, command: str) -> list[str]:
        return [self.executable, "-c", command]


class PowerShell(_SubprocessShell):
    """`pwsh` (or Windows PowerShell) with `-NoProfile -NonInteractive -EncodedCommand BASE64`.

    The command travels base64-encoded (UTF-16LE), so no Windows argv quoting layer can change the text the
    policy checked.
    """

    kind: ShellKind = "powershell"

    def __init__(self, executable: str | None = None, sandbox: Sandbox | None = None) -> None:
        self.sandbox = sandbox or NoSandbox()
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
        return [self.executable, "-NoProfile", "-NonInteractive", "-EncodedCommand", encode_command(command)]


def encode_command(command: str) -> str:
    """PowerShell's `-EncodedCommand` form: base64 of the UTF-16LE text."""
    return base64.b64encode(command.encode("utf-16-le")).decode("ascii")


def decode_command(encoded: str) -> str:
    """The inverse of `encode_command`."""
    return base64.b64decode(encoded).decode("utf-16-le")


def resolve_shell_kind(choice: ShellChoice) -> ShellKind:
    """`auto` means PowerShell on Windows and POSIX sh everywhere else."""
    if choice == "auto":
        return "powershell" if sys.platform == "win32" else "posix"
    if choice not in ("posix", "powershell"):
        raise ConfigError(f"unknown shell {choice!r}; use auto, posix or powershell")
    return choice


def make_shell(choice: ShellChoice, sandbox: Sandbox | None = None) -> ShellBackend:
    """Build the backend for `--shell auto|posix|powershell`, running its commands inside `sandbox`."""
    kind = resolve_shell_kind(choice)
    return PowerShell(sandbox=sandbox) if kind == "powershell" else PosixShell(sandbox=sandbox)
