"""Diff text -> file sections and hunks, forgiving form (fences, prose, headers, counts), never content.

Hunk line counts in `@@` headers are hints only: a hunk ends at the next hunk or file header, a fence, or
a line that cannot belong to a hunk. An empty line inside a hunk is a blank line whose leading space was
lost (kind "b"); it is blank context in an edit, and a blank added/removed line in a create/delete.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from glmagent.errors import PatchRejected
from glmagent.patching._text import diff_lines

DEV_NULL = "/dev/null"

# Only a fence at column 0 counts: a hunk line always starts with its one-character prefix, so a fence
# inside the patched file's content (" ```" or "+```") is never mistaken for the end of the block.
_FENCE = re.compile(r"^(```|~~~)")
_OLD_RANGE = re.compile(r"-(\d+)(?:,(\d+))?")
_NEW_RANGE = re.compile(r"\+(\d+)(?:,(\d+))?")


@dataclass(slots=True)
class Hunk:
    """One hunk as written. `kinds[i]` is " ", "-", "+" or "b" (an empty line); `texts[i]` its content."""

    index: int  # 1-based position among all hunks of the diff, used in messages
    header: str
    diff_line: int  # 1-based line of the header in the diff text
    old_start: int | None = None
    old_count: int | None = None
    new_start: int | None = None
    new_count: int | None = None
    kinds: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    old_no_eol: bool = False  # "\ No newline at end of file" after the last old-side line
    new_no_eol: bool = False
    marker_end: int = -1  # number of lines read when the last such marker was seen

    @property
    def old_lines(self) -> list[str]:
        """Context and removed lines, in order: what must be found in the file."""
        return [t for k, t in zip(self.kinds, self.texts, strict=True) if k != "+"]

    @property
    def new_lines(self) -> list[str]:
        """Context and added lines, in order: what the region reads afterwards."""
        return [t for k, t in zip(self.kinds, self.texts, strict=True) if k != "-"]

    @property
    def changes(self) -> bool:
        """Whether the hunk adds or removes anything at all."""
        return "+" in self.kinds or "-" in self.kinds

    def label(self) -> str:
        """How messages name this hunk: its number and header as written."""
        header = self.header.strip() or "(no @@ header)"
        return f"hunk #{self.index} ({header})"


@dataclass(slots=True)
class Section:
    """One file's part of a diff: the names its headers give and its hunks."""

    names: list[str] = field(default_factory=list)  # raw header names (without ---/+++ prefixes)
    old_null: bool = False  # "--- /dev/null" or "new file mode": a creation
    new_null: bool = False  # "+++ /dev/null" or "deleted file mode": a deletion
    has_old_header: bool = False
    has_new_header: bool = False
    hunks: list[Hunk] = field(default_factory=list)


def is_dev_null(raw: str) -> bool:
    """Whether a header name is /dev/null (labels and timestamps after it are ignored)."""
    first = raw.strip().split("\t", 1)[0].split(" ", 1)[0]
    return first in (DEV_NULL, "nul", "NUL")


def parse_diff(diff: str) -> list[Section]:
    """Parse model-written diff text into sections (possibly without hunks: the caller decides).

    SEARCH/REPLACE blocks (`<<<<<<< SEARCH`, the lines to find, `=======`, the lines to put there,
    `>>>>>>> REPLACE`) are read as hunks of removed and added lines: the form small models get right most
    often, since it needs no per-line prefixes; the lines to find must still occur at exactly one place."""
    lines = diff_lines(diff)
    conflict = _conflict_blocks(lines)
    if conflict or any(_SEARCH.match(line) for line in lines):
        return [_search_replace(lines, conflict=conflict)]
    return _Parser(_select_diff_lines(lines)).run()


_SEARCH = re.compile(r"^\s*<{5,9}\s*SEARCH\s*$", re.IGNORECASE)
_DIVIDER = re.compile(r"^\s*={5,9}\s*$")
_REPLACE = re.compile(r"^\s*>{5,9}\s*REPLACE\s*$", re.IGNORECASE)
_CONFLICT_OPEN = re.compile(r"^<{5,9}(?:[ \t]*\S.*)?$")
_CONFLICT_CLOSE = re.compile(r"^>{5,9}(?:[ \t]*\S.*)?$")


