"""PowerShell's listings of the project's own files (`Get-ChildItem *.md`, `gci src -Recurse -Filter *.cs`)
read as the globs they expand, so that a loop over one (`foreach ($f in gci *.md) { … Set-Content $f }`,
`gci *.md | % { … Set-Content $_ }`) writes what the glob names, as a POSIX `for f in *.md` does.

Only a listing whose every word is a literal path inside the project and a parameter whose meaning is known
is read: hidden items (`-Force`, `-Hidden`, `-Attributes`), names alone (`-Name`), links followed
(`-FollowSymlink`) or anything else keep the loop variable unknown, as before."""

from __future__ import annotations

import re
from collections.abc import Callable

from ._lazy import lazy_re
from ._syntax import DYN, Arg

LISTINGS = frozenset({"get-childitem", "gci", "dir", "get-item", "gi"})
"""Commands that list items (`ls` is left out: on Linux and macOS it is the native `ls`, printing bare
names relative to the folder listed, not to the working directory)."""

_SINGLE_ITEM = frozenset({"get-item", "gi"})

_VALUED = {
    "-path": "path", "-literalpath": "path", "-lp": "path", "-pspath": "path",
    "-filter": "filter", "-include": "filter", "-exclude": "exclude", "-depth": "depth",
    "-erroraction": "ignore", "-ea": "ignore",
}  # fmt: skip
"""Parameters taking a value, by what the value is (the exclusions and error handling only narrow)."""

_SWITCHES = {"-recurse": True, "-s": True, "-file": False, "-af": False, "-directory": False, "-ad": False}
"""Switches, by whether they make the listing recursive (`-File`, `-Directory` only narrow it)."""

_MAX_PATTERNS = 8
"""Globs one listing is read as."""

_WILD = frozenset("*?[")

_OUTSIDE = lazy_re(r"[~$%:`]|^[\\/]|(?:^|[\\/])\.\.(?:[\\/]|$)")
"""A path that may leave the project: from the root or a home folder, through a drive or a variable, or
climbing out."""

_REFERENCE = lazy_re(
    r"(?i)\$(?:\{(\w+)\}|(\w+))(?:\.(?:fullname|pspath))?"
    r'|"\$(?:\{(\w+)\}|(\w+))"'
    r'|"\$\(\$(\w+)(?:\.(?:fullname|pspath))?\)"'
)
"""A word that is the item itself: `$f`, `$_.FullName`, `"$_"`, `"$($f.FullName)"` (not `"$f.FullName"`,
which is the item's name followed by the text `.FullName`)."""

_REBINDING = lazy_re(
    r"(?i)set-variable|new-variable|clear-variable|remove-variable|\bs[vn]\b|\[ref\]|-outvariable|-ov\b"
    r"|-pipelinevariable|-pv\b|psvariable|executioncontext|\bparam\b"
)
"""Ways a script may set a variable other than by assigning it."""


def listing_patterns(argv: list[Arg], folder: Callable[[str], bool]) -> list[str] | None:
    """The globs (relative, `/`-separated) that the items a listing command yields match, or None unless
    it is one read here. A folder listed yields what is in it (`src/*`); a path `folder` does not know as
    one may be a file, which yields itself (`README` reads as `README/*` and `README`); a recursive listing
    reaches any depth (`src/**/*.cs`)."""
    if not argv or argv[0].text.lower() not in LISTINGS:
        return None
    single = argv[0].text.lower() in _SINGLE_ITEM
    groups: list[list[str]] = []
    named: dict[str, list[str]] = {}
    recurse = False
    words = argv[1:]
    i = 0
    while i < len(words):
        word = words[i]
        if DYN in word.text or word.splat or word.block:
            return None
        if word.param:
            key = word.text.lower()
            if key in _SWITCHES:
                recurse = recurse or _SWITCHES[key]
                i += 1
                continue
            kind = _VALUED.get(key)
            if kind is None or i + 1 >= len(words):
                return None
            values, i = _values(words, i + 1)
            if values is None:
                return None
            recurse = recurse or kind == "depth"
            named.setdefault(kind, []).extend(values)
            continue
        values, i = _values(words, i)
        if values is None:
            return None
        groups.append(values)
    if len(groups) > (1 if single else 2) or (groups and "path" in named):
        return None
    paths = named.get("path") or (groups[0] if groups else ["."])
    filters = named.get("filter", []) + (groups[1] if len(groups) > 1 else [])
    if single and (recurse or filters):
        return None
    out: list[str] = []
    for raw in paths:
        path = raw.replace("\\", "/").rstrip("/") or "/"
        if _OUTSIDE.search(path) is not None or any(_OUTSIDE.search(f) or "/" in f for f in filters):
            return None
        base = "" if path == "." else path.removeprefix("./")
        wild = bool(_WILD.intersection(path))
        if single or (wild and not recurse):
            out.append(path)  # the items the glob names (filters only narrow them)
            continue
        if wild:
            return None  # a recursive listing of a glob: what it reaches is not read here
        for name in filters or ["*"]:
            below = f"**/{name}" if recurse else name  # (`**` also names what is directly in the folder)
            out.append(f"{base}/{below}" if base else below)
        if base and not folder(base):
            out.append(base)  # a file listed yields itself
    return out if len(out) <= _MAX_PATTERNS else None


def _values(words: list[Arg], i: int) -> tuple[list[str] | None, int]:
    """The value at `i` and the array elements that follow it (`"bin", "obj"`), and the index after them."""
    out = [words[i].text]
    if DYN in words[i].text or words[i].param:
        return None, i + 1
    i += 1
    while i < len(words) and words[i].follows:
        if DYN in words[i].text:
            return None, i + 1
        out.append(words[i].text)
        i += 1
    return out, i


def bound_reference(raw: str) -> str | None:
    """The folded name of the variable `raw` is the whole item of (`$_`, `$f.FullName`), else None."""
    m = _REFERENCE.fullmatch(raw)
    if m is None:
        return None
    return next(g for g in m.groups() if g is not None).casefold()


def rebinds(text: str, name: str) -> bool:
    """Whether `text` may set the variable `name` (assigned, incremented, or through a cmdlet or reference
    that may name any variable): its value is then no longer the item a loop gave it."""
    if _REBINDING.search(text) is not None:
        return True
    assigned = rf"(?i)\$(?:\{{{re.escape(name)}\}}|{re.escape(name)}\b)\s*(?:[-+*/%]?=(?!=)|\+\+|--)"
    return re.search(assigned, text) is not None
