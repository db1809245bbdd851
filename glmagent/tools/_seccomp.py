"""A seccomp filter that keeps sandboxed commands away from Unix sockets (bubblewrap's `--seccomp FD`).

A pathname socket left visible inside the sandbox (a tmux server, an ssh or gpg agent, D-Bus, the Docker
daemon) is a door out of it: whoever can connect can type into the user's shell or start a root container.
Hiding the folders they usually live in is not enough, since a socket can live anywhere, so the commands
may not create `AF_UNIX` sockets at all (as Anthropic's sandbox-runtime does). `socketpair()` stays allowed:
its two ends are anonymous and connect nothing outside. `io_uring_setup` is refused too, because io_uring
can create sockets without the `socket` system call the filter watches.

The program is classic BPF over `struct seccomp_data` (nr at offset 0, arch at 4, args from 16), written
out here rather than pulled in through libseccomp: it is a dozen instructions, checked instruction by
instruction in tests/test_containment_sockets.py, and it runs on every architecture listed in `_ARCHES`.
Every system call of a foreign ABI the filter does not know is refused, so a 32-bit binary cannot slip past
a rule written for 64-bit numbers.
"""

from __future__ import annotations

import errno
import os
import platform
import struct
import sys
from dataclasses import dataclass

_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
_DENY = RET_ERRNO | errno.EPERM

_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (little-endian hosts: arg 0's low word)
AF_UNIX = 1
_SYS_SOCKET = 1  # socketcall()'s call number for socket()
_IO_URING_SETUP = 425  # the same number on every architecture since Linux 5.1
_X32_BIT = 0x40000000


@dataclass(frozen=True)
class Abi:
    """One system-call ABI: its audit architecture and the numbers the filter looks at."""

    arch: int
    socket: int
    socketcall: int | None = None
    """The multiplexer 32-bit x86 uses for socket calls (its argument is a pointer, so all of them go)."""
    x32: bool = False
    """x86-64's x32 ABI shares the audit architecture and sets bit 30 of the number: refused whole."""


X86_64 = Abi(arch=0xC000003E, socket=41, x32=True)
I386 = Abi(arch=0x40000003, socket=359, socketcall=102)
AARCH64 = Abi(arch=0xC00000B7, socket=198)
ARM = Abi(arch=0x40000028, socket=281)

#: Per machine: the native ABI, then the compat ABI the kernel may also run.
_ARCHES: dict[str, tuple[Abi, Abi]] = {
    "x86_64": (X86_64, I386),
    "amd64": (X86_64, I386),
    "aarch64": (AARCH64, ARM),
    "arm64": (AARCH64, ARM),
}


class _Program:
    """A tiny assembler: instructions with symbolic jump targets, resolved into relative offsets."""

    def __init__(self) -> None:
        self.code: list[tuple[int, object, object, int]] = []
        self.labels: dict[str, int] = {}

    def label(self, name: str) -> None:
        self.labels[name] = len(self.code)

    def load(self, offset: int) -> None:
        self.code.append((_LD_W_ABS, 0, 0, offset))

    def jump(self, op: int, value: int, true: str, false: str) -> None:
        self.code.append((op, true, false, value))

    def ret(self, value: int) -> None:
        self.code.append((_RET_K, 0, 0, value))

    def assemble(self) -> bytes:
        out = bytearray()
        for index, (code, true, false, k) in enumerate(self.code):
            jt = self._offset(index, true)
            jf = self._offset(index, false)
            out += struct.pack("<HBBI", code, jt, jf, k)
        return bytes(out)

    def _offset(self, index: int, target: object) -> int:
        if not isinstance(target, str):
            return 0
        distance = self.labels[target] - index - 1
        if not 0 <= distance <= 255:
            raise ValueError(f"jump to {target} out of range")
        return distance


def _abi_rules(program: _Program, abi: Abi, prefix: str) -> None:
    program.label(prefix)
    program.load(_NR)
    if abi.x32:
        program.jump(_JGE_K, _X32_BIT, "deny", f"{prefix}_ring")
    program.label(f"{prefix}_ring")
    program.jump(_JEQ_K, _IO_URING_SETUP, "deny", f"{prefix}_socketcall")
    program.label(f"{prefix}_socketcall")
    if abi.socketcall is not None:
        program.jump(_JEQ_K, abi.socketcall, f"{prefix}_multiplexed", f"{prefix}_socket")
    program.label(f"{prefix}_socket")
    program.jump(_JEQ_K, abi.socket, f"{prefix}_family", "allow")
    program.label(f"{prefix}_family")
    program.load(_ARG0)
    program.jump(_JEQ_K, AF_UNIX, "deny", "allow")
    if abi.socketcall is not None:
        program.label(f"{prefix}_multiplexed")
        program.load(_ARG0)
        program.jump(_JEQ_K, _SYS_SOCKET, "deny", "allow")


def filter_for(native: Abi, compat: Abi) -> bytes:
    """The raw BPF program (an array of `struct sock_filter`) for a machine running these two ABIs."""
    program = _Program()
    program.load(_ARCH)
    program.jump(_JEQ_K, native.arch, "native", "not_native")
    program.label("not_native")
    program.jump(_JEQ_K, compat.arch, "compat", "deny")
    _abi_rules(program, native, "native")
    _abi_rules(program, compat, "compat")
    program.label("allow")
    program.ret(RET_ALLOW)
    program.label("deny")
    program.ret(_DENY)
    return program.assemble()


def unix_socket_filter() -> bytes | None:
    """The filter for this machine, or None where it has none (not Linux, or an architecture not listed)."""
    if not sys.platform.startswith("linux") or sys.byteorder != "little":
        return None
    abis = _ARCHES.get(platform.machine().lower())
    return filter_for(*abis) if abis else None


def filter_pipe(program: bytes) -> int:
    """A pipe's read end holding `program`, for bubblewrap's `--seccomp FD` (the caller closes it)."""
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, program)  # far below a pipe's buffer: never blocks
    finally:
        os.close(write_end)
    return read_end