_GUTTER = re.compile(r"^\s*\d+ \|(?: (.*))?$")


def numbered_file_free(texts: list[str]) -> list[str] | None:
    """A file sent whole (`content`, or an empty SEARCH part) as the prompt shows files, every line after
    its number (` 1 | import os`, ` 2 | `, ...): the lines without the numbers, or None. Only when the
    numbers run on by one from line to line, as the prompt writes them; a file whose own lines merely look
    numbered (a table) rarely does that."""
    bare = _gutter_free(texts)
    if bare is None:
        return None
    found = [(i, int(text.split("|", 1)[0])) for i, text in enumerate(texts) if _GUTTER.match(text)]
    start = found[0][1] - found[0][0]
    return bare if all(number == start + i for i, number in found) else None


def _gutter_free(texts: list[str]) -> list[str] | None:
    """`texts` without the prompt's line numbers (` 7 |     return x`) when every non-blank line carries
    them (two at least), else None."""
    numbered = [_GUTTER.match(text) for text in texts]
    if sum(m is not None for m in numbered) < 2:
        return None
    if any(m is None and text.strip() for m, text in zip(numbered, texts, strict=True)):
        return None
    return [(m.group(1) or "") if m is not None else text for m, text in zip(numbered, texts, strict=True)]


def without_line_numbers(sections: list[Section]) -> list[Section] | None:
    """The SEARCH/REPLACE blocks read without the line numbers a model copied from the prompt along with
    the lines, or None when no block has them. Only a second reading, when the blocks as written do not
    apply: a file's own lines can look numbered (a table). A block's new part loses its numbers only beside
    an old part that had them too, or none (a file sent whole)."""
    changed = False
    bare_sections: list[Section] = []
    for section in sections:
        bare = replace(section, hunks=[])
        for hunk in section.hunks:
            old, new = hunk.old_lines, hunk.new_lines
            bare_old = _gutter_free(old) if hunk.header == "SEARCH/REPLACE" else None
            bare_new = (
                _gutter_free(new) if hunk.header == "SEARCH/REPLACE" and (bare_old or not old) else None
            )
            if bare_old is None and bare_new is None:
                bare.hunks.append(hunk)
                continue
            changed = True
            copy = Hunk(index=hunk.index, header=hunk.header, diff_line=hunk.diff_line)
            for kind, texts in (
                ("-", old if bare_old is None else bare_old),
                ("+", new if bare_new is None else bare_new),
            ):
                copy.kinds.extend(kind for _ in texts)
                copy.texts.extend(texts)
            bare.hunks.append(copy)
        bare_sections.append(bare)
    return bare_sections if changed else None


def _conflict_blocks(lines: list[str]) -> bool:
    """Whether the text is written as git conflict blocks (`<<<<<<< HEAD`, the old lines, `=======`, the new
    ones, `>>>>>>> LABEL`): the form small models reach for beside SEARCH/REPLACE, with the same meaning.
    Only when no `@@` hunk is there (a unified diff may carry a file's own conflict markers as lines) and
    a block is complete, markers at the line start (5 to 9 of them, as models write them, git's 7
    included); the last block may end with the
    text (`_open_end`)."""
    if any(line.startswith("@@") for line in lines):
        return False
    opening = next((i for i, line in enumerate(lines) if _CONFLICT_OPEN.match(line)), None)
    if opening is None:
        return False
    divider = next((j for j in range(opening + 1, len(lines)) if _DIVIDER.match(lines[j])), None)
    if divider is None:
        return False
    return (
        any(_CONFLICT_CLOSE.match(line) for line in lines[divider + 1 :])
        or _open_end(lines, divider) is not None
    )


