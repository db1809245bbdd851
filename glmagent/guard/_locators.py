"""Words that name another machine: URLs, UNC paths, scp-style `user@host:path` and `host:port`.

A program the policy knows nothing about may still reach the network: `restic -r rest:http://…`,
`certutil -URL http://…`, `msxsl http://…/x.xsl`, `sqlcmd -i https://…`, `plink host:22`. What gives it
away is an argument naming another machine. Each kind is read from one word (a word holding blanks is a
message or a script, never a locator), anywhere after an option prefix such as `--url=`, `/format:` or
`rest:`, so that `TRANSFORMS=http://…` and `/i:http://…` count too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_PREFIX = r"(?:[^\s]*?[=:,@/\\(\"'])?"
"""Anything glued before the locator: an option name and `=` or `:`, a scheme prefix, a quote."""

_TOP_LEVEL = (
    "com|net|org|io|dev|app|ai|co|me|us|uk|de|fr|nl|ru|cn|jp|in|info|biz|xyz|cloud|example|test|local|"
    "localhost|internal|lan|corp|home|arpa|onion|edu|gov|mil|site|online|tech|ly|gl|gg|to|tv|cc|ca|au|eu|"
    "ch|se|no|fi|pl|br|es|it|kr|tw|hk|sg|za|nz|ie|at|be|dk|cz|pt|gr|tr|il|ir|mx|ar|cl|vn|th|id|ph|ua|kz|ws|"
    "su|pw|top|live|link|news|space|website|store|shop|network|systems|services|host|server"
)
"""Endings of host names. File extensions that are also country codes (`.py`, `.rs`, `.sh`, `.md`,
`.pl`…) are left out where a file name is far likelier (`setup.py:12` is a line, not a host); `.pl` stays:
Perl scripts are rarely given with a line number."""

_HOST = (
    r"(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9A-Fa-f:.]+\]"
    rf"|(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+(?:{_TOP_LEVEL}))"
)

_PATTERNS = {
    "url": r"[A-Za-z][A-Za-z0-9+.-]*://",
    "unc": r"\\\\(?![.?]\\)[A-Za-z0-9_$-][^\\/\s]*[\\/][^\\/\s]",
    "scp": r"[A-Za-z0-9_.+-]+@[A-Za-z0-9][A-Za-z0-9.-]*:(?!//)",
    "host-port": rf"{_HOST}:\d{{1,5}}(?:[/?#]\S*)?$",
    # `notes.txt:evil.exe`, `C:\\t\\x.bin:ads`: a file name with an extension, then a stream name that is no
    # line number (`app.py:12`) and no second colon (`Registry::HKLM`, `test_x.py::test_y`).
    "stream": r"(?:[^\s]*[\\/])?[^\\/\s:]+\.[^\\/\s:]+:(?![0-9])[^\\/\s:]+$",
}


_WINDOWS_UNC = r"//(?![.?]/)[A-Za-z0-9_$-][^\\/\s]*/[^\\/\s]"
"""PowerShell and Windows programs also take `//server/share`; on POSIX `//etc` is just `/etc`."""


def locator_regex(kinds: Iterable[str], local_schemes: Iterable[str], dialect: str) -> re.Pattern[str]:
    """One expression matching (with `match`) a blank-free word that holds a locator of `kinds`."""
    parts = []
    for kind in kinds:
        body = _PATTERNS[kind]
        if kind == "url":
            local = "|".join(re.escape(s) for s in local_schemes)
            if local:
                body = rf"(?!(?:{local})://)" + body
            # A scheme may follow any glued prefix (`rest:http://`, `/zhttp://`) but starts a scheme word.
            parts.append(rf"\S*?(?<![A-Za-z0-9+.-]){body}")
        elif kind == "unc":
            if dialect != "posix":
                body = f"(?:{body}|{_WINDOWS_UNC})"
            parts.append(rf"(?:[^\s]*?[=:,(\"'])?{body}")
        else:
            parts.append(_PREFIX + body)
    return re.compile(r"(?=\S+$)(?:" + "|".join(parts) + ")", re.IGNORECASE)


def screen(text: str) -> bool:
    """Could `text` (words joined by newlines) hold a locator at all? One cheap test before the regex."""
    return ":" in text or "\\\\" in text or "//" in text
