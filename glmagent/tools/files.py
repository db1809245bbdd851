"""`read_file` and `apply_diff`: the agent's only ways to see and change the user's files."""

from __future__ import annotations

from glmagent.errors import PatchRejected
from glmagent.observation import Observation
from glmagent.workspace import Workspace

#: read_file shows at most this many lines / characters; the note at the end says what was left out.
READ_MAX_LINES = 1500
READ_MAX_CHARS = 80_000


def read_file(workspace: Workspace, path: str) -> Observation:
    """The file's text with line numbers (capped), or a clear failure."""
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
    data = target.read_bytes()
    if b"\x00" in data[:8192]:
        return Observation(
            tool="read_file",
            status="failed",
            summary=f"Did not read {shown}: binary file ({len(data):,} bytes)",
            output=f"{shown} is a binary file ({len(data):,} bytes); read_file shows text only.",
        )
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
        body += (
            f"\n[... lines {len(numbered) + 1}-{len(lines)} of {len(lines)} not shown; "
            "use `run` with `sed -n 'START,ENDp' FILE` to read further ...]"
        )
    return Observation(
        tool="read_file",
        status="ok",
        summary=f"Read {shown} ({len(lines)} lines)",
        output=f"{shown} ({len(lines)} lines; line numbers are not part of the file):\n{body}",
        details={"path": shown, "lines": len(lines), "bytes": len(data)},
    )


def apply_diff(workspace: Workspace, path: str, diff: str) -> Observation:
    """Apply a unified diff to one file, atomically; all hunks or none."""
    from glmagent.patching import apply_patch  # lazy: keeps `glmagent --help` fast

    target = workspace.resolve(path, for_write=True)
    shown = workspace.relative(target)
    workspace.require_regular(target, shown)
    if target.is_dir():
        return Observation(
            tool="apply_diff",
            status="failed",
            summary=f"Diff for {shown} not applied: it is a directory",
            output=f"{shown} is a directory; apply_diff edits one file per call.",
        )
    original = target.read_bytes() if target.exists() else None
    try:
        result = apply_patch(shown, original, diff)
    except PatchRejected as rejected:
        return Observation(
            tool="apply_diff",
            status="failed",
            summary=f"Diff for {shown} not applied ({rejected.reason}); file unchanged",
            output=f"The diff for {shown} was NOT applied; the file is unchanged.\n{rejected}",
            details={"path": shown, "reason": rejected.reason},
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
    output = f"{result.summary()}\nResulting change:\n{result.diff}"
    if result.context:
        output += f"\nThe file around each change now reads:\n{result.context}"
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
        },
    )
