"""Filling the disk: an output that never ends written into a file, and a file of more than 1 GiB made at
once. Test data of the size a test needs, bounded reads of the same devices and writes to a device stay
allowed."""

from __future__ import annotations

import pytest

from glmagent.guard import Policy
from glmagent.guard._disk_fill import size_in_bytes

FILLS_POSIX = [
    "cat /dev/zero > fill",
    "cat /dev/urandom >> data.bin",
    "yes > out.txt",
    "yes 'a line' 1> out.txt",
    "yes &> out.txt",
    "/usr/bin/yes > out.txt",
    "yes x | gzip > y.gz",
    "true && yes > f",
    "{ yes; } > f",
    "(cat /dev/zero) > f",
    "tr -dc a-z < /dev/urandom > words.txt",
    "cat /dev/urandom | base64 | fold -w 64 > noise.txt",
    "cat /dev/urandom | base64 | tr -d '\\n' | cut -c1-80 | nl > noise.txt",
    "base64 /dev/urandom | tee noise.txt",
    "yes | tee -a out.txt > /dev/null",
    "cat /dev/zero | tee a b > /dev/null",
    "od /dev/urandom > x",
    "pv /dev/zero > fill",
    "gzip -c < /dev/zero > z.gz",
    "fallocate -l 100G big.img",
    "fallocate -l9.4G ./bomb",
    "fallocate --length=2GiB x",
    "fallocate -o 5G -l 1M x",
    "fallocate -l 1.5g x",
    "fallocate -l 10000000000 x",
    "mkfile 100g big",
    "mkfile -n 10G big",
    "xfs_mkfile 50g big",
    "hdiutil create -size 100g -fs APFS big.dmg",
    "head -c 100G /dev/zero > fill",
    "head --bytes=3G /dev/urandom > x",
    'fallocate -l "$SIZE" x.img',  # any size: unknown
    "sh -c 'cat /dev/zero > fill'",
    "nohup yes > out.txt &",
    "nice -n 10 yes > out.txt",
    "env LC_ALL=C tr -dc a-z < /dev/urandom > words.txt",
]
KEPT_POSIX = [
    "yes > /dev/null",
    "yes 2> err.txt",
    "yes | head -n 5 > answers.txt",
    "yes | ./configure > configure.log",
    "yes | tee /dev/null",
    "head -c 1M /dev/urandom > fixture.bin",
    "cat /dev/urandom | head -c 32 | base64 > key.txt",
    "tr -dc a-z < /dev/urandom | head -c 16 > name.txt",
    "od -An -N4 -tu4 /dev/urandom > seed.txt",
    "xxd -l 16 -p /dev/urandom > key.hex",
    "hexdump -n 16 -e '4/4 \"%08x\"' /dev/urandom > id.txt",
    "dd if=/dev/urandom bs=16 count=1 2>/dev/null | base64",
    "fallocate -l 10M test.img",
    "fallocate -l 1G swap.img",
    "mkfile 10m f",
    "cat data.txt > copy.txt",
    "gzip -c data.txt > data.txt.gz",
    "./server > server.log 2>&1 &",
    "env LC_ALL=C sort words.txt > sorted.txt",
    "head -c 2G big.iso > part.bin",
    "qemu-img create -f qcow2 build/vm.qcow2 100G",
    "hdiutil create -size 200m -fs HFS+ -volname App build/App.dmg",
    "hdiutil create -size 100g -type SPARSEBUNDLE -fs APFS build/x",
]
FILLS_POWERSHELL = [
    "fsutil file createnew big.bin 100000000000",
    "cmd /c fsutil file createnew big.bin 10737418241",
    "cat /dev/zero > fill",
]
KEPT_POWERSHELL = [
    "fsutil file createnew test.bin 1024",
    "Get-Content data.txt > copy.txt",
]


@pytest.mark.parametrize(
    ("shell", "command"),
    [("posix", c) for c in FILLS_POSIX] + [("powershell", c) for c in FILLS_POWERSHELL],
)
def test_a_write_that_fills_the_disk_is_blocked(shell: str, command: str) -> None:
    decision = Policy.default().check(command, shell)  # type: ignore[arg-type]
    assert not decision.allowed, command
    assert decision.rule_id in ("destructive.disk-fill", "dynamic.arguments"), (command, decision.rule_id)


@pytest.mark.parametrize(
    ("shell", "command"),
    [("posix", c) for c in KEPT_POSIX] + [("powershell", c) for c in KEPT_POWERSHELL],
)
def test_data_of_a_bounded_size_is_allowed(shell: str, command: str) -> None:
    decision = Policy.default().check(command, shell)  # type: ignore[arg-type]
    assert decision.allowed, (command, decision.rule_id, decision.reason)


def test_the_reason_names_the_source_and_the_file() -> None:
    decision = Policy.default().check("cat /dev/urandom | base64 > noise.txt", "posix")
    assert decision.rule_id == "destructive.disk-fill"
    assert "/dev/urandom" in decision.reason and "> noise.txt" in decision.reason


@pytest.mark.parametrize(
    ("word", "size"),
    [
        ("100G", 100 * 2**30),
        ("9.4G", int(9.4 * 2**30)),
        ("2GiB", 2 * 2**30),
        ("1t", 2**40),
        ("-l100G", 100 * 2**30),
        ("--length=3g", 3 * 2**30),
        ("10000000000", 10_000_000_000),
        ("10M", 10 * 2**20),
        ("x.img", None),
        ("-l", None),
        ("1e9", None),
    ],
)
def test_sizes_are_read_as_allocators_take_them(word: str, size: int | None) -> None:
    assert size_in_bytes(word) == size
