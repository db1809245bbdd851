"""Credentials and accounts: account and password changes on every system, dumps of the login service and
the account databases (directly or through shadow copies), registry and disk hunts for passwords and keys,
keychains, browser and password-manager stores, installation answer files. Beside each, the same program
used for ordinary work stays allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "useradd -m -s /bin/bash art", "env.accounts"),
    ("posix", "sudo usermod -aG sudo dev", "env.accounts"),
    ("posix", "echo 'dev:secret' | chpasswd", "env.accounts"),
    ("posix", "passwd dev", "env.accounts"),
    ("posix", "dscl . -create /Users/art", "env.accounts"),
    ("posix", "sysadminctl -addUser art -password x", "env.accounts"),
    ("powershell", "net user art P@ss /add", "env.accounts"),
    ("powershell", "New-LocalUser art -NoPassword", "env.accounts"),
    ("powershell", "Add-LocalGroupMember -Group Administrators -Member art", "env.accounts"),
    ("powershell", "procdump -accepteula -ma lsass.exe lsass.dmp", "env"),
    ("powershell", 'ntdsutil "ac i ntds" "ifm" "create full C:\\t" q q', "env.credential-dump"),
    ("powershell", "reg save HKLM\\SAM sam.hiv", "env"),
    ("powershell", "reg.exe save hklm\\system system.hiv", "env"),
    ("powershell", "vssadmin create shadow /for=C:", "destructive.machine-state"),
    (
        "powershell",
        "copy \\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\Windows\\NTDS\\ntds.dit x.dit",
        "env",
    ),
    ("powershell", "reg query HKLM /f password /t REG_SZ /s", "env.credential-dump"),
    ("powershell", "cmdkey /list", "env"),
    ("powershell", "type C:\\Windows\\Panther\\unattend.xml", "env.credential-dump"),
    ("posix", "find / -name id_rsa -exec cp {} /tmp \\;", "env"),
    ("posix", "find ~ -name '*.kdbx'", "env"),
    ("posix", "security dump-keychain -d login.keychain", "env"),
    ("posix", "security find-generic-password -wa Chrome", "env"),
    ("posix", "cp ~/Library/Keychains/login.keychain-db /tmp/k", "env"),
    ("posix", "unshadow /etc/passwd /etc/shadow", "env"),
    ("posix", "hashcat -m 1000 hashes.txt words.txt", "env.credential-dump"),
    ("posix", "john hashes.txt", "env.credential-dump"),
]

ALLOWED = [
    ("posix", "id -u"),
    ("posix", "whoami"),
    ("posix", "getent passwd dev"),
    ("posix", "passwd --help"),
    ("posix", "find . -name '*.py'"),
    ("posix", "find src -name '*.pem'"),
    ("posix", "grep -rn password src"),
    ("posix", "echo 'procdump -ma lsass.exe x'"),
    ("posix", "which out-minidump"),
    ("powershell", "reg query HKLM\\Software\\Microsoft /s"),
    ("powershell", "Get-Process"),
    ("powershell", "Get-Content .\\docs\\setup.md"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_credentials_and_accounts_are_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_ordinary_uses_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
