"""Run one command and make sure everything it started is gone when it ends (Linux, no OS sandbox).

Started as `python -I -S _reaper.py ARGV...` by the shell backend, this process marks itself a child
subreaper (`PR_SET_CHILD_SUBREAPER`), so every descendant of the command that loses its parent — background
jobs, `setsid` daemons, double-forked servers — is re-parented here instead of escaping to init. When the
command exits, or when the agent asks it to stop (SIGTERM, or the agent dying: `PR_SET_PDEATHSIG`), the reaper
kills all remaining descendants and exits with the command's status, so no orphan keeps the output pipes open.

It deliberately imports nothing from glmagent: it must start fast and run with `-I -S`.
"""

from __future__ import annotations

# The C module `_signal`, not `signal` (which imports enum), and no contextlib: 8 ms less per command.
import _signal as signal
import ctypes
import os
import sys

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


class _StopRequested(Exception):
    """The agent asked the command to stop (timeout, Ctrl-C, or the agent itself ending)."""


def _prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _children() -> list[int]:
    """Direct children of this process (re-parented orphans included)."""
    me = os.getpid()
    found: list[int] = []
    try:
        with open(f"/proc/{me}/task/{me}/children", encoding="ascii") as handle:
            return [int(pid) for pid in handle.read().split()]
    except OSError:
        pass  # kernels without CONFIG_PROC_CHILDREN: scan every process's parent instead
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                stat = handle.read()
        except OSError:
            continue
        # The command name (field 2) may contain spaces and parentheses: parse after its closing paren.
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[1] == str(me):
            found.append(int(entry))
    return found


def _kill_descendants() -> None:
    """SIGKILL every descendant; orphans of the killed re-parent here, so repeat until none is left."""
    for _ in range(1000):
        children = _children()
        if not children:
            break
        for pid in children:
            try:  # noqa: SIM105
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _reap(block=True)
    _reap(block=False)


def _reap(*, block: bool) -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        block = False  # one blocking wait per round is enough; then collect what is ready


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: _reaper.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)

    def on_stop(signum: int, frame: object) -> None:
        # Raising is the only way out of a blocking waitpid: Python retries it after a handler returns.
        raise _StopRequested

    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, on_stop)
    try:
        command = os.fork()
    except OSError as error:
        print(f"glmagent: cannot start the command: {error}", file=sys.stderr)
        return 126
    if command == 0:
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(signum, signal.SIG_DFL)
        try:
            os.execvp(argv[0], argv)
        except OSError as error:
            print(f"glmagent: cannot run {argv[0]}: {error.strerror}", file=sys.stderr)
        os._exit(127)
    status = 0
    try:
        while True:
            try:
                pid, raw = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            if pid == command:
                status = os.waitstatus_to_exitcode(raw)
                break
    except _StopRequested:
        status = 128 + signal.SIGTERM
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, signal.SIG_IGN)  # finish the clean-up even if asked twice
    _kill_descendants()
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
