"""`read_file` and `apply_diff`: the agent's only ways to see and change the user's files.

Both are bounded (`glmagent.limits`): `read_file` reads at most `read_max_bytes` of a file and shows a part
of a longer one by line range (`lines: "START-END"`), `apply_diff` refuses diffs over `diff_max_bytes` and
files over `edit_max_bytes`. Memory stays proportional to the bounds, not to the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from glmagent.dropped_names import dropped
from glmagent.errors import PatchRejected
from glmagent.limits import DIFF_MAX_BYTES, EDIT_MAX_BYTES, READ_MAX_BYTES
from glmagent.observation import AROUND_CHANGES, Observation
from glmagent.workspace import PathRejected, Workspace

if TYPE_CHECKING:
    from glmagent.contract import Edit

#: read_file shows at most this many lines / characters; the note at the end says what was left out.
READ_MAX_LINES = 1500
READ_MAX_CHARS = 80_000
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d*)\s*)?$")


def parse_line_range(lines: str | None) -> tuple[int, int | None]:
    """`"120-180"` → (120, 180); `"120"` → (120, 120); `"120-"` → (120, None); None → (1, None)."""
    if lines is None:
        return 1, None
    match = _RANGE.match(lines)
    if not match:
        raise PathRejected(f'lines {lines!r} is not a line range; write it as "START-END", e.g. "120-180"')
    start = int(match.group(1))
    end_text = match.group(2)
    end = None if end_text == "" else int(end_text) if end_text is not None else start
    if start < 1 or (end is not None and end < start):
        raise PathRejected(
            f"lines {lines!r}: the range must start at 1 or later and not end before it starts"
        )
    return start, end


def read_file(
    workspace: Workspace, path: str, lines: str | None = None, *, max_bytes: int = READ_MAX_BYTES
) -> Observation:
    """The file's text with line numbers (capped, or the `lines` range), or a clear failure."""
    start, end = parse_line_range(lines)
    target = workspace.resolve(path)
    shown = workspace.relative(target)
    workspace.require_regular(target, shown)
    if target.is_dir():
        entries = sorted(p.name + ("/" if p.is_dir() else "") for p in target.iterdir())
        listing = "\n".join(entries[:200])
        return Observation(
            tool="read_file",
            status="failed",
            summary=f"Could not read {shown}: it is a directory",
            output=f"{shown} is a directory. Its entries:\n{listing}",
        )
    if not target.exists():
        return Observation(
            tool="read_file",
            status="failed",
            summary=f"Could not read {shown}: no such file",
            output=f"{shown} does not exist. Use `git_status` or `run` with `ls` to see which files exist.",
        )
    size = target.stat().st_size
    with target.open("rb") as handle:
        if b"\x00" in handle.read(8192):
            return Observation(
                tool="read_file",
                status="failed",
                summary=f"Did not read {shown}: binary file ({size:,} bytes)",
                output=f"{shown} is a binary file ({size:,} bytes); read_file shows text only.",
            )
        handle.seek(0)
        if lines is None and size <= max_bytes:
            return _whole_file(shown, handle.read())
        return _line_range(shown, handle, size, start, end, max_bytes)


def range_request(shown: str, first: int) -> str:
    """The action that reads the next part of a file: what the model is told to send."""
    return json.dumps({"tool": "read_file", "path": shown, "lines": f"{first}-{first + READ_MAX_LINES - 1}"})


def _whole_file(shown: str, data: bytes) -> Observation:
    text = data.decode("utf-8-sig", errors="replace")
    lines = text.splitlines()
    numbered, used = [], 0
    width = len(str(len(lines)))
    for number, line in enumerate(lines[:READ_MAX_LINES], start=1):
        entry = f"{number:>{width}} | {line}"
        if used + len(entry) > READ_MAX_CHARS:
            break
        numbered.append(entry)
        used += len(entry) + 1
    body = "\n".join(numbered)
    if len(numbered) < len(lines):
        following = len(numbered) + 1
        body += (
            f"\n[... lines {following}-{len(lines)} of {len(lines)} not shown; read them with "
            f"{range_request(shown, following)} ...]"
        )
    return Observation(
        tool="read_file",
        status="ok",
        summary=f"Read {shown} ({len(lines)} lines)",
        output=f"{shown} ({len(lines)} lines; line numbers are not part of the file):\n{body}",
        details={"path": shown, "lines": len(lines), "bytes": len(data)},
    )


def _line_range(
    shown: str, handle: object, size: int, start: int, end: int | None, max_bytes: int
) -> Observation:
    """Lines `start`..`end` of a file, streamed: at most `max_bytes` and the display caps are held."""
    number, kept, used, cut_short = 0, [], 0, False
    readline = handle.readline  # type: ignore[attr-defined]
    while True:
        raw = readline(max_bytes + 1)
        if not raw:
            break
        if not raw.endswith(b"\n"):
            # A line longer than the read limit: the rest of it is skipped, not held in memory.
            while raw and not raw.endswith(b"\n"):
                raw = readline(max_bytes + 1)
            raw = b"[... a line longer than " + str(max_bytes).encode() + b" bytes, not shown ...]"
        number += 1
        if number < start:
            continue
        if end is not None and number > end:
            break
        text = raw.decode("utf-8-sig" if number == 1 else "utf-8", errors="replace").rstrip("\r\n")
        if len(kept) >= READ_MAX_LINES or used + len(text) > min(READ_MAX_CHARS, max_bytes):
            cut_short = True
            break
        kept.append(text)
        used += len(text) + 1
    if not kept:
        return Observation(
            tool="read_file",
            status="failed",
            summary=f"Could not read {shown} from line {start}: it has {number:,} lines",
            output=f"{shown} has {number:,} lines ({size:,} bytes); ask for a range within them.",
        )
    last = start + len(kept) - 1
    width = len(str(last))
    body = "\n".join(f"{n:>{width}} | {line}" for n, line in enumerate(kept, start=start))
    more = cut_short or (end is None and readline(1) != b"")
    note = f"\n[... more lines follow; read them with {range_request(shown, last + 1)} ...]" if more else ""
    return Observation(
        tool="read_file",
        status="ok",
        summary=f"Read {shown} lines {start}-{last} ({size:,} bytes in all)",
        output=(
            f"{shown} lines {start}-{last} (the file has {size:,} bytes; line numbers are not part of the "
            f"file):\n{body}{note}"
        ),
        details={"path": shown, "first_line": start, "last_line": last, "bytes": size},
    )


