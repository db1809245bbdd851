"""Malware cleaners' machine changes, and package queries named at run time.

- The shared temp folders themselves (`chmod go-rwx /var/tmp`, `chmod 700 /tmp`, `chmod -t /tmp`,
  `setfacl -m u:nobody:--- /tmp`) are every user's and service's: locking them is machine state, as opening
  them (`chmod 1777 /tmp`) already blocked. A file inside them stays the user's own (`chmod 600 /tmp/x`).
- `aa-teardown` unloads every AppArmor profile, as `aa-disable` turns one off; `shopt -u -o history` is
  `set +o history`.
- dpkg takes one action: a query (`dpkg -S "$f"`, `-L "$pkg"`, `-s`) names no other, so the run-time word
  is the queried name, not a hidden `-i`.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

MACHINE = "destructive.machine-state"

BLOCKED = [
    ("posix", "chmod go-rwx /var/tmp", MACHINE),
    ("posix", "chmod 700 /tmp", MACHINE),
    ("posix", "chmod 0 /tmp/", MACHINE),
    ("posix", "chmod -t /tmp", MACHINE),
    ("posix", "chmod 0770 /tmp /var/tmp", MACHINE),
    ("posix", "setfacl -m u:nobody:--- /tmp", MACHINE),
    ("posix", "chattr +i /dev/shm", MACHINE),
    ("posix", "aa-teardown", MACHINE),
    ("posix", "shopt -u -o history", MACHINE),
    ("posix", "shopt -ou history", MACHINE),
    ("posix", 'dpkg -i "$deb"', MACHINE),
    ("posix", "dpkg $ACTION x", "dynamic.arguments"),
]

ALLOWED = [
    ("posix", "chmod 600 /tmp/x.txt"),
    ("posix", "chmod 700 /tmp/build-cache"),
    ("posix", "chmod +x build/run.sh"),
    ("posix", "shopt -s histappend"),
    ("posix", "shopt -u nullglob"),
    ("posix", 'dpkg -S "$f"'),
    ("posix", 'dpkg -L "$pkg"'),
    ("posix", 'dpkg -s "$pkg"'),
    ("posix", "dpkg -I x.deb"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_temp_folder_locks_and_security_teardown_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_temp_files_and_package_queries_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
