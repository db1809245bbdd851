"""Obfuscated text fed to a shell or interpreter: a script decoded (`base64 -d`, `xxd -r`, `openssl enc -d`)
or reversed (`rev`) before a shell or interpreter reads it as its program is hidden on purpose, so it is
unverifiable whatever it decodes to today (a decoded delete is still reported as the delete). Beside each,
decoding into a file or an archive tool, and plain text piped into a shell, stay allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

HARMLESS = "ZWNobyBoaQo="  # base64 of `echo hi`

BLOCKED = [
    ("posix", f"echo {HARMLESS} | base64 -d | bash", "unverifiable.decoded-script"),
    (
        "posix",
        "echo IyEvYmluL2Jhc2gKZWNobyAiaHR0cHM6Ly93d3cueW91dHViZS5jb20vQGF0b21pY3NvbmFmcmlkYXkgRlRXIgo= "
        "| base64 -d | bash",
        "unverifiable.decoded-script",
    ),
    ("posix", f"echo {HARMLESS} | base64 --decode | /bin/sh", "unverifiable.decoded-script"),
    ("posix", f"echo {HARMLESS} | base64 -di | sudo bash", "unverifiable.decoded-script"),
    ("posix", f"echo {HARMLESS} | base64 -d | bash -s -- arg", "unverifiable.decoded-script"),
    ("posix", f"echo {HARMLESS} | base64 -d | grep -v '^#' | zsh", "unverifiable.decoded-script"),
    ("posix", "base64 -d x.b64 | python3 -", "unverifiable.decoded-script"),
    ("posix", "xxd -r -p payload.hex | sh", "unverifiable.decoded-script"),
    # PowerShell handed its script encoded, under any spelling of the option
    ("powershell", "powershell -NoP -W Hidden -Enc ZQBjAGgAbwAgAGgAaQA=", "unverifiable.decoded-script"),
    ("powershell", "powershell \u2013encodedcommand ZQBjAGgAbwAgAGgAaQA=", "unverifiable.decoded-script"),
    ("powershell", "powershell.exe /e ZQBjAGgAbwAgAGgAaQA=", "unverifiable.decoded-script"),
    ("posix", "pwsh -ec ZQBjAGgAbwAgAGgAaQA=", "unverifiable.decoded-script"),
    ("posix", "openssl enc -base64 -d -in x.b64 | bash", "unverifiable.decoded-script"),
    ("posix", "echo 'ih ohce' | rev | sh", "unverifiable.decoded-script"),
    ("posix", f'sh -c "$(echo {HARMLESS} | base64 -d)"', "unverifiable"),
    ("posix", f'eval "$(echo {HARMLESS} | base64 -d)"', "unverifiable"),
    # What it decodes to is still read: a delete is reported as the delete.
    ("posix", "echo cm0gLXJmIH4K | base64 -d | sh", "destructive"),
]

ALLOWED = [
    ("posix", "base64 -d data.b64 | tar -xz"),
    ("posix", "base64 -d -i data.b64 -o out.bin"),
    ("posix", "echo 'make test' | sh"),
    ("posix", "echo eyJ4IjoxfQ== | base64 -d | python -m json.tool"),
    ("posix", "base64 -d x.b64 | python3 tools/read.py"),
    ("posix", "echo hi | base64 | sh -c 'cat > /dev/null'"),
    ("posix", "bash -s < scripts/ci.sh"),
    ("powershell", "pwsh -NoProfile -Command Invoke-Pester"),
    ("powershell", "powershell -NoProfile -File build.ps1 -Configuration Release"),
    ("powershell", "pwsh -File tools/gen.ps1 -Environment test"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_decoded_text_fed_to_a_shell_or_interpreter_is_blocked(
    shell: str, command: str, expected: str
) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_decoding_into_files_and_plain_scripts_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