def _open_end(lines: list[str], divider: int) -> int | None:
    """Where a last conflict block left without its `>>>>>>>` line ends: at the end of the text, or at a
    closing `=======` line (the two ways small models end one). The reply it came in was complete, so
    every line after the divider is what the model meant as new; None when another marker line follows,
    which would make the end a guess."""
    end = len(lines)
    while end > divider + 1 and not lines[end - 1].strip():
        end -= 1
    if end > divider + 1 and _DIVIDER.match(lines[end - 1]):
        end -= 1
    markers = (_CONFLICT_OPEN, _CONFLICT_CLOSE, _DIVIDER, _SEARCH, _REPLACE)
    if any(p.match(line) for line in lines[divider + 1 : end] for p in markers):
        return None
    return end


def block_hunk(index: int, diff_line: int, old: list[str], new: list[str], if_empty: str) -> Hunk:
    """One SEARCH/REPLACE block as a hunk: its old lines removed, then its new lines added. A block with no
    line at all is refused as unparseable with the message `if_empty`."""
    if not old and not new:
        raise PatchRejected(if_empty, reason="unparseable")
    hunk = Hunk(index=index, header="SEARCH/REPLACE", diff_line=diff_line)
    for kind, texts in (("-", old), ("+", new)):
        hunk.kinds.extend(kind for _ in texts)
        hunk.texts.extend(texts)
    return hunk


def _search_replace(lines: list[str], *, conflict: bool = False) -> Section:
    """One section of hunks, one per SEARCH/REPLACE block (or conflict block, with `conflict`); `--- a/x` /
    `+++ b/x` headers name the file."""
    opens, closes = (_SEARCH, _CONFLICT_OPEN), (_REPLACE, _CONFLICT_CLOSE)
    if not conflict:
        opens, closes = opens[:1], closes[:1]
    section = Section()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(("--- ", "+++ ")):
            (_Parser._old_header if line.startswith("-") else _Parser._new_header)(section, line[4:])
            i += 1
            continue
        if not any(p.match(line) for p in opens):
            i += 1  # prose, fences or a file name around the blocks
            continue
        start = i + 1
        divider = next((j for j in range(start, len(lines)) if _DIVIDER.match(lines[j])), None)
        end = (
            next((j for j in range(divider + 1, len(lines)) if any(p.match(lines[j]) for p in closes)), None)
            if divider is not None
            else None
        )
        if conflict and divider is not None and end is None:
            end = _open_end(lines, divider)  # the last block, ended by the text: nothing but blanks follows
        if divider is None or end is None:
            raise PatchRejected(
                f"The SEARCH/REPLACE block at line {i + 1} of the diff is not closed: it needs a line "
                "'=======' after the lines to find and a line '>>>>>>> REPLACE' after the lines that replace "
                "them.",
                reason="unparseable",
            )
        empty = (
            f"The SEARCH/REPLACE block at line {i + 1} of the diff is empty: put the file's lines to change "
            "between SEARCH and '=======', and their replacement after it."
        )
        section.hunks.append(
            block_hunk(len(section.hunks) + 1, i + 1, lines[start:divider], lines[divider + 1 : end], empty)
        )
        i = end + 1
    return section


def no_hunks_error(diff: str) -> PatchRejected:
    """The rejection for text holding no hunk, naming the format that was sent when it is recognisable."""
    hint = ""
    if "*** Begin Patch" in diff:
        hint = (
            "This looks like an apply_patch envelope ('*** Begin Patch'); apply_diff takes a unified diff. "
        )
    return PatchRejected(
        f"No unified-diff hunk found. {hint}Send a unified diff: optional '--- a/path' / '+++ b/path' "
        "headers, then hunks that start with an '@@' line followed by lines prefixed with ' ' (unchanged), "
        "'-' (removed) or '+' (added); or SEARCH/REPLACE blocks: a line '<<<<<<< SEARCH', the file's lines "
        "to change, a line '=======', the new lines, a line '>>>>>>> REPLACE'.",
        reason="unparseable",
    )


def _select_diff_lines(lines: list[str]) -> list[tuple[int, str]]:
    """Keep the contents of fenced blocks that hold a diff, dropping prose around them; else keep all."""
    numbered = list(enumerate(lines, 1))
    if not any(_FENCE.match(line) for line in lines):
        return numbered
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] | None = None
    for number, line in numbered:
        if _FENCE.match(line):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
            continue
        if current is not None:
            current.append((number, line))
    if current is not None:  # unclosed fence: the block runs to the end
        blocks.append(current)
    with_diff = [b for b in blocks if any(_looks_like_diff(line) for _, line in b)]
    if not with_diff:
        return numbered
    return [pair for block in with_diff for pair in block]


