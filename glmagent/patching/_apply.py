"""apply_patch: parse, check the target, place every hunk, then assemble the result (all hunks or none)."""

from __future__ import annotations

import contextlib
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate, pairwise
from pathlib import PurePosixPath

from glmagent.errors import PatchRejected
from glmagent.patching._block_lines import read_block_lines
from glmagent.patching._edit_words import for_content, for_edits
from glmagent.patching._escaped import NOTE as ESCAPED_NOTE
from glmagent.patching._escaped import read_escaped_breaks
from glmagent.patching._fragment import read_as_part_of_a_line
from glmagent.patching._items import edit_lines, line_keys
from glmagent.patching._locate import HunkFailure, Locator, Placement, numbered, quote
from glmagent.patching._match import QUOTE_BLIND_TIERS, TIERS, Tier, keyed
from glmagent.patching._names import check_python_names
from glmagent.patching._numbered import read_by_line_numbers
from glmagent.patching._paired import read_as_paired_lines
from glmagent.patching._parse import (
    Hunk,
    Section,
    block_hunk,
    no_hunks_error,
    numbered_file_free,
    parse_diff,
    without_line_numbers,
)
from glmagent.patching._paths import display_name, header_agrees
from glmagent.patching._placeholder import placeholder_strength
from glmagent.patching._report import Opcode, Region, context_view, count_changes, opcodes, unified_diff
from glmagent.patching._result import HunkReport, PatchResult
from glmagent.patching._rewrite import REWRITE_MAX_LINES, function_around, is_whole_file, rewrite_hunks
from glmagent.patching._syntax import check_python_syntax
from glmagent.patching._tests_in_code import check_no_tests_added
from glmagent.patching._text import FileText, decode_file, encode_text
from glmagent.patching._unreachable import check_python_reachable


def apply_patch(path: str, original: bytes | None, diff: str) -> PatchResult:
    """Apply a model-written unified diff to one file's bytes; pure (no filesystem access).

    `path` is the workspace-relative target (POSIX separators); `original` its current bytes, or None if
    the file does not exist. Returns what to write (or that the file is to be deleted) plus a report.
    Raises `glmagent.errors.PatchRejected` with a `reason` code and a message a model can act on.
    """
    result = _apply(path, original, diff)
    if result.content is not None:
        check_python_syntax(path, original, result.content)
        check_python_names(path, original, result.content)
        check_python_reachable(path, original, result.content)
        check_no_tests_added(path, original, result.content)
    return result


def apply_edits(
    path: str,
    original: bytes | None,
    edits: Sequence[tuple[Sequence[str], Sequence[str]]],
    *,
    content: bool = False,
) -> PatchResult:
    """`apply_patch` for a change given as (search lines, replace lines) pairs: each pair is one
    SEARCH/REPLACE block, read with no markers to parse, so a line such as `=======` is just a line. An
    item holding line breaks counts as those lines; one that ends in a line break is one line; a line a bare
    `"` cut into two items is read whole again (`_items`). `content`: the one pair is the file's whole new
    text as the model sent it (refusals are worded so)."""
    try:
        return _apply_edits(path, original, edits)
    except PatchRejected as rejected:
        unescaped = read_escaped_breaks(path, edits)
        if unescaped is not None:
            with contextlib.suppress(PatchRejected):  # the refusal of the edit as written stands
                return _apply_edits(path, original, unescaped, (ESCAPED_NOTE,))
        reworded = for_edits(rejected)
        raise (for_content(reworded) if content else reworded) from None


