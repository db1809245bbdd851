"""One indentation mapping per hunk, derived from the lines it matched, applied to the lines it adds.

When a hunk only matched with indentation ignored, the diff was written at another depth or with other
indent characters than the file. Added lines must land at the file's depth with the file's characters, so
Go and Makefiles keep their tabs and YAML/Python keep their nesting. The mapping is one of: identity, a
constant prefix added or removed, and/or N spaces <-> one tab; if no single mapping explains every matched
line, the relation is unknown and the caller rejects the hunk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

_WIDTHS = (4, 2, 8, 3)


def leading_ws(line: str) -> str:
    """The line's leading whitespace."""
    return line[: len(line) - len(line.lstrip())]


def _spaces_to_tabs(width: int) -> Callable[[str], str]:
    def convert(indent: str) -> str:
        if indent.strip(" "):
            return indent  # already holds tabs: leave as written
        tabs, rest = divmod(len(indent), width)
        return "\t" * tabs + " " * rest

    return convert


def _tabs_to_spaces(width: int) -> Callable[[str], str]:
    def convert(indent: str) -> str:
        return indent.replace("\t", " " * width)

    return convert


def _identity(indent: str) -> str:
    return indent


@dataclass(frozen=True, slots=True)
class IndentMap:
    """diff indent -> file indent: convert, then drop `remove` from the front, then put `add` in front."""

    convert: Callable[[str], str]
    conversion: str  # human description of `convert`, "" for none
    add: str
    remove: str

    @property
    def identity(self) -> bool:
        """Whether added lines are kept exactly as written."""
        return not (self.conversion or self.add or self.remove)

    def map_indent(self, indent: str) -> str | None:
        """Map one indentation string; None when it is shallower than the prefix to remove."""
        converted = self.convert(indent)
        if self.remove:
            if not converted.startswith(self.remove):
                return None
            converted = converted[len(self.remove) :]
        return self.add + converted

    def apply(self, line: str) -> str | None:
        """Re-indent an added line; whitespace-only lines are kept; None when it cannot be mapped."""
        if self.identity or not line.strip():
            return line
        indent = leading_ws(line)
        mapped = self.map_indent(indent)
        return None if mapped is None else mapped + line[len(indent) :]

    def describe(self) -> str:
        """What the mapping does, for the hunk report."""
        parts: list[str] = []
        if self.conversion:
            parts.append(self.conversion)
        if self.add:
            parts.append(f"indented added lines {_show(self.add)} deeper")
        if self.remove:
            parts.append(f"indented added lines {_show(self.remove)} shallower")
        return "; ".join(parts) or "indentation kept"


IDENTITY = IndentMap(_identity, "", "", "")


def _show(prefix: str) -> str:
    tabs, spaces = prefix.count("\t"), prefix.count(" ")
    out = []
    if tabs:
        out.append(f"{tabs} tab{'s' if tabs > 1 else ''}")
    if spaces:
        out.append(f"{spaces} space{'s' if spaces > 1 else ''}")
    return " + ".join(out) or repr(prefix)


def _prefix_map(pairs: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """(add, remove) such that every file indent == add + diff indent without remove; None if none."""
    differing = next(((d, f) for d, f in pairs if d != f), None)
    if differing is None:
        return "", ""
    d, f = differing
    if f.endswith(d):
        add = f[: len(f) - len(d)]
        if all(fi == add + di for di, fi in pairs):
            return add, ""
    if d.endswith(f):
        remove = d[: len(d) - len(f)]
        if all(di == remove + fi for di, fi in pairs):
            return "", remove
    return None


def derive_indent_map(matched: Sequence[tuple[str, str]]) -> IndentMap | None:
    """The single mapping explaining every (diff line, file line) pair, or None if none does.

    Blank lines carry no indentation information and are ignored.
    """
    pairs = [(leading_ws(d), leading_ws(f)) for d, f in matched if d.strip() and f.strip()]
    candidates: list[tuple[Callable[[str], str], str]] = [(_identity, "")]
    diff_has_tabs = any("\t" in d for d, _ in pairs)
    file_has_tabs = any("\t" in f for _, f in pairs)
    if file_has_tabs and not diff_has_tabs:
        candidates += [(_spaces_to_tabs(w), f"{w} spaces -> tab") for w in _WIDTHS]
    if diff_has_tabs and not file_has_tabs:
        candidates += [(_tabs_to_spaces(w), f"tab -> {w} spaces") for w in _WIDTHS]
    found: list[IndentMap] = []
    for convert, description in candidates:
        converted = [(convert(d), f) for d, f in pairs]
        prefix = _prefix_map(converted)
        if prefix is not None:
            found.append(IndentMap(convert, description, *prefix))
    if not found:
        return None
    # Prefer a plain conversion over one that also shifts depth.
    return min(found, key=lambda m: bool(m.add or m.remove))