def _looks_like_diff(line: str) -> bool:
    return line.startswith(("@@", "--- ", "+++ ", "diff --git "))


class _Parser:
    """A single pass over the numbered diff lines."""

    def __init__(self, numbered: list[tuple[int, str]]) -> None:
        self.numbered = numbered
        self.lines = [line for _, line in numbered]
        self.sections: list[Section] = []
        self.hunk_count = 0

    def run(self) -> list[Section]:
        lines = self.lines
        i = 0
        section: Section | None = None
        while i < len(lines):
            line = lines[i]
            if line.startswith("diff --git ") or line.startswith("Index: "):
                section = self._new_section()
                section.names.extend(_git_names(line))
            elif line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
                if section is None or section.hunks or section.has_old_header or section.has_new_header:
                    section = self._new_section()
                self._old_header(section, line[4:])
                self._new_header(section, lines[i + 1][4:])
                i += 2
                if i < len(lines) and _is_body_line(lines[i]) and not self._file_header_at(i):
                    i = self._hunk(section, i, None)  # a hunk without an @@ line right after the headers
                continue
            elif line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("@@"):
                if section is None or section.hunks or section.has_old_header:
                    section = self._new_section()
                self._old_header(section, line[4:])
            elif line.startswith("+++ ") and i + 1 < len(lines) and lines[i + 1].startswith("@@"):
                if section is None or section.hunks or section.has_new_header:
                    section = self._new_section()
                self._new_header(section, line[4:])
            elif line.startswith("@@"):
                if section is None:
                    section = self._new_section()
                i = self._hunk(section, i + 1, i)
                continue
            elif section is not None and not section.hunks:
                self._extended_header(section, line)
            elif line.startswith(("GIT binary patch", "Binary files ")):
                self._binary()
            # Anything else outside a hunk is prose around the diff.
            i += 1
        return self.sections

    def _new_section(self) -> Section:
        section = Section()
        self.sections.append(section)
        return section

    @staticmethod
    def _old_header(section: Section, raw: str) -> None:
        section.has_old_header = True
        if is_dev_null(raw):
            section.old_null = True
        else:
            section.names.append(raw)

    @staticmethod
    def _new_header(section: Section, raw: str) -> None:
        section.has_new_header = True
        if is_dev_null(raw):
            section.new_null = True
        else:
            section.names.append(raw)

    def _extended_header(self, section: Section, line: str) -> None:
        if line.startswith("new file mode"):
            section.old_null = True
        elif line.startswith("deleted file mode"):
            section.new_null = True
        elif line.startswith(("rename from ", "rename to ", "copy from ", "copy to ")):
            # A rename names a second path: it then fails the one-file check like any other file.
            section.names.append(line.split(" ", 2)[2])
        elif line.startswith(("GIT binary patch", "Binary files ")):
            self._binary()
        # Other git extended headers ("index", "old mode", "similarity index") say nothing we use.

    @staticmethod
    def _binary() -> None:
        raise PatchRejected(
            "The diff is a binary patch; apply_diff only applies text diffs.", reason="unparseable"
        )

    def _file_header_at(self, i: int) -> bool:
        """A '--- '/'+++ ' pair followed by '@@' (or the end) starts a new file section, not hunk lines."""
        lines = self.lines
        return (
            lines[i].startswith("--- ")
            and i + 1 < len(lines)
            and lines[i + 1].startswith("+++ ")
            and (i + 2 == len(lines) or lines[i + 2].startswith(("@@", "diff --git ")))
        )

    def _ends_hunk(self, i: int) -> bool:
        line = self.lines[i]
        return (
            line.startswith(("@@", "diff --git ", "Index: "))
            or _FENCE.match(line) is not None
            or self._file_header_at(i)
        )

    def _hunk(self, section: Section, i: int, header_at: int | None) -> int:
        """Read one hunk body starting at line i; return the index of the first line after it."""
        self.hunk_count += 1
        header = self.lines[header_at] if header_at is not None else ""
        diff_line = self.numbered[header_at][0] if header_at is not None else self.numbered[i][0]
        hunk = Hunk(index=self.hunk_count, header=header, diff_line=diff_line)
        _read_ranges(hunk, header)
        lines = self.lines
        while i < len(lines) and not self._ends_hunk(i):
            line = lines[i]
            if line == "":
                hunk.kinds.append("b")
                hunk.texts.append("")
            elif line[0] in " +-":
                hunk.kinds.append(line[0])
                hunk.texts.append(line[1:])
            elif line[0] == "\\":
                _no_newline_marker(hunk)
            elif self._body_follows(i + 1):
                number = self.numbered[i][0]
                raise PatchRejected(
                    f"Line {number} of the diff, inside {hunk.label()}, does not start with ' ', '-' or "
                    f"'+': {line!r}. Every line of a hunk needs its prefix: a space for an unchanged line, "
                    "'-' for a removed one, '+' for an added one.",
                    reason="unparseable",
                )
            else:
                break  # prose after the diff
            i += 1
        _trim_trailing_empty(hunk)
        if not hunk.kinds:
            raise PatchRejected(
                f"{hunk.label()} at line {diff_line} of the diff has no lines; each hunk needs its "
                "unchanged (' '), removed ('-') and added ('+') lines.",
                reason="unparseable",
            )
        section.hunks.append(hunk)
        return i

    def _body_follows(self, i: int) -> bool:
        """Whether more hunk lines come before the next header: then an odd line is a mistake, not prose."""
        lines = self.lines
        while i < len(lines) and not self._ends_hunk(i):
            if lines[i][:1] in (" ", "+", "-") and lines[i].strip():
                return True
            i += 1
        return False


