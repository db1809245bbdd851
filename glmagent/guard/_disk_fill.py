"""What fills the disk: a size a program is told to allocate, and an output that never ends.

The policy's `destructive.disk-fill` rule reads both: its command clauses give `size_over` (`fallocate -l
100G f`, `fsutil file createnew f 100000000000`), and the engine reports an endless output written into a
file (`cat /dev/zero > f`, `yes | gzip > f`, `… | tee f`).
"""

from __future__ import annotations

import re

from ._lazy import lazy_re
from ._normalise import command_key
from ._syntax import DYN, Arg, Feed, Stdin

_SIZE = lazy_re(r"(?:-[A-Za-z]|--?[A-Za-z][\w-]*=)?\+?(\d+(?:\.\d+)?)([kmgtpe]?)(?:i?b)?", re.IGNORECASE)
"""A size as allocators take it (`100G`, `9.4GiB`, `1t`, `10000000000`), alone or glued to its option
(`-l100G`, `--length=100G`, `-s+10G`)."""
_POWERS = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6}

_ENDLESS_DEVICES = frozenset({"/dev/zero", "/dev/urandom", "/dev/random", "/dev/full"})
"""Devices a read of never reaches the end of."""
_ENDLESS = frozenset({"yes"})
"""Programs whose output never ends, whatever they are given."""
_PASSING = frozenset(
    {
        "cat", "get-content", "base64", "base32", "basenc", "od", "xxd", "hexdump", "hd", "tr", "pv", "tee",
        "strings", "gzip", "bzip2", "xz", "zstd", "lz4", "fold", "rev", "nl", "cut", "uuencode",
    }
)  # fmt: skip
"""Filters that pass on (a form of) everything they read, as long as it comes: fed an endless input, their
output never ends either (`head`, which stops, is not one)."""
_BOUNDS = {
    "od": ("-N", "--read-bytes"), "xxd": ("-l", "-len"), "hexdump": ("-n", "--length"),
    "hd": ("-n", "--length"), "pv": ("-S", "--stop-at-size"),
}  # fmt: skip
"""Options that make a passing filter stop after so much (`od -N4 /dev/urandom`, `xxd -l 16 -p …`)."""
_WRAPPERS = frozenset({"nohup", "setsid", "exec", "command", "time", "nice", "ionice", "stdbuf", "env"})
"""Programs that run the command after their own options as it is, output and all."""
_FOLLOWED = 8
"""How many filters up a pipe an endless producer is looked for."""


def size_in_bytes(word: str) -> int | None:
    """The size a word gives (binary multiples: `1G` is 2**30 bytes), or None for no size."""
    if not word or not ("0" <= word[-1] <= "9" or word[-1] in "bBkKmMgGtTpPeE"):
        return None
    found = _SIZE.fullmatch(word)
    if found is None:
        return None
    return int(float(found.group(1)) * 1024 ** _POWERS[found.group(2).lower()])


def endless_output(argv: list[Arg], stdin: Stdin | None) -> str | None:
    """The endless source `argv` passes on to what it writes (`yes`, `cat /dev/zero`, `tr … < /dev/urandom`,
    `… /dev/urandom | base64`), shown as written, or None when its output ends."""
    source = _endless(argv, stdin.path if stdin is not None else None)
    if (
        source is None
        and stdin is not None
        and stdin.feed is not None
        and command_key(argv[0].text) in _PASSING
    ):
        return endless_feed(stdin.feed)
    return source


def endless_feed(feed: Feed | None) -> str | None:
    """`endless_output` of the command a feed stands for, followed up its pipe through passing filters."""
    for _ in range(_FOLLOWED):
        produced = feed.producer() if feed is not None else None
        if produced is None:
            return None
        argv, feed = produced
        source = _endless(argv, None)
        if source is not None or not argv or command_key(argv[0].text) not in _PASSING:
            return source
    return None


def _endless(argv: list[Arg], read: Arg | None) -> str | None:
    start = 0
    while start < len(argv) and command_key(argv[start].text) in _WRAPPERS:
        start += 1  # `nohup yes`, `nice -n 10 yes`, `env LC_ALL=C tr …`: the wrapper's options too
        while start < len(argv) and (
            argv[start].text[:1] == "-" or "=" in argv[start].text or argv[start].text.isdigit()
        ):
            start += 1
    argv = argv[start:]
    if not argv or DYN in argv[0].text:
        return None
    name = command_key(argv[0].text)
    if name in _ENDLESS:
        return argv[0].raw
    if name not in _PASSING:
        return None
    bounds = _BOUNDS.get(name)
    if bounds is not None and any(a.text.startswith(bounds) for a in argv[1:]):
        return None
    if read is not None and read.text in _ENDLESS_DEVICES:
        return f"< {read.raw}"
    return next((a.raw for a in argv[1:] if a.text in _ENDLESS_DEVICES), None)
