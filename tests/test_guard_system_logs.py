"""Reading the machine's own logs (ATT&CK log enumeration): the systemd journal, the kernel ring buffer, the
audit trail, macOS's unified log, the files under /var/log (also `/private/var/log`, `~/Library/Logs`) and
Windows' event logs record what every user and service did, so reading them is env. The project's own logs,
`git log`, `docker logs` of the project's container, a log folder inside the project and the tools' own help
stay allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "journalctl"),
    ("posix", "journalctl --no-pager --user --unit docker.service -n 50"),
    ("posix", "sudo journalctl -xe"),
    ("posix", "dmesg -H"),
    ("posix", "/usr/bin/dmesg | tail"),
    ("posix", "tail /var/log/ufw.log"),
    ("posix", "sudo cat /var/log/install.log"),
    ("posix", "grep -ri 'Accepted password' /var/log/auth.log"),
    ("posix", "ls -la /var/log/"),
    ("posix", "zcat /var/log/syslog.2.gz"),
    ("posix", "less /private/var/log/system.log"),
    ("posix", "cat ~/Library/Logs/DiagnosticReports/x.crash"),
    ("posix", "log show --info --debug --predicate 'eventMessage CONTAINS[d] \"eyJ\"'"),
    ("posix", "log stream --level debug"),
    ("posix", "ausearch -m USER_LOGIN"),
    ("powershell", "Get-WinEvent -LogName Security -MaxEvents 20"),
    ("powershell", "Get-WinEvent -FilterHashtable @{LogName='System'; Id=7045}"),
    ("powershell", "Get-EventLog -LogName Application -Newest 5"),
    ("powershell", "Get-EventLog -List"),
    ("powershell", "wevtutil qe Security /c:10 /f:text"),
    ("powershell", "wevtutil.exe query-events System /rd:true"),
    ("powershell", "wevtutil epl System C:\\Temp\\sys.evtx"),
    ("powershell", "wevtutil el"),
    ("powershell", "cmd /c wevtutil gli Security"),
    ("posix", "Get-WinEvent -LogName Security"),
    ("posix", "wevtutil.exe qe Security"),
    # the event log files themselves
    ("powershell", "copy C:\\Windows\\System32\\winevt\\Logs\\security.evtx"),
    ("powershell", "Copy-Item C:\\Windows\\System32\\winevt\\Logs\\System.evtx -Destination ."),
]

ALLOWED = [
    ("posix", "tail -n 50 logs/app.log"),
    ("posix", "cat build/test.log"),
    ("posix", "grep -r error ./var/log"),
    ("posix", "git log --oneline -5"),
    ("posix", "docker logs app"),
    ("posix", "npm run log"),
    ("posix", "ls log/"),
    ("powershell", "Get-Content .\\logs\\build.log -Tail 20"),
    ("powershell", "wevtutil /?"),
    ("powershell", "Get-Help Get-WinEvent"),
    ("powershell", "Get-Content .\\logs\\events.evtx.txt"),
    ("powershell", "Copy-Item .\\fixtures\\Security.evtx -Destination out\\"),
    ("powershell", "Select-String -Pattern Get-EventLog -Path *.md"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_reading_the_machines_logs_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.system-logs")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_projects_own_logs_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
