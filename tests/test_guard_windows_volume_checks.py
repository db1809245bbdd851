"""Windows volume checks, defragmenting and package-manager settings, read or changed.

`defrag`'s progress and verbose switches (`/u`, `/v`) spared the command as if it only analysed, though
without `/a` it defragments; `chkntfs` sets which volumes the boot-time check skips or runs; `winget
settings --enable` turns an administrator's setting on for the machine. Each blocked line has a twin that
only reads: an analysis, a volume's dirty bit, a mount point listed, the settings exported. A folder
made case-sensitive is the project's business inside it and the machine's outside it. The ports the
machine listens on are read by `Get-NetTCPConnection -State Listen` wherever `Listen` stands among its
filters (`-LocalPort 443 -State Listen`), but not beside another state, whose connections are to other hosts.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

MACHINE = "destructive.machine-state"
DISCOVERY = "env.machine-discovery"

BLOCKED = [
    ("powershell", "defrag D: /U /V", MACHINE),
    ("powershell", "defrag.exe E: /V", MACHINE),
    ("powershell", "defrag C: -u -v", MACHINE),
    ("powershell", "defrag D: /L /U", MACHINE),
    ("powershell", "chkntfs /x D: E:", MACHINE),
    ("powershell", "chkntfs.exe /C D:", MACHINE),
    ("powershell", "chkntfs /D", MACHINE),
    ("powershell", "chkntfs /t:5", MACHINE),
    ("powershell", "mountvol E:\\mnt /d", "destructive.disk-format"),
    ("powershell", "winget settings --enable InstallerHashOverride", MACHINE),
    ("powershell", "winget settings --disable LocalArchiveMalwareScanOverride", MACHINE),
    ("powershell", "winget settings", MACHINE),
    ("powershell", "fsutil file setCaseSensitiveInfo D:\\work enable", MACHINE),
    ("powershell", "fsutil.exe file setcasesensitiveinfo %USERPROFILE%\\src disable", MACHINE),
    ("powershell", "fsutil file setCaseSensitiveInfo ..\\sibling enable", MACHINE),
    ("powershell", "Get-NetTCPConnection -LocalPort 443", DISCOVERY),
    ("powershell", "Get-NetTCPConnection -LocalPort 8000 -State Established", DISCOVERY),
    ("powershell", "Get-NetTCPConnection -State Listen,Established", DISCOVERY),
    ("powershell", "Get-NetTCPConnection -State TimeWait, Listen -LocalPort 80", DISCOVERY),
]

ALLOWED = [
    ("powershell", "defrag D: /A /U /V"),
    ("powershell", "defrag.exe E: /A /V"),
    ("powershell", "defrag /?"),
    ("powershell", "chkntfs D:"),
    ("powershell", "chkntfs.exe E:"),
    ("powershell", "chkntfs /?"),
    ("powershell", "mountvol E:\\mnt /L"),
    ("powershell", "winget settings export"),
    ("powershell", "winget list"),
    ("powershell", "fsutil file setCaseSensitiveInfo .\\src enable"),
    ("powershell", "fsutil.exe file setcasesensitiveinfo build disable"),
    ("powershell", "fsutil file queryCaseSensitiveInfo D:\\work"),
    ("powershell", "Get-NetTCPConnection -LocalPort 443 -State Listen"),
    ("powershell", "Get-NetTCPConnection -State Listen -LocalAddress 127.0.0.1 | Select-Object LocalPort"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_windows_volume_and_settings_changes_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_windows_volume_and_settings_reads_are_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
