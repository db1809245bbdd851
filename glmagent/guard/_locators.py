"""Words that point where the policy cannot look: another machine (a URL, a UNC path, an scp-style
`user@host:path`, a `host:port`, a login at a host: `user@10.0.0.1`, `corp/user:password@dc01.corp.local`) or
an NTFS alternate data stream (`notes.txt:evil.exe`).

A program the policy knows nothing about may still reach the network: `restic -r rest:http://…`,
`certutil -URL http://…`, `msxsl http://…/x.xsl`, `sqlcmd -i https://…`, `plink host:22`. What gives it
away is an argument naming another machine. Each kind is read from one word (a word holding blanks is a
message or a script, never a locator), anywhere after an option prefix such as `--url=`, `/format:` or
`rest:`, so that `TRANSFORMS=http://…` and `/i:http://…` count too.

Every expression here is searched, never backtracked over a whole word: a locator starts at the start of
the word or right after a separator, and the runs it is made of are matched possessively, so a 100 kB word
costs one pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_AFTER_SEPARATOR = r"(?:^|(?<=[=:,@/\\(\"']))"
"""Where a locator may start: the word's start, or after an option name and `=` or `:`, a quote, a slash."""

_TOP_LEVEL = (
    "com|net|org|io|dev|app|ai|co|me|us|uk|de|fr|nl|ru|cn|jp|in|info|biz|xyz|cloud|example|test|local|"
    "localhost|internal|lan|corp|home|arpa|onion|edu|gov|mil|site|online|tech|ly|gl|gg|to|tv|cc|ca|au|eu|"
    "ch|se|no|fi|pl|br|es|it|kr|tw|hk|sg|za|nz|ie|at|be|dk|cz|pt|gr|tr|il|ir|mx|ar|cl|vn|th|id|ph|ua|kz|ws|"
    "su|pw|top|live|link|news|space|website|store|shop|network|systems|services|host|server"
)
"""Endings of host names. File extensions that are also country codes (`.py`, `.rs`, `.sh`, `.md`…) are
left out where a file name is far likelier (`setup.py:12` is a line, not a host); `.pl` stays: Perl
scripts are rarely given with a line number."""

_HOST = (
    r"(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9A-Fa-f:.]++\]"
    rf"|(?:[A-Za-z0-9-]++\.)++(?:{_TOP_LEVEL}))"
)

_PATTERNS = {
    # A scheme starts where no scheme character precedes it (`rest:http://`, `/zhttp://`, `git+https://`).
    "url": r"(?<![A-Za-z0-9+.-])(?!(?:{local})://)[A-Za-z][A-Za-z0-9+.-]*+://",
    "unc": rf"{_AFTER_SEPARATOR}\\\\(?![.?]\\)[A-Za-z0-9_$-][^\\/\s]*+[\\/][^\\/\s]",
    "scp": rf"{_AFTER_SEPARATOR}(?<![A-Za-z0-9_.+-])[A-Za-z0-9_.+-]++@[A-Za-z0-9][A-Za-z0-9.-]*+:(?!//)",
    "host-port": rf"{_AFTER_SEPARATOR}{_HOST}:\d{{1,5}}(?:[/?#]\S*+)?$",
}
_WINDOWS_UNC = rf"{_AFTER_SEPARATOR}//(?![.?]/)[A-Za-z0-9_$-][^\\/\s]*+/[^\\/\s]"
"""PowerShell and Windows programs also take `//server/share`; on POSIX `//etc` is just `/etc`."""

_BLANK = re.compile(r"\s")
_ADDRESS = re.compile(r"(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]++\])(?:[:/]\S*+)?")
_AT_ADDRESS = re.compile(r"@[\d\[]")
"""Without `:` (a password, a port, a scheme), only `user@ADDRESS` can name another machine."""
_HOST_NAME = re.compile(rf"{_HOST}(?:[:/]\S*+)?", re.IGNORECASE)


def _names_login(word: str) -> bool:
    """A login at another machine: `user@ADDRESS`, or `[domain/]user:password@HOST` (a password before the
    last `@`). An e-mail address (`dev@example.com`) is neither."""
    user, _, host = word.rpartition("@")
    if not user or not host:
        return False
    user = user.lstrip("'\"")
    host = host.rstrip("'\"")
    if _ADDRESS.fullmatch(host) is not None:
        return True
    return ":" in user and _HOST_NAME.fullmatch(host) is not None


def _names_stream(word: str) -> bool:
    """Does the last part of a path name a stream: a file name with an extension, `:`, and a stream name that
    is no line number (`app.py:12`)? A second colon (`Registry::HKLM`, `test_x.py::test_y`) makes it
    something else."""
    last = word[max(word.rfind("/"), word.rfind("\\")) + 1 :]
    name, _, stream = last.partition(":")
    return bool(stream) and ":" not in stream and not stream[0].isdigit() and "." in name.strip(".")


class LocatorMatcher:
    """Does one blank-free word hold a locator of the given kinds? (`match`, like a compiled pattern's.)"""

    __slots__ = ("login", "machine", "stream")

    def __init__(self, machine: re.Pattern[str] | None, stream: bool, login: bool = False) -> None:
        self.machine = machine
        self.stream = stream
        self.login = login

    def match(self, word: str) -> bool:
        if not word or _BLANK.search(word) is not None:
            return False
        if self.machine is not None and self.machine.search(word) is not None:
            return True
        if self.login and "@" in word and _names_login(word):
            return True
        return self.stream and ":" in word and _names_stream(word)


def locator_regex(kinds: Iterable[str], local_schemes: Iterable[str], dialect: str) -> LocatorMatcher:
    """The matcher of a `locator` clause: `match(word)` tells whether a word holds a locator of `kinds`."""
    kinds = list(kinds)
    parts = []
    for kind in kinds:
        if kind in ("stream", "user-host"):
            continue
        body = _PATTERNS[kind]
        if kind == "url":
            local = "|".join(re.escape(s) for s in local_schemes) or "(?!)"
            body = body.replace("{local}", local)
        elif kind == "unc" and dialect != "posix":
            body = f"(?:{body}|{_WINDOWS_UNC})"
        parts.append(f"(?:{body})")
    machine = re.compile("|".join(parts), re.IGNORECASE) if parts else None
    return LocatorMatcher(machine, "stream" in kinds, "user-host" in kinds)


def screen(text: str) -> bool:
    """Could `text` (words joined by newlines) hold a locator at all? One cheap test before the regex."""
    return ":" in text or "\\\\" in text or "//" in text or _AT_ADDRESS.search(text) is not None
