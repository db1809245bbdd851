"""Another process's memory, the machine's memory, and the file-name index searched for secrets are credential
dumps.

A running process holds its secrets in memory: a core dump of it (`gcore PID`), a debugger attached to it
(`gdb -p PID`, `lldb --attach-pid PID`), a memory acquisition tool, or a read of the memory devices
(`/dev/mem`, `/dev/kmem`, `/proc/kcore`, `/proc/PID/mem`) hands them over. `locate` searches the index of
every file name on the machine, so a credential word in it hunts for key and password files. Debugging the
project's own program, reading the memory statistics, and searching the index for anything else stay fine.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "gcore 1234"),
    ("posix", "dd if=/proc/1337/mem bs=1M | grep password"),
    ("posix", "strings /proc/42/mem"),
    ("posix", "gcore -o /tmp/dump 1234"),
    ("posix", "gdb -p 1234 -batch -ex 'generate-core-file /tmp/core'"),
    ("posix", "gdb --pid=1234 --batch -ex 'info proc mappings'"),
    ("posix", "gdb -batch -ex 'attach 1234' -ex 'gcore /tmp/x'"),
    ("posix", "lldb --attach-pid 1234 --batch -o 'process save-core /tmp/c'"),
    ("posix", "lldb -n Safari --batch"),
    ("posix", "avml /tmp/memory.lime"),
    ("posix", "strings /dev/mem -n10 | grep -i PASS"),
    ("posix", "cat /dev/kmem"),
    ("posix", "xxd /proc/kcore | head"),
    ("posix", "dd if=/proc/self/mem bs=1 skip=4096 count=100"),
    ("posix", "dd if=/dev/mem bs=1M count=1 | strings"),
    ("posix", "python3 -c \"f = open('/proc/1234/mem', 'rb'); f.seek(4096); print(f.read(64))\""),
    ("posix", "perl -e 'open(M, \"/dev/mem\")'"),
    ("posix", "locate password | more"),
    ("posix", "locate -i id_rsa"),
    ("posix", "plocate secrets.yml"),
    ("posix", "locate '*.kdbx'"),
]

ALLOWED = [
    ("posix", "cat /proc/42/status"),
    ("posix", "gdb -batch -ex run -ex bt --args ./build/app"),
    ("posix", "gdb --version"),
    ("posix", "lldb --version"),
    ("posix", "gcore --help"),
    ("posix", "cat /proc/meminfo"),
    ("posix", "free -m"),
    ("posix", "cat /proc/self/status"),
    ("posix", "python3 -c \"print(open('/proc/meminfo').read())\""),
    ("posix", "ldconfig -p | grep libssl"),
    ("posix", "find . -iname readme.md"),
    ("posix", "git commit -m 'document why /dev/mem is off limits'"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_reading_memory_and_hunting_the_file_index_are_credential_dumps(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.credential-dump")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_debugging_the_project_and_memory_statistics_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