def _apply_edits(
    path: str,
    original: bytes | None,
    edits: Sequence[tuple[Sequence[str], Sequence[str]]],
    read_again: Sequence[str] = (),
) -> PatchResult:
    """`apply_edits` before its refusal is reworded; `read_again`: the notes of a second reading
    (`_block_lines`, `_escaped`) that `edits` already are."""
    file_lines = _lines_of(original)
    file_keys = line_keys(file_lines)
    section = Section()
    notes: list[str] = []
    idle = {n for n, (search, replace) in enumerate(edits, 1) if search and _same_lines(search, replace)}
    if len(idle) < len(edits):
        # Small models list lines they keep as an edit of their own beside the ones that change; it changes
        # nothing, and when its lines are not quite the file's it sank the whole apply_diff.
        notes += [
            f"edit #{n} changes nothing (its search and replace lines are the same): left out" for n in idle
        ]
    else:
        idle = set()
    for number, (search, replace) in enumerate(edits, 1):
        if number in idle:
            continue
        search_lines, replace_lines, note = edit_lines(search, replace, file_keys)
        if note is not None:
            notes.append(f"edit #{number}: {note}")
        bare = None if search_lines else numbered_file_free(replace_lines)
        if bare is not None:
            replace_lines = bare
            notes.append(f"edit #{number}: read without the line numbers copied from the prompt")
        reading = (
            read_by_line_numbers(search_lines, replace_lines, file_lines, file_keys)
            or read_as_part_of_a_line(search_lines, replace_lines, file_lines, file_keys)
            or read_as_paired_lines(search_lines, replace_lines, file_lines)
        )
        if reading is not None:
            search_lines, replace_lines = reading.search, reading.replace
            notes.append(f"edit #{number}: {reading.note}")
        empty = (
            f"Edit #{number} is empty: give the file's lines to change in `search` and their replacement "
            "in `replace`."
        )
        section.hunks.append(block_hunk(number, number, search_lines, replace_lines, empty))
    result = _apply_parsed(path, original, [section], "")
    if result.content is not None:
        try:
            check_python_syntax(path, original, result.content)
        except PatchRejected as refused:
            reading = None if read_again else read_block_lines(edits, file_lines, _lines_of(result.content))
            if reading is None:
                raise
            try:
                return _apply_edits(path, original, reading.edits, reading.notes)
            except PatchRejected:
                raise refused from None  # the edit as written is what the model has to fix
        check_python_names(path, original, result.content)
        check_python_reachable(path, original, result.content)
        check_no_tests_added(path, original, result.content)
    notes += read_again
    if notes and result.hunks:
        result.hunks[0].notes[:0] = notes
    return result


def _same_lines(search: Sequence[str], replace: Sequence[str]) -> bool:
    """Whether an edit puts back exactly what it takes out (trailing spaces aside)."""
    return [line.rstrip() for line in search] == [line.rstrip() for line in replace]


def _lines_of(original: bytes | None) -> list[str]:
    """The file's lines, or none when there is no file or it is not text (`_apply_parsed` says so)."""
    if original is None:
        return []
    try:
        return decode_file(original).lines
    except PatchRejected:
        return []


def _apply(path: str, original: bytes | None, diff: str) -> PatchResult:
    return _apply_parsed(path, original, parse_diff(diff), diff)


def _apply_parsed(path: str, original: bytes | None, sections: list[Section], diff: str) -> PatchResult:
    try:
        return _apply_sections(path, original, sections, diff)
    except PatchRejected as refused:
        bare = without_line_numbers(sections)
        if bare is None:
            raise
        try:
            result = _apply_sections(path, original, bare, diff)
        except PatchRejected:
            raise refused from None  # the refusal of the diff as written says what to fix
    if result.hunks:
        result.hunks[0].notes.insert(0, "read without the line numbers copied from the prompt")
    return result


def _apply_sections(path: str, original: bytes | None, sections: list[Section], diff: str) -> PatchResult:
    _check_one_file(sections, path)
    hunks = [h for s in sections for h in s.hunks]
    creating = any(s.old_null for s in sections)
    deleting = any(s.new_null for s in sections)
    if not hunks and not (creating or deleting):
        raise no_hunks_error(diff)
    if creating and deleting:
        raise PatchRejected(
            f"The diff both creates {path} ('--- /dev/null') and deletes it ('+++ /dev/null'); send one or "
            "the other.",
            reason="unparseable",
        )
    if creating:
        return _create(path, original, hunks, explicit=True)
    if deleting:
        return _delete(path, original, hunks)
    if original is None:
        if hunks and all(k in "+b" for h in hunks for k in h.kinds):
            return _create(path, None, hunks, explicit=False)
        raise PatchRejected(
            f"{path} does not exist, and the diff has unchanged/removed lines, so it edits a file that is "
            "not there. Check the path (list the directory or read the file). To create the file, send a "
            "diff with '--- /dev/null' and only '+' lines.",
            reason="missing_file",
        )
    return _modify(path, decode_file(original), hunks)


# -- target checks -------------------------------------------------------------------------------------


