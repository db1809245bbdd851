"""Shell-history tampering, on both backends: erasing the history, switching it off or pointing it elsewhere
(`history -c`, `unset HISTFILE`, `HISTFILE=/dev/null`, `export HISTFILESIZE=0`, `set +o history`,
`Clear-History`, `Set-PSReadLineOption -HistorySaveStyle SaveNothing`), and any handling of the history
file (`rm -f "$HISTFILE"`, `ln -sf /dev/null ~/.bash_history`, `Remove-Item
(Get-PSReadlineOption).HistorySavePath`) removes the trail of what was run. Reading the history or turning
it on stays allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

TAMPERING = [
    ("posix", "history -c", "destructive.machine-state"),
    ("posix", "history -d 5", "destructive.machine-state"),
    ("posix", "history -w /dev/null", "destructive.machine-state"),
    ("posix", "unset HISTFILE", "destructive.machine-state"),
    ("posix", "export HISTFILESIZE=0", "destructive.machine-state"),
    ("posix", "export HISTFILE=/dev/null", "destructive.machine-state"),
    ("posix", "set +o history", "destructive.machine-state"),
    ("posix", "HISTFILE=/dev/null", "destructive.machine-state"),
    ("posix", "HISTSIZE=0", "destructive.machine-state"),
    ("posix", "HISTFILE= bash -c 'make build'", "destructive.machine-state"),
    ("posix", "sh -c 'HISTFILESIZE=0'", "destructive.machine-state"),
    ("posix", 'rm -f "$HISTFILE"', "destructive.machine-state"),
    ("posix", "cat /dev/null > $HISTFILE", "destructive.machine-state"),
    ("posix", "ln -sf /dev/null ~/.bash_history", "destructive"),
    ("posix", "rm ~/.bash_history", "destructive.machine-state"),
    ("powershell", "Clear-History", "destructive.machine-state"),
    ("powershell", "Set-PSReadlineOption -HistorySaveStyle SaveNothing", "destructive.machine-state"),
    ("powershell", "Remove-Item (Get-PSReadlineOption).HistorySavePath", "destructive.machine-state"),
    ("powershell", "ri (Get-PSReadLineOption).HistorySavePath -Force", "destructive.machine-state"),
    ("powershell", "[Microsoft.PowerShell.PSConsoleReadLine]::ClearHistory()", "destructive.machine-state"),
    # PowerShell's own event log of script blocks, switched off through its engine's type
    (
        "powershell",
        "[System.Management.Automation.Logging.PSEventLogProvider]::EventLoggingEnabled = $false",
        "destructive.machine-state",
    ),
]

KEPT = [
    ("posix", "history"),
    ("posix", "history | tail -20"),
    ("posix", "set -o history"),
    ("posix", "set +o errexit"),
    ("posix", "HISTSIZE=10000"),
    ("posix", "export HISTSIZE=5000"),
    ("posix", "grep -c . ~/.bash_history.example"),
    ("powershell", "Get-History"),
    ("powershell", "Get-PSReadLineOption"),
    ("powershell", "Set-PSReadLineOption -EditMode Emacs"),
    ("powershell", "[Net.ServicePointManager]::SecurityProtocol = [Net.SecurityProtocolType]::Tls12"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), TAMPERING)
def test_history_tampering_is_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), KEPT)
def test_reading_or_keeping_history_is_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