def apply_diff(
    workspace: Workspace,
    path: str,
    diff: str,
    *,
    edits: Sequence[Edit] | None = None,
    content: bool = False,
    max_diff_bytes: int = DIFF_MAX_BYTES,
    max_file_bytes: int = EDIT_MAX_BYTES,
) -> Observation:
    """Apply a diff to one file, atomically; all hunks or none. With `edits`, those are the change and
    `diff` is only how they read as text (its size is the change's size); `content`: the one edit is the
    file's whole new text, as the model sent it."""
    from glmagent.patching import apply_edits, apply_patch  # lazy: keeps `glmagent --help` fast
    from glmagent.secrets import REDACTED

    target = workspace.resolve(path, for_write=True)
    shown = workspace.relative(target)
    workspace.require_regular(target, shown)
    diff_size = len(diff.encode("utf-8", "surrogatepass"))
    if diff_size > max_diff_bytes:
        return _too_big(
            shown,
            f"the diff is {diff_size:,} bytes, over the limit of {max_diff_bytes:,}; split the change into "
            "several smaller diffs (one region of the file each)",
        )
    if target.is_file() and target.stat().st_size > max_file_bytes:
        return _too_big(
            shown,
            f"the file is {target.stat().st_size:,} bytes, over the limit of {max_file_bytes:,} for edits; "
            "change it with a command instead (the command policy checks it)",
        )
    if target.is_dir():
        return Observation(
            tool="apply_diff",
            status="failed",
            summary=f"Diff for {shown} not applied: it is a directory",
            output=f"{shown} is a directory; apply_diff edits one file per call.",
        )
    original = target.read_bytes() if target.exists() else None
    try:
        if edits is not None:
            result = apply_edits(shown, original, [(e.search, e.replace) for e in edits], content=content)
        else:
            result = apply_patch(shown, original, diff)
    except PatchRejected as rejected:
        return Observation(
            tool="apply_diff",
            status="failed",
            summary=f"Diff for {shown} not applied ({rejected.reason}); file unchanged",
            output=f"The diff for {shown} was NOT applied; the file is unchanged.\n{rejected}",
            details={"path": shown, "reason": rejected.reason}
            | ({"suggested_diff": rejected.suggestion} if rejected.suggestion else {}),
        )
    written_back = _writes_back_redactions(original, result.content)
    if written_back:
        return Observation(
            tool="apply_diff",
            status="failed",
            summary=f"Diff for {shown} not applied (it writes {REDACTED}); file unchanged",
            output=(
                f"The diff for {shown} was NOT applied; the file is unchanged: it writes {REDACTED} "
                f"{written_back} time(s), the mark that stands for a secret hidden from you. Writing it "
                "would replace that secret in the file. Change only lines that do not hold one (with "
                '"edits").'
            ),
            details={"path": shown, "reason": "writes_redaction"},
        )
    if result.action == "delete":
        workspace.delete(target)
        summary = f"Deleted {shown} (-{result.removed})"
    else:
        assert result.content is not None
        workspace.write_atomic(target, result.content)
        verb = "Created" if result.action == "create" else "Modified"
        summary = f"{verb} {shown} (+{result.added} -{result.removed})"
    hunk_notes = ", ".join(h.tier for h in result.hunks)
    python = shown.endswith((".py", ".pyi"))
    gone = dropped(original, result.content) if python and result.action != "create" else []
    output = f"{result.summary()}\nResulting change:\n{result.diff}"
    if result.context:
        output += f"\n{AROUND_CHANGES}\n{result.context}"
    return Observation(
        tool="apply_diff",
        status="ok",
        summary=summary,
        output=output,
        details={
            "path": shown,
            "action": result.action,
            "added": result.added,
            "removed": result.removed,
            "match_tiers": hunk_notes,
            "diff": result.diff,
        }
        | ({"dropped_names": gone} if gone else {}),
    )


def _writes_back_redactions(original: bytes | None, content: bytes | None) -> int:
    """How many more redaction marks the new text holds than the file did: each one the model copied from
    what it was shown, where the file holds a secret."""
    from glmagent.secrets import REDACTED

    if content is None:
        return 0
    mark = REDACTED.encode()
    return max(0, content.count(mark) - (original.count(mark) if original else 0))


def _too_big(shown: str, reason: str) -> Observation:
    return Observation(
        tool="apply_diff",
        status="failed",
        summary=f"Diff for {shown} not applied (too large); file unchanged",
        output=f"The diff for {shown} was NOT applied; the file is unchanged: {reason}.",
        details={"path": shown, "reason": "too_large"},
    )