def _check_one_file(sections: list[Section], path: str) -> None:
    others: list[str] = []
    for section in sections:
        for raw in section.names:
            name = display_name(raw)
            name = name[2:] if name.startswith(("a/", "b/")) else name
            if not header_agrees(raw, path) and name not in others:
                others.append(name)
    if others:
        raise PatchRejected(
            f"The diff's headers name {', '.join(others)}, but this call edits {path}. apply_diff changes "
            "one file per call: send each file's part of the diff in its own call with that file's path "
            "(renames are not supported; create the new file and delete the old one).",
            reason="wrong_file",
        )


def _unique(hunks: list[Hunk]) -> tuple[list[Hunk], dict[int, list[int]]]:
    """Drop hunks identical to an earlier one; map kept index -> dropped indexes."""
    seen: dict[tuple[tuple[str, ...], tuple[str, ...]], Hunk] = {}
    dropped: dict[int, list[int]] = {}
    kept: list[Hunk] = []
    for h in hunks:
        key = (tuple(h.kinds), tuple(h.texts))
        first = seen.get(key)
        if first is None:
            seen[key] = h
            kept.append(h)
        else:
            dropped.setdefault(first.index, []).append(h.index)
    return kept, dropped


def _dropped_notes(dropped: dict[int, list[int]], index: int) -> list[str]:
    return [f"duplicate hunk #{d} dropped" for d in dropped.get(index, [])]


def _strong_placeholder(lines: list[str], label: str) -> None:
    for text in lines:
        if placeholder_strength(text) == "strong":
            raise PatchRejected(
                f"{label} adds {quote(text)}, a placeholder for elided code. Added lines are written "
                "literally, so write every line in full.",
                reason="placeholder",
            )


# -- create / delete -----------------------------------------------------------------------------------


def _create(path: str, original: bytes | None, hunks: list[Hunk], *, explicit: bool) -> PatchResult:
    hunks, dropped = _unique(hunks)
    target = decode_file(original) if original is not None else None
    if target is not None and target.lines:
        _refuse_overwrite(
            path, target, [t for h in hunks for k, t in zip(h.kinds, h.texts, strict=True) if k != "-"]
        )
    for h in hunks:
        other = next((t for k, t in zip(h.kinds, h.texts, strict=True) if k in " -"), None)
        if other is not None:
            raise PatchRejected(
                f"{h.label()} belongs to a new-file diff ('--- /dev/null') but has unchanged or removed "
                f"lines (e.g. {quote(other)}); a new file's diff has only '+' lines. To edit an existing "
                f"file, use '--- a/{path}' and its real lines as context.",
                reason="unparseable",
            )
    ordered = _in_file_order(hunks)
    if ordered is None:
        raise PatchRejected(
            f"The new-file diff for {path} has {len(hunks)} hunks whose order is unclear; send the whole "
            "file as one hunk of '+' lines.",
            reason="unparseable",
        )
    hunks = ordered
    lines = [t for h in hunks for t in h.texts]
    _strong_placeholder(lines, f"The new-file diff for {path}")
    final_newline = not (hunks and hunks[-1].new_no_eol)
    newline = target.newline if target is not None else "\n"
    text = newline.join(lines) + (newline if lines and final_newline else "")
    content = encode_text(text, target.encoding, target.bom) if target else encode_text(text, "utf-8", b"")
    ops = [Opcode("insert", 0, 0, 0, len(lines))] if lines else []
    notes = []
    if original is None and not explicit:
        notes.append("no '--- /dev/null' header, but the file is missing and the diff only adds lines")
    reports = [
        HunkReport(h.index, "create", 0, 1, (notes if i == 0 else []) + _dropped_notes(dropped, h.index))
        for i, h in enumerate(hunks)
    ]
    return PatchResult(
        path=path,
        action="create" if original is None else "modify",
        content=content,
        added=len(lines),
        removed=0,
        diff=unified_diff(path, None, True, lines, final_newline, ops),
        hunks=reports,
        context=context_view(lines, ops),
    )


def _refuse_overwrite(path: str, target: FileText, lines: list[str]) -> None:
    """A creation diff for a file that exists with content: already applied, or an overwrite."""
    if keyed("trailing_ws", target.lines) == keyed("trailing_ws", lines):
        raise PatchRejected(
            f"The diff creates {path}, which already exists with exactly that content: it looks already "
            "applied. Re-read the file before editing it again.",
            reason="already_applied",
        )
    raise PatchRejected(
        f"The diff creates {path} ('--- /dev/null' or '@@ -0,0'), but {path} already exists with "
        f"{len(target.lines)} lines; creating it would overwrite them. Re-read the file and send a diff "
        f"against its current content ('--- a/{path}', real lines as context), or pick another path. "
        "It starts:\n" + numbered(target.lines, 0, 5),
        reason="new_file_exists",
    )


