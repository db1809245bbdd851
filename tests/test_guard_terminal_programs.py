"""Programs that run what is typed at the terminal: a shell or interpreter with no script, file or piped
text (`bash`, `sudo -i`, `nice /bin/sh`, `find -exec /bin/sh`, `python`, `pwsh`), one fed `/dev/tty`, and
editors, debuggers and consoles. An unattended agent has nobody to type, and what would be typed is
unknown. The same programs given their script, a batch flag or asked for their version stay allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "bash"),
    ("posix", "/bin/sh"),
    ("posix", "sudo /bin/sh"),
    ("posix", "sudo -i"),
    ("posix", "su"),
    ("posix", "nice -n 5 /bin/sh"),
    ("posix", "aa-exec /bin/sh"),
    ("posix", "stdbuf -i0 /bin/sh"),
    ("posix", "find . -exec /bin/sh \\; -quit"),
    ("posix", "watch 'reset; exec /bin/sh 1>&0 2>&0'"),
    ("posix", "nohup /bin/sh -c '/bin/sh </dev/tty >/dev/tty 2>/dev/tty'"),
    ("posix", "python3"),
    ("posix", "bash --rcfile ./dev.rc -i"),
    ("posix", "script -q /dev/null"),
    ("posix", "vim"),
    ("posix", "vi notes.txt"),
    ("posix", "emacs notes.txt"),
    ("posix", "nano /etc/hosts"),
    ("posix", "ed"),
    ("posix", "gdb ./a.out"),
    ("posix", "irb"),
    ("posix", "minicom -D /dev/ttyUSB0"),
    ("powershell", "pwsh"),
    ("powershell", "powershell -NoProfile"),
    ("powershell", "cmd"),
    ("powershell", "Invoke-Expression"),
]

ALLOWED = [
    ("posix", "bash build.sh"),
    ("posix", "sh -c 'make test'"),
    ("posix", "echo 'make test' | sh"),
    ("posix", "sh < setup.sh"),
    ("posix", "bash --version"),
    ("posix", "python --version"),
    ("posix", "python3 -V"),
    ("posix", "python -m pytest -q"),
    ("posix", "node --help"),
    ("posix", "node -v"),
    ("posix", "ruby script.rb"),
    ("posix", "sudo -u ci make test"),
    ("posix", "su -c 'make test' ci"),
    ("posix", "gdb -batch -ex run --args ./a.out"),
    ("posix", "vim --version"),
    ("posix", "less README.md"),
    ("powershell", "pwsh -File build.ps1"),
    ("powershell", "pwsh --version"),
    ("powershell", "cmd /c dir"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_a_program_reading_the_terminal_is_unverifiable(shell: str, command: str) -> None:
    guard_blocks(shell, command, "unverifiable.terminal-program")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_given_a_script_or_asked_for_its_version_it_is_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
