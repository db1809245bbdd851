"""Render what actually changed: a unified diff and numbered context, from original vs result lines.

Opcodes are computed per changed region (never over the whole file), so reporting stays cheap on large
files; the regions come from where hunks were placed.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

_NO_EOL = "\\ No newline at end of file"
_CONTEXT = 3
_SHOW_AROUND = 2
_MAX_REGION_LINES = 30


class Opcode(NamedTuple):
    """A difflib-style opcode: lines a[i1:i2] become b[j1:j2]."""

    tag: str
    i1: int
    i2: int
    j1: int
    j2: int


class Region(NamedTuple):
    """Old lines [old_start, old_end) became new lines [new_start, new_end); outside, the files agree."""

    old_start: int
    old_end: int
    new_start: int
    new_end: int


def _eof_keys(lines: Sequence[str], final_newline: bool, start: int, end: int) -> list[str]:
    """Comparison keys for lines[start:end]; a last line without newline differs from one with."""
    keys = list(lines[start:end])
    if keys and end == len(lines) and not final_newline:
        keys[-1] += "\x00no-eol"
    return keys


def opcodes(
    old: Sequence[str],
    old_final_newline: bool,
    new: Sequence[str],
    new_final_newline: bool,
    regions: Sequence[Region],
) -> list[Opcode]:
    """All opcodes of old -> new, diffing only inside `regions` (sorted, non-overlapping)."""
    # Widen each region by a line on both sides (so a change of the final newline next to a region is
    # seen) and merge regions that then touch: the stretch between merged regions is equal on both sides.
    merged: list[list[int]] = []
    for r in regions:
        lo = min(1, r.old_start, r.new_start)
        hi = min(1, len(old) - r.old_end, len(new) - r.new_end)
        span = [r.old_start - lo, r.old_end + hi, r.new_start - lo, r.new_end + hi]
        if merged and span[0] <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], span[1])
            merged[-1][3] = max(merged[-1][3], span[3])
        else:
            merged.append(span)
    out: list[Opcode] = []
    i = j = 0
    for a1, a2, b1, b2 in merged:
        if a1 > i:
            out.append(Opcode("equal", i, a1, j, b1))
        a = _eof_keys(old, old_final_newline, a1, a2)
        b = _eof_keys(new, new_final_newline, b1, b2)
        for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            out.append(Opcode(tag, a1 + i1, a1 + i2, b1 + j1, b1 + j2))
        i, j = a2, b2
    if i < len(old) or j < len(new):
        out.append(Opcode("equal", i, len(old), j, len(new)))
    # Coalesce neighbouring equal runs (region edges), so context is counted as difflib would.
    merged_ops: list[Opcode] = []
    for op in out:
        if op.i1 == op.i2 and op.j1 == op.j2:
            continue
        if merged_ops and op.tag == "equal" and merged_ops[-1].tag == "equal":
            prev = merged_ops[-1]
            merged_ops[-1] = Opcode("equal", prev.i1, op.i2, prev.j1, op.j2)
        else:
            merged_ops.append(op)
    return merged_ops


def count_changes(ops: Sequence[Opcode]) -> tuple[int, int]:
    """(added, removed) line counts."""
    added = sum(op.j2 - op.j1 for op in ops if op.tag in ("insert", "replace"))
    removed = sum(op.i2 - op.i1 for op in ops if op.tag in ("delete", "replace"))
    return added, removed


def _grouped(ops: Sequence[Opcode], context: int) -> list[list[Opcode]]:
    """Split opcodes into hunks with `context` equal lines around changes (like difflib's grouping)."""
    changes = [k for k, op in enumerate(ops) if op.tag != "equal"]
    if not changes:
        return []
    groups: list[list[Opcode]] = []
    group: list[Opcode] = []
    for k in range(changes[0], changes[-1] + 1):
        op = ops[k]
        if op.tag == "equal":
            size = op.i2 - op.i1
            if size > 2 * context:
                group.append(Opcode("equal", op.i1, op.i1 + context, op.j1, op.j1 + context))
                groups.append(group)
                group = [Opcode("equal", op.i2 - context, op.i2, op.j2 - context, op.j2)]
                continue
        group.append(op)
    groups.append(group)
    first = ops[changes[0] - 1] if changes[0] > 0 else None
    last = ops[changes[-1] + 1] if changes[-1] + 1 < len(ops) else None
    if first is not None:
        k = max(first.i1, first.i2 - context)
        groups[0].insert(0, Opcode("equal", k, first.i2, first.j2 - (first.i2 - k), first.j2))
    if last is not None:
        groups[-1].append(
            Opcode(
                "equal", last.i1, min(last.i2, last.i1 + context), last.j1, min(last.j2, last.j1 + context)
            )
        )
    return groups


def _range(start: int, length: int) -> str:
    if length == 1:
        return str(start + 1)
    if length == 0:
        return f"{start},0"
    return f"{start + 1},{length}"


def unified_diff(
    path: str,
    old: Sequence[str] | None,
    old_final_newline: bool,
    new: Sequence[str] | None,
    new_final_newline: bool,
    ops: Sequence[Opcode],
) -> str:
    """A unified diff (a/path b/path, /dev/null for a missing side) rendering `ops`."""
    a = old or []
    b = new or []
    out = [
        f"--- a/{path}" if old is not None else "--- /dev/null",
        f"+++ b/{path}" if new is not None else "+++ /dev/null",
    ]
    for group in _grouped(ops, _CONTEXT):
        i1, i2, j1, j2 = group[0].i1, group[-1].i2, group[0].j1, group[-1].j2
        out.append(f"@@ -{_range(i1, i2 - i1)} +{_range(j1, j2 - j1)} @@")
        for op in group:
            if op.tag == "equal":
                for i in range(op.i1, op.i2):
                    out.append(" " + a[i])
                    if i == len(a) - 1 and not old_final_newline:
                        out.append(_NO_EOL)
                continue
            for i in range(op.i1, op.i2):
                out.append("-" + a[i])
                if i == len(a) - 1 and not old_final_newline:
                    out.append(_NO_EOL)
            for j in range(op.j1, op.j2):
                out.append("+" + b[j])
                if j == len(b) - 1 and not new_final_newline:
                    out.append(_NO_EOL)
    return "\n".join(out) + "\n"


def context_view(new: Sequence[str], ops: Sequence[Opcode]) -> str:
    """Numbered lines of the result around each change; added lines marked '+', removals noted."""
    changed = [op for op in ops if op.tag != "equal"]
    if not changed:
        return ""
    width = len(str(len(new)))
    # Cluster changes whose shown windows would touch.
    clusters: list[list[Opcode]] = []
    for op in changed:
        if clusters and op.j1 - clusters[-1][-1].j2 <= 2 * _SHOW_AROUND:
            clusters[-1].append(op)
        else:
            clusters.append([op])
    blocks: list[str] = []
    for cluster in clusters:
        lo = max(0, cluster[0].j1 - _SHOW_AROUND)
        hi = min(len(new), cluster[-1].j2 + _SHOW_AROUND)
        added = {j for op in cluster for j in range(op.j1, op.j2)}
        removed_before = {op.j1: op.i2 - op.i1 for op in cluster if op.tag in ("delete", "replace")}
        rows: list[str] = []
        for j in range(lo, hi + 1):
            if j in removed_before:
                count = removed_before[j]
                rows.append(f"{'':>{width}}   ({count} line{'s' if count != 1 else ''} removed here)")
            if j < hi:
                mark = "+" if j in added else " "
                rows.append(f"{j + 1:>{width}} {mark} {new[j]}")
        if len(rows) > _MAX_REGION_LINES:
            keep = _MAX_REGION_LINES // 2
            rows = [*rows[:keep], f"{'':>{width}}   ...", *rows[-keep:]]
        title = f"lines {lo + 1}-{hi}:" if hi > lo else f"at line {lo + 1}:"
        blocks.append(title + "\n" + "\n".join(rows))
    return "\n".join(blocks)