def _in_file_order(hunks: list[Hunk]) -> list[Hunk] | None:
    """A new file's hunks in order: one hunk, or several whose +start lines say exactly how they join."""
    if len(hunks) <= 1:
        return hunks
    starts = [h.new_start for h in hunks]
    if any(s is None for s in starts):
        return None
    ordered = sorted(hunks, key=lambda h: h.new_start or 0)
    joined = all((b.new_start or 0) == (a.new_start or 0) + len(a.new_lines) for a, b in pairwise(ordered))
    return ordered if joined else None


def _delete(path: str, original: bytes | None, hunks: list[Hunk]) -> PatchResult:
    if original is None:
        raise PatchRejected(
            f"The diff deletes {path}, which does not exist (it may already be deleted). Check the path.",
            reason="missing_file",
        )
    target = decode_file(original)
    hunks, dropped = _unique(hunks)
    for h in hunks:
        other = next((t for k, t in zip(h.kinds, h.texts, strict=True) if k in " +"), None)
        if other is not None:
            raise PatchRejected(
                f"The diff deletes {path} ('+++ /dev/null'), but {h.label()} keeps or adds lines (e.g. "
                f"{quote(other)}). To delete the file, remove every line; to edit it, use '+++ b/{path}'.",
                reason="partial_delete",
            )
    if all(h.old_start is not None for h in hunks):
        hunks.sort(key=lambda h: h.old_start or 0)
    removed = [t for h in hunks for t in h.texts]
    tier = _whole_file_tier(removed, target.lines)
    if tier is None:
        raise PatchRejected(_partial_delete_message(path, removed, target.lines), reason="partial_delete")
    n = len(target.lines)
    ops = [Opcode("delete", 0, n, 0, 0)] if n else []
    reports = [HunkReport(h.index, "delete", 1, 0, _dropped_notes(dropped, h.index)) for h in hunks]
    return PatchResult(
        path=path,
        action="delete",
        content=None,
        added=0,
        removed=n,
        diff=unified_diff(path, target.lines, target.final_newline, None, True, ops),
        hunks=reports,
        context="",
    )


def _trim_blank_tail(lines: list[str]) -> list[str]:
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def _whole_file_tier(removed: list[str], lines: list[str]) -> Tier | None:
    """The first tier under which the removed lines are the whole file (trailing blank lines aside)."""
    a, b = _trim_blank_tail(removed), _trim_blank_tail(lines)
    for tier in TIERS:
        if keyed(tier, a) == keyed(tier, b):
            return tier
    return None


def _partial_delete_message(path: str, removed: list[str], lines: list[str]) -> str:
    a, b = keyed("indent", removed), keyed("indent", lines)
    first = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    detail = f"The diff removes {len(removed)} lines; the file has {len(lines)}."
    if first < len(a) and first < len(b):
        detail += (
            f" They differ from line {first + 1}: the file has {quote(lines[first])}, the diff removes "
            f"{quote(removed[first])}."
        )
    elif first < len(b):
        detail += f" The file continues after line {first} with:\n" + numbered(lines, first, first + 3)
    return (
        f"The diff deletes {path} ('+++ /dev/null'), but its removed lines are not the whole file. "
        f"{detail}\nTo delete the file, remove every line of its current content (re-read it first); to "
        f"remove only some lines, use '+++ b/{path}' and keep the rest."
    )


# -- modify --------------------------------------------------------------------------------------------


