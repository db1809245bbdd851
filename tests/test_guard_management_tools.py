"""Dump and management tools on Windows: a debugger-driven process dumper (`adplus`, like `procdump`) reads
another process's memory; writing WMI objects (`Set-CimInstance`, `Set-WmiInstance`, `New-CimInstance`)
changes the machine's own configuration; and the options that name the server of SQL Server's clients, Device
Console and the certificate services (`sqlcmd -S host\\INST`, `devcon -m:\\\\host`, `certutil -config
host\\CA`) reach another machine. The same programs used locally stay allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("adplus.exe -c payload.xml", "env.credential-dump"),
    ("adplus -crash -pid 1234 -o out", "env.credential-dump"),
    (
        "Set-CimInstance -Query \"SELECT * FROM Win32_Environment WHERE Name='x'\" -Property @{Value='y'}",
        "destructive.machine-state",
    ),
    (
        "Set-WmiInstance -Class Win32_Environment -Argument @{Name='x';VariableValue='y';UserName='x'}",
        "destructive.machine-state",
    ),
    ("swmi -Class Win32_Environment -Argument @{Name='x'}", "destructive.machine-state"),
    (
        "New-CimInstance -ClassName Win32_Environment -Property @{Name='x';VariableValue='y'}",
        "destructive.machine-state",
    ),
    (
        "Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine='calc.exe'}",
        "unverifiable",
    ),
    ('sqlcmd -S host\\inst -Q "select 1"', "network.locator"),
    ('sqlcmd.exe -S dbserver -Q "select 1"', "network.locator"),
    ('osql -S host -E -Q "select 1"', "network.locator"),
    ("bcp db.dbo.t out t.dat -S host\\inst -T", "network.locator"),
    ('Invoke-Sqlcmd -ServerInstance host\\inst -Query "select 1"', "network.locator"),
    ("devcon -m:\\\\host find *", "network.locator"),
    ("devcon.exe -m:\\\\host status *", "network.locator"),
    ("certutil -config host\\CA -ping", "network.locator"),
    ('certutil -config "ca01.corp.local\\Corp-CA" -view', "network.locator"),
    ("certreq -submit -config ca01\\Corp-CA req.csr", "network"),
]

ALLOWED = [
    'sqlcmd -S localhost -Q "select 1"',
    "sqlcmd -S .\\SQLEXPRESS -i schema.sql",
    'sqlcmd -S "(localdb)\\MSSQLLocalDB" -i schema.sql',
    'sqlcmd -S tcp:127.0.0.1,1433 -Q "select 1"',
    "sqlcmd -S localhost -U sa -P x -s '|' -W -Q 'select 1'",
    'Invoke-Sqlcmd -ServerInstance localhost -Query "select 1"',
    "devcon find *",
    "certutil -hashfile app.zip SHA256",
    "Get-CimInstance Win32_Process",
    "New-CimInstance -ClassName Win32_Share -ClientOnly -Property @{Name='x'}",
    "gcc -S main.c",
]


@pytest.mark.parametrize(("command", "expected"), BLOCKED)
def test_dumps_wmi_writes_and_remote_servers_are_blocked(command: str, expected: str) -> None:
    guard_blocks("powershell", command, expected)


@pytest.mark.parametrize("command", ALLOWED)
def test_local_uses_of_the_same_tools_stay_allowed(command: str) -> None:
    guard_allows("powershell", command)


def test_posix_namesakes_keep_their_meaning() -> None:
    guard_allows("posix", "certutil -d sql:$HOME/.pki/nssdb -L")
    guard_allows("posix", "sqlcmd -S localhost -U sa -P x -s , -Q 'select 1'")
    guard_blocks("posix", "sqlcmd -S db01.corp.local -Q 'select 1'", "network.locator")
