"""Hidden windows: starting a program in a window the user cannot see (`Start-Process x -WindowStyle Hidden`,
`powershell -w hidden -File x.ps1`) is evasion, never building, so it is blocked on both backends whatever
the spelling of the option and its value (`-w h`, `-win hid`, `-WindowStyle:Hidden`, `1`); a style only known
at run time may be hidden. A normal, maximised or minimised window, and `-NoNewWindow`, stay allowed: their
output is there to see (`cmd /c start /min` leaves the window on the task bar)."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

HIDDEN = [
    ("powershell", "Start-Process powershell.exe -WindowStyle hidden calc.exe"),
    ("powershell", "Start-Process calc.exe -WindowStyle Hidden"),
    ("powershell", "Start-Process notepad -w h"),
    ("powershell", "Start-Process notepad -win hid"),
    ("powershell", "saps x.exe -WindowStyle:Hidden"),
    ("powershell", "Start-Process -FilePath calc.exe -WindowStyle 1"),
    (
        "powershell",
        "Start-Process -FilePath calc.exe -WindowStyle ([Diagnostics.ProcessWindowStyle]::Hidden)",
    ),
    ("powershell", "Start-Process x.exe -WindowStyle $style"),
    ("powershell", "powershell -WindowStyle Hidden -File x.ps1"),
    ("powershell", "powershell -w hidden -File build.ps1"),
    ("powershell", 'powershell.exe -win h -c "Get-Date"'),
    ("powershell", "pwsh -WindowStyle Hidden -Command dotnet build"),
    ("powershell", "cmd /c powershell -w 1 -nop -c Get-Date"),
    ("posix", "powershell -WindowStyle Hidden -File x.ps1"),
    ("posix", "pwsh.exe -w hidden -nop -c Get-Date"),
    ("posix", "Start-Process calc.exe -WindowStyle Hidden"),
]

VISIBLE = [
    ("powershell", "Start-Process dotnet -ArgumentList build -NoNewWindow -Wait"),
    ("powershell", "Start-Process pwsh -ArgumentList '-File build.ps1' -WindowStyle Normal"),
    ("powershell", "Start-Process notepad -WindowStyle Maximized"),
    ("powershell", "Start-Process dotnet -Wait -ArgumentList build"),
    ("powershell", "powershell -NoProfile -File build.ps1"),
    ("powershell", "powershell -w normal -File build.ps1"),
    ("powershell", "cmd /c start /min build.bat"),
    ("powershell", "Write-Output '-WindowStyle Hidden'"),
    ("posix", "pwsh -NoProfile -File build.ps1"),
    ("posix", "echo powershell -w hidden"),
]


@pytest.mark.parametrize(("shell", "command"), HIDDEN)
def test_hidden_window_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "unverifiable.hidden-window")


@pytest.mark.parametrize(("shell", "command"), VISIBLE)
def test_visible_window_is_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
