"""Apply model-written unified diffs: lenient about form, strict about meaning.

`apply_patch(path, original, diff)` is pure (bytes in, bytes out). It forgives the ways models mangle the
*form* of a diff (wrong @@ numbers, missing headers, fences and prose, CRLF, whitespace and indentation
drift, duplicate or out-of-order hunks) and refuses, with an actionable message, anything whose *meaning*
is unclear (ambiguous or stale context, placeholders, already-applied changes, wrong file, overlaps).
"""

from glmagent.patching._apply import apply_patch
from glmagent.patching._result import HunkReport, PatchResult

__all__ = ["HunkReport", "PatchResult", "apply_patch"]
