"""Network by argument, continued: a machine named without a scheme or a port. An option whose value is the
machine a program acts on (`-ComputerName dc01`, `--dc-ip 10.0.0.1`, `/node:srv`, `--host db.corp.local`), a
PowerShell parameter holding a session on one (`-CimSession $s`), a bare IPv4 address of another machine, or a
Windows machine name `\\\\host` given to a program the policy knows nothing about. This machine's own names
(`localhost`, loopback, `0.0.0.0`, `.`), network ranges, netmasks, versions, build targets and a script's own
parameters that happen to share a name stay allowed."""

from __future__ import annotations

import pytest
from conftest import every_case, guard_allows, guard_blocks

from glmagent.guard._locators import MachineOptions, is_local_host, names_address

BLOCKED = [
    # Options whose value is the machine, whatever it is called.
    ("posix", "python3 GetUsers.py corp.local/ -dc-ip 10.10.10.1 -usersfile users.txt"),
    ("posix", "mytool --dc-ip=10.1.2.3 --list"),
    ("posix", "mytool -dc DC01 -u alice"),
    ("powershell", 'net groups "Account Operators" /domain'),
    ("powershell", "net share /domain:corp"),
    ("posix", "mytool --kdcHost dc01 query"),
    ("posix", 'mytool --rhost "$TARGET" run'),
    ("posix", "sudo mytool --remote-host build7 sync"),
    # Options that name a machine when the value can only be a host.
    ("posix", "mytool --host db.corp.local --port 5432"),
    ("posix", "mytool --host=10.20.30.40"),
    ("posix", "mytool --server backup.example.com push"),
    ("posix", "collect.sh --domain corp.local --ns 10.0.0.53"),
    ("posix", "mytool --proxy 10.9.8.7"),
    # Bare addresses.
    ("posix", "mytool 192.168.1.20"),
    ("posix", "enum-things -a 10.10.10.10"),
    ("posix", "python3 scan.py 10.0.0.5/32"),
    ("posix", "mytool /opt/version 10.1.2.3"),
    ("posix", "mytool --peer=172.16.4.2,172.16.4.3"),
    ("posix", "mytool 8.8.8.8"),
    # PowerShell parameters and Windows switches holding a machine or a session on one.
    ("powershell", "Get-Service -ComputerName dc01"),
    ("powershell", "Get-Disk -CimSession $s"),
    ("powershell", "Copy-Item x.txt -ToSession $s C:\\x"),
    ("powershell", "Get-Disk -cn srv"),
    ("powershell", "Get-Thing -ComputerName:srv02"),
    ("powershell", "mytool -Server ad.corp.local"),
    ("powershell", "w32tm /query /computer:dc01 /status"),
    ("powershell", "qwinsta.exe /server:ts01.corp.local"),
    ("powershell", "tool.exe /node:srv01 list"),
    ("powershell", "psloggedon.exe \\\\W10.corp.local"),
    ("powershell", "mytool.exe \\\\fileserver"),
    ("powershell", "mytool.exe 10.1.1.5"),
]