def _modify(path: str, target: FileText, hunks: list[Hunk]) -> PatchResult:
    if not hunks:
        raise PatchRejected(
            "The diff has file headers but no hunks ('@@' lines followed by ' ', '-', '+' lines).",
            reason="unparseable",
        )
    if not target.lines and all(k in "+b" for h in hunks for k in h.kinds):
        return _create(path, target.bom + target.text.encode(target.encoding), hunks, explicit=False)
    rewrite_note = None
    whole = hunks[0].new_lines if is_whole_file(hunks) else None
    if whole is not None and keyed("trailing_ws", whole) != keyed("trailing_ws", target.lines):
        _strong_placeholder(whole, f"The whole new content of {path}")
        hunks, rewrite_note = rewrite_hunks(path, target, whole)
    _check_anchorless(path, target, hunks)
    _check_placeholders(hunks)
    locator = Locator(target.lines, hunks, _tiers_for(path))
    placements: list[Placement] = []
    failures: list[HunkFailure] = []
    for h in hunks:
        try:
            placements.append(locator.place(h))
        except HunkFailure as failure:
            failures.append(failure)
    if failures:
        raise _combined(failures, len(hunks), offer=_whole_offer(path, target, failures, rewrite_note))
    placements = _drop_duplicates(placements)
    changing = [p for p in placements if p.hunk.changes]
    result = _assemble(path, target, changing, [p for p in placements if not p.hunk.changes])
    if rewrite_note is not None and result.hunks:
        result.hunks[0].notes.insert(0, rewrite_note)
    return result


