"""Words that hand a program code to run, whatever the program: a command line that starts with a shell, an
interpreter or a wrapper (`split --filter='/bin/sh -i'`), a shell or a program given by its path with its
arguments after it (`multitime /bin/sh`, `ip netns exec ns /usr/bin/id`), a file only a code host runs
(`x.sct`, `x.inf`), a program or library from outside the project, a library named by a library option.

This module only reads words; `_words.WordChecks._handed_code` decides what each finding means."""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import translate as fnmatch_translate
from typing import NamedTuple

from ._lazy import compile_once, lazy_re

_OPTION_VALUE = lazy_re(r"^(--?[A-Za-z][\w.-]*|/[A-Za-z][\w-]*)([=:])(.*)$", re.DOTALL)
"""`--opt=value`, `-opt=value`, `-opt:value` (`java -agentpath:x`), `/opt:value` (Windows)."""

_GLUED_PATH = lazy_re(r"^(-[A-Za-z])((?:/|~/|\.\.?[/\\]|[A-Za-z]:[/\\]).*)$", re.DOTALL)
"""A one-letter option written together with the path it takes (`ruby -r/tmp/x.rb`, `perl -I/opt/lib`)."""

_BIN_PROGRAM = lazy_re(r"(?:^|[/\\])(?:s?bin|libexec|system32|syswow64)[/\\][^/\\]+$", re.IGNORECASE)
"""A program in a folder of programs (`/usr/bin/id`, `C:\\Windows\\System32\\cmd.exe`)."""


class Piece(NamedTuple):
    """A part of a word that may name code: the option it is the value of ("" for a bare word)."""

    option: str
    text: str
    bare: bool
    """The whole word: an operand, not the value of an option."""


def globs(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """File-name globs (`*.dll`) as one case-insensitive full-match expression."""
    body = "|".join(fnmatch_translate(p) for p in patterns)
    return compile_once(body, re.IGNORECASE) if body else None


def required_mark(patterns: Iterable[str]) -> str | None:
    """A punctuation character every name matching any of the globs `patterns` holds (the `.` of `*.dll`,
    `*.so.*`), so a name without it needs no regex; None when there is none, or a `[...]` set hides it.
    Only ASCII punctuation counts: no other character matches one, even ignoring case."""
    shared: set[str] | None = None
    for pattern in patterns:
        if "[" in pattern:
            return None
        marks = {c for c in pattern if c.isascii() and not c.isalnum() and c not in "*?"}
        shared = marks if shared is None else shared & marks
    if not shared:
        return None
    return "." if "." in shared else min(shared)


def pieces(text: str, windows: bool, most: int | None = None) -> list[Piece]:
    """The word itself, or the value of an option written in one word; a value holding `,`/`;` lists
    (`rundll32 x.dll,Entry`, `/logger:Name,C:\\x.dll`) gives each item too. `most`: the items the caller
    can still afford; past it only one more is made (the caller stops at a word that long anyway)."""
    option = ""
    value = text
    bare = True
    m = _OPTION_VALUE.match(text)
    if m is not None and (m.group(1)[0] == "-" or windows):
        option, value, bare = m.group(1), m.group(3), False
    elif text[:1] == "-" and (glued := _GLUED_PATH.match(text)) is not None:
        option, value, bare = glued.group(1), glued.group(2), False
    value = value.strip("\"'")
    out = [Piece(option, value, bare)]
    if " " in value:
        return out
    if value[:1] == "@" and value[1:2] not in ("@", ""):
        # `sqlplus user/pw @/opt/x.sql`, `gcc @/tmp/args.rsp`: a file whose commands or options it reads
        out.append(Piece("@", value[1:].strip("\"'"), False))
    if "," in value or ";" in value:
        items = [v for v in re.split(r"[,;]", value) if v and v != value]
        if most is not None and len(items) > most:
            del items[most + 1 :]
        out.extend(Piece(option, v.strip("\"'"), False) for v in items)
    if "=" in value:
        # `ladspa=file=/x/lib.so`, `key=value` settings: the last value may name a file.
        out.append(Piece(option, value.rsplit("=", 1)[1].strip("\"'"), False))
    return out


def last_part(path: str) -> str:
    """The file name of a path (either separator)."""
    cut = max(path.rfind("/"), path.rfind("\\"))
    return path[cut + 1 :] if cut >= 0 else path


def is_path(text: str) -> bool:
    return "/" in text or "\\" in text


def in_program_folder(text: str) -> bool:
    """`/usr/bin/id`, `/sbin/ip`, `C:\\Windows\\System32\\cmd.exe`: a program given by its installed path."""
    # Searched from the last folder's name on: from the start it tried each folder of a long path.
    last = max(text.rfind("/"), text.rfind("\\"))
    folder = max(text.rfind("/", 0, last), text.rfind("\\", 0, last)) if last > 0 else -1
    return _BIN_PROGRAM.search(text, max(folder, 0)) is not None


def first_word(line: str) -> str:
    """The first blank-separated word of a command line, without quotes."""
    return line.split(None, 1)[0].strip("\"'") if line.strip() else ""