ALLOWED = [
    # This machine's own names.
    ("posix", "./runtest --host 127.0.0.1 --port 6379"),
    ("posix", "mytool --host localhost"),
    ("posix", "mytool --bind 0.0.0.0"),
    ("posix", "mytool --host=0.0.0.0"),
    ("posix", "vite --host --port 3000"),
    ("posix", "mytool --dc-ip 127.0.0.1"),
    # Values that are not machines.
    ("posix", "cargo build --target x86_64-unknown-linux-gnu"),
    ("posix", "./configure --host=x86_64-w64-mingw32"),
    ("posix", "mytool --target wasm32-wasip2"),
    ("posix", "mytool --host db"),
    ("posix", 'mytool --host "$HOST"'),
    ("posix", "mytool --server dc1"),
    ("posix", "pybabel compile -D messages -d locale"),
    ("posix", "mytool --domain messages"),
    ("posix", "mytool -dc 3"),
    ("posix", "mytool --server=local"),
    # Ranges, netmasks, networks, versions.
    ("posix", "docker network create --subnet 172.28.0.0/16 testnet"),
    ("posix", "./scripts/gen.sh 10.0.0.0/8"),
    ("posix", "mytool --netmask 255.255.255.0"),
    ("posix", "python bump.py 1.0.0.0"),
    ("posix", "mytool --version 10.3.4.5"),
    ("posix", "./build.sh --set-version 2.1.3.4"),
    ("posix", "npm version 1.2.3.4"),
    ("posix", "cargo set-version 1.2.3.4"),
    ("posix", "./wait-for.sh 127.0.0.1 -t 30"),
    ("posix", "echo 10.0.0.5"),
    ("posix", "grep -rn 10.0.0.5 logs/"),
    ("powershell", "dotnet pack -p:Version=1.2.3.4"),
    ("powershell", "dotnet build -p:AssemblyVersion=2.1.3.4"),
    ("powershell", "nuget pack x.nuspec -Version 1.2.3.4"),
    ("powershell", "Update-ModuleManifest -Path x.psd1 -ModuleVersion 1.2.3.4"),
    # A script's own parameters that share a name with a machine switch.
    ("powershell", ".\\build.ps1 -Configuration Release -Node 18"),
    ("powershell", ".\\build.ps1 -Server local"),
    ("powershell", ".\\build.ps1 -Remote origin"),
    ("powershell", "Get-Thing -ComputerName ."),
    ("powershell", "Get-Thing -ComputerName localhost"),
    ("powershell", 'tasklist /fi "imagename eq x.exe"'),
    ("powershell", "dir /s *.cs"),
    ("powershell", "robocopy src dst /s"),
    ("powershell", "Write-Output \\\\fileserver"),
]


def test_a_machine_named_by_an_option_or_an_address_is_network() -> None:
    every_case(BLOCKED, lambda shell, command: guard_blocks(shell, command, "network"))


def test_this_machine_and_values_that_are_no_machine_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


def test_which_words_hold_an_address_of_another_machine() -> None:
    def holds_an_address(word: str, expected: bool) -> None:
        assert names_address(word) is expected, word

    cases = [
        ("10.0.0.1", True),
        ("--dc-ip=10.0.0.1", True),
        ("/dc:10.0.0.1", True),
        ("10.0.0.1:445", True),
        ("10.1.1.1,10.1.1.2", True),
        ("127.0.0.1", False),
        ("0.0.0.0", False),
        ("255.255.255.0", False),
        ("10.0.0.0", False),
        ("10.0.0.0/8", False),
        ("10.0.0.7/32", True),
        ("AssemblyVersion=1.2.3.4", False),
        ("v1.2.3.4", False),
        ("1.3.6.1.2.1", False),
        ("10.0.19041.1", False),
        ("256.1.1.1", False),
    ]
    every_case(cases, holds_an_address)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("localhost", True),
        ("127.0.0.1:8080", True),
        ("0.0.0.0", True),
        (".", True),
        ("'[::1]'", True),
        ("\\\\localhost", True),
        ("dc01", False),
        ("10.0.0.1", False),
    ],
)
def test_this_machine_has_its_own_names(value: str, expected: bool) -> None:
    assert is_local_host(value) is expected


def test_parameters_and_switches_count_only_written_their_own_way() -> None:
    options = MachineOptions(["dc-ip"], ["host"], ["-cimsession", "/node"], windows=True)
    assert options.hit(["-CimSession", "$"], [True, False], "$") == "-CimSession $…"
    assert options.hit(["/node:srv"], [False], "$") == "/node:srv"
    assert options.hit(["-node", "18"], [True, False], "$") is None
    assert options.hit(["/cimsession", "s"], [False, False], "$") is None
    assert options.hit(["--host", "$"], [False, False], "$") is None  # a host option needs a host
    assert options.hit(["--dc-ip", "$"], [False, False], "$") == "--dc-ip $…"
    posix = MachineOptions(["dc-ip"], ["host"], ["/node"], windows=False)
    assert posix.hit(["/node:srv"], [False], "$") is None  # a path on POSIX
    assert not posix.screen("/node:srv")
    assert options.screen("a\n/node:srv") and not options.screen("a\nb")
