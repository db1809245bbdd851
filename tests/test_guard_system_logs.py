"""Reading the machine's own logs (ATT&CK log enumeration): the systemd journal, the kernel ring buffer, the
audit trail, macOS's unified log and the files under /var/log (also `/private/var/log`,
`~/Library/Logs`) record what every user and service did, so reading them is env. The project's own logs,
`git log`, `docker logs` of the project's container and a log folder inside the project stay allowed."""

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
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_reading_the_machines_logs_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.system-logs")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_projects_own_logs_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