# Languages in which '...' and "..." are the same string; elsewhere ('a' a char, "$x" interpolated) the
# quote is part of what the line means.
_QUOTE_BLIND_SUFFIXES = frozenset(
    {".py", ".pyi", ".pyw", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"}
)


def _tiers_for(path: str) -> tuple[Tier, ...]:
    """The match tiers for a file: quote style is only forgiven where it carries no meaning."""
    return QUOTE_BLIND_TIERS if PurePosixPath(path).suffix.lower() in _QUOTE_BLIND_SUFFIXES else TIERS


def _check_anchorless(path: str, target: FileText, hunks: list[Hunk]) -> None:
    anchorless = [h for h in hunks if not h.old_lines]
    if not anchorless:
        return
    if len(anchorless) == len(hunks):
        added = [t for h in hunks for t in h.new_lines]
        if keyed("trailing_ws", added) == keyed("trailing_ws", target.lines):
            raise PatchRejected(
                f"The diff adds the whole content of {path}, which the file already has: it looks already "
                "applied. Re-read the file before editing it again.",
                reason="already_applied",
            )
        if any(h.old_start == 0 and h.old_count == 0 for h in hunks):
            raise PatchRejected(
                f"The diff is a new-file diff ('@@ -0,0 ...' with only added lines), but {path} already "
                f"exists with {len(target.lines)} lines. Re-read it and send a diff against its current "
                "content, with unchanged lines as context.",
                reason="new_file_exists",
            )
    h = anchorless[0]
    raise PatchRejected(
        f"{h.label()} only adds lines and has no unchanged or removed lines, so where they belong in this "
        f"{len(target.lines)}-line file cannot be checked. Include 2-3 unchanged lines before and after the "
        "insertion point as context (lines starting with a space).",
        reason="ambiguous",
    )


def _check_placeholders(hunks: list[Hunk]) -> None:
    for h in hunks:
        old = {t.strip() for t in h.old_lines}
        added = [t for k, t in zip(h.kinds, h.texts, strict=True) if k == "+"]
        added_set = {t.strip() for t in added}
        dropped = [
            t
            for k, t in zip(h.kinds, h.texts, strict=True)
            if k == "-" and t.strip() and t.strip() not in added_set
        ]
        for text in added:
            strength = placeholder_strength(text)
            if strength is None or text.strip() in old:
                continue
            if strength == "weak" and not dropped:
                continue
            lost = ""
            if dropped:
                plural = "s" if len(dropped) != 1 else ""
                lost = f" in place of {len(dropped)} removed line{plural} (e.g. {quote(dropped[0])})"
            raise PatchRejected(
                f"{h.label()} adds {quote(text)}{lost}: a placeholder for elided code. apply_diff writes "
                "added lines literally, so the real code would be lost or junk added. Write every added "
                "line in full; leave code you are not changing out of the hunk (or as ' ' context lines), "
                "splitting the change into smaller hunks if needed.",
                reason="placeholder",
            )


def _whole_offer(path: str, target: FileText, failures: list[HunkFailure], rewrite_note: str | None) -> str:
    """For edits whose lines are not the file's: the form that needs no line recalled exactly. The
    function the edit was aimed at, sent whole (Python), else the whole file when it is short; "" when
    neither fits or the edit was such a form already."""
    stale = [f for f in failures if f.reason == "stale_context"]
    if rewrite_note is not None or not stale:
        return ""
    near = stale[0].near
    around = function_around(path, target.lines, near) if near is not None else None
    if around is not None:
        name, first, end = around
        return (
            f"\nOr send the whole of `{name}` (lines {first + 1}-{end}) with your change as `content`: the "
            f"complete new `{name}` from its first line to its last (every unchanged line too). It replaces "
            "that definition; the rest of the file is kept."
        )
    if len(target.lines) <= REWRITE_MAX_LINES:
        return (
            "\nOr, as the file is short, send it whole as `content`: the complete new file (every unchanged "
            "line too)."
        )
    return ""


def _combined(failures: list[HunkFailure], total: int, *, offer: str = "") -> PatchRejected:
    """One refusal for every failed hunk, ending with `offer` (see `_whole_offer`)."""
    if len(failures) == 1:
        message = failures[0].message
    else:
        message = f"{len(failures)} of {total} hunks cannot be applied:\n\n" + "\n\n".join(
            f.message for f in failures
        )
    if len(failures) < total:
        others = total - len(failures)
        message += (
            f"\n(The other {others} hunk{'s' if others != 1 else ''} matched, but nothing was applied: a "
            "diff applies whole or not at all. Resend it with every hunk fixed.)"
        )
    message += offer
    suggestion = failures[0].suggestion if len(failures) == 1 == total else ""
    return PatchRejected(message, reason=failures[0].reason, suggestion=suggestion)


def _drop_duplicates(placements: list[Placement]) -> list[Placement]:
    seen: dict[object, Placement] = {}
    kept: list[Placement] = []
    for p in placements:
        first = seen.get(p.signature())
        if first is None:
            seen[p.signature()] = p
            kept.append(p)
        else:
            first.notes.append(f"duplicate hunk #{p.hunk.index} dropped")
    return kept


@dataclass(slots=True)
class _Edit:
    """A placement reduced to its effect: deleted file lines and lines inserted before each slot."""

    placement: Placement
    start: int
    end: int
    deletes: set[int] = field(default_factory=set)
    inserts: dict[int, list[str]] = field(default_factory=dict)  # slot k = before file line k

    @classmethod
    def of(cls, p: Placement) -> _Edit:
        edit = cls(p, p.start, p.end)
        slot = p.start
        for op, value in p.plan:
            if op == "add":
                assert isinstance(value, str)
                edit.inserts.setdefault(slot, []).append(value)
            else:
                assert isinstance(value, int)
                if op == "del":
                    edit.deletes.add(value)
                slot = value + 1
        return edit


@dataclass(slots=True)
class _Cluster:
    """Hunks whose regions overlap only in unchanged lines, merged into one splice."""

    start: int
    end: int
    plan: list[tuple[str, int | str]]


def _conflict(a: _Edit, b: _Edit) -> str | None:
    """Why two overlapping edits cannot both apply, or None when they only share unchanged lines."""
    for x, y in ((a, b), (b, a)):
        for line in sorted(x.deletes):
            if y.start <= line < y.end:
                return f"line {line + 1} is removed by one and used by the other"
        for slot in sorted(x.inserts):
            if y.start < slot < y.end:
                return f"one adds lines between lines {slot} and {slot + 1}, inside the other"
    shared = sorted(set(a.inserts) & set(b.inserts))
    if shared:
        return f"both add lines before line {shared[0] + 1}, in no defined order"
    return None


def _merge(placements: list[Placement]) -> list[_Cluster]:
    """Merge hunks that share context lines; reject hunks that change the same lines ("overlap")."""
    edits = sorted((_Edit.of(p) for p in placements), key=lambda e: (e.start, e.end))
    groups: list[list[_Edit]] = []
    for edit in edits:
        if groups and edit.start < max(e.end for e in groups[-1]):
            groups[-1].append(edit)
        else:
            groups.append([edit])
    clusters: list[_Cluster] = []
    for group in groups:
        for k, a in enumerate(group):
            for b in group[k + 1 :]:
                if b.start >= a.end:
                    continue
                why = _conflict(a, b)
                if why is not None:
                    pa, pb = a.placement, b.placement
                    raise PatchRejected(
                        f"{pa.hunk.label()} (lines {pa.start + 1}-{pa.end}) and {pb.hunk.label()} (lines "
                        f"{pb.start + 1}-{pb.end}) overlap in the file: {why}. Merge them into one hunk so "
                        "each line is changed once.",
                        reason="overlap",
                    )
        if len(group) == 1:
            only = group[0].placement
            clusters.append(_Cluster(only.start, only.end, only.plan))
            continue
        start, end = group[0].start, max(e.end for e in group)
        deletes = set().union(*(e.deletes for e in group))
        plan: list[tuple[str, int | str]] = []
        for line in range(start, end + 1):
            for e in group:
                plan.extend(("add", text) for text in e.inserts.get(line, ()))
            if line < end:
                plan.append(("del" if line in deletes else "keep", line))
        clusters.append(_Cluster(start, end, plan))
    return clusters


def _new_starts(placements: list[Placement]) -> dict[int, int]:
    """1-based line in the result where each hunk's region begins, keyed by hunk index."""
    deleted: list[int] = []
    inserted: list[tuple[int, int]] = []
    for p in placements:
        edit = _Edit.of(p)
        deleted.extend(edit.deletes)
        inserted.extend((slot, len(texts)) for slot, texts in edit.inserts.items())
    deleted.sort()
    inserted.sort()
    slots = [slot for slot, _ in inserted]
    counts = list(accumulate(count for _, count in inserted))
    starts: dict[int, int] = {}
    for p in placements:
        before = bisect_left(slots, p.start)
        shift = (counts[before - 1] if before else 0) - bisect_left(deleted, p.start)
        starts[p.hunk.index] = p.start + shift + 1
    return starts


def _assemble(
    path: str, target: FileText, placements: list[Placement], noops: list[Placement]
) -> PatchResult:
    """Splice the planned regions into the original text; untouched stretches are copied verbatim."""
    clusters = _merge(placements)
    lines, text, newline = target.lines, target.text, target.newline
    pieces: list[str] = []
    new_lines: list[str] = []
    regions: list[Region] = []
    line_at = char_at = out_at = 0
    for c in clusters:
        skip = target.span(line_at, c.start)
        pieces.append(text[char_at : char_at + skip])
        new_lines.extend(lines[line_at : c.start])
        char_at += skip
        out_at += c.start - line_at
        region: list[str] = []
        for op, value in c.plan:
            if op == "keep":
                assert isinstance(value, int)
                region.append(lines[value])
                pieces.append(lines[value] + (target.eol(value) or newline))
            elif op == "add":
                assert isinstance(value, str)
                region.append(value)
                pieces.append(value + newline)
        new_lines.extend(region)
        regions.append(Region(c.start, c.end, out_at, out_at + len(region)))
        out_at += len(region)
        char_at += target.span(c.start, c.end)
        line_at = c.end
    pieces.append(text[char_at:])
    new_lines.extend(lines[line_at:])
    final_newline = _final_newline(target, placements)
    result = _with_final_newline("".join(pieces), final_newline, newline)
    content = encode_text(result, target.encoding, target.bom)
    ops = opcodes(lines, target.final_newline, new_lines, final_newline, regions)
    added, removed = count_changes(ops)
    everything = sorted([*placements, *noops], key=lambda p: p.hunk.index)
    new_starts = _new_starts(everything)
    reports = [
        HunkReport(p.hunk.index, p.tier, p.start + 1, new_starts[p.hunk.index], list(p.notes))
        for p in everything
    ]
    return PatchResult(
        path=path,
        action="modify",
        content=content,
        added=added,
        removed=removed,
        diff=unified_diff(path, lines, target.final_newline, new_lines, final_newline, ops)
        if added or removed
        else "",
        hunks=reports,
        context=context_view(new_lines, ops),
    )


def _final_newline(target: FileText, placements: list[Placement]) -> bool:
    """The file's own final-newline state, unless a hunk reaching the end changes the marker."""
    final = target.final_newline
    for p in placements:
        if p.end != len(target.lines):
            continue
        if p.hunk.new_no_eol and not p.hunk.old_no_eol:
            final = False
        elif p.hunk.old_no_eol and not p.hunk.new_no_eol:
            final = True
    return final


def _with_final_newline(text: str, final_newline: bool, newline: str) -> str:
    if not text:
        return text
    if final_newline and not text.endswith("\n"):
        return text + newline
    if not final_newline and text.endswith("\n"):
        return text[:-2] if text.endswith("\r\n") else text[:-1]
    return text