def _is_body_line(line: str) -> bool:
    return line[:1] in (" ", "+", "-")


def _read_ranges(hunk: Hunk, header: str) -> None:
    """Take start/count hints from an @@ header; '@@', '@@ ... @@' and other shapes give none."""
    core = header.lstrip("@")
    end = core.find("@@")
    if end >= 0:
        core = core[:end]
    old = _OLD_RANGE.search(core)
    new = _NEW_RANGE.search(core)
    if old:
        hunk.old_start = int(old.group(1))
        hunk.old_count = int(old.group(2)) if old.group(2) is not None else None
    if new:
        hunk.new_start = int(new.group(1))
        hunk.new_count = int(new.group(2)) if new.group(2) is not None else None


def _no_newline_marker(hunk: Hunk) -> None:
    if not hunk.kinds:
        return
    hunk.marker_end = len(hunk.kinds)
    last = hunk.kinds[-1]
    if last in (" ", "b"):
        hunk.old_no_eol = hunk.new_no_eol = True
    elif last == "-":
        hunk.old_no_eol = True
    else:
        hunk.new_no_eol = True


def _trim_trailing_empty(hunk: Hunk) -> None:
    """Empty lines at a hunk's end are usually spacing before the next header, not blank context.

    They are kept only when the header's counts say exactly that they belong to the hunk.
    """
    trailing = 0
    while trailing < len(hunk.kinds) and hunk.kinds[-1 - trailing] == "b":
        trailing += 1
    if not trailing or hunk.marker_end == len(hunk.kinds):
        return
    if hunk.old_count is not None and hunk.new_count is not None:
        old = sum(1 for k in hunk.kinds if k != "+")
        new = sum(1 for k in hunk.kinds if k != "-")
        if old == hunk.old_count and new == hunk.new_count:
            return
    del hunk.kinds[-trailing:]
    del hunk.texts[-trailing:]


def _git_names(line: str) -> list[str]:
    """Names from 'diff --git a/x b/x' or 'Index: x'."""
    if line.startswith("Index: "):
        return [line[len("Index: ") :].strip()]
    rest = line[len("diff --git ") :].strip()
    parts = rest.split()
    if len(parts) == 2:
        return parts
    cut = rest.find(" b/")
    if cut > 0:
        return [rest[:cut], rest[cut + 1 :]]
    return []
