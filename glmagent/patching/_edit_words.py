"""Refusals of a change sent as `edits`, reworded in the terms of that form.

The patcher's messages name the parts of a diff: hunks, SEARCH parts, `' '`/`'-'` lines, `@@` headers. A
model that sent `edits` wrote none of those, and a small one told that "hunk #1 (SEARCH/REPLACE)'s
unchanged/removed lines" are not in the file, or handed a SEARCH/REPLACE block to send, has to translate
before it can act on it. So `apply_edits` passes each refusal through `for_edits`, which rewords the diff's
vocabulary into edits' (`edit #1`, search lines, replace lines) and turns a suggested SEARCH/REPLACE block
into the edit to send.
The rewording is phrase by phrase; `tests/test_edits_form.py` checks that no diff term is left in the
refusals edits can meet.
"""

from __future__ import annotations

import json
import re

from glmagent.errors import PatchRejected

_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"hunk #(\d+) \(SEARCH/REPLACE\)", r"edit #\1"),
        (r"The other (\d+) hunks? matched", r"The other \1 edit(s) matched"),
        (
            r"a diff applies whole or not at all\. Resend it with every hunk fixed\.",
            "the edits apply all together or not at all. Resend them with every edit fixed.",
        ),
        (r"its unchanged/removed lines", "its search lines"),
        (r"its removed/context lines", "its search lines"),
        (r"These lines of the hunk", "These search lines"),
        (r"the lines to find \(SEARCH, or ' '/'-' lines\)", "the search lines"),
        (r"the replacement \(REPLACE, or '\+' lines\)", "the replace lines"),
        (r"your SEARCH lines", "your search lines"),
        (r"an empty SEARCH part \(an empty `search` list\)", "an empty `search` list"),
        (r"An empty SEARCH part", "An empty `search` list"),
        (r"SEARCH/REPLACE blocks whose SEARCH lines", "edits whose search lines"),
        (r"a SEARCH/REPLACE block whose SEARCH lines", "an edit whose search lines"),
        (
            r"Re-read the file and resend the diff with its unchanged and removed lines copied exactly "
            r"from it\.",
            "Resend the edit with its search lines copied exactly from the file as it is now (without "
            "the line numbers and ' | ').",
        ),
        (
            r"so the hunk matches exactly one place, and put that place's line number in the @@ header\.",
            "so the search lines match exactly one place.",
        ),
        (r"Add unchanged context lines", "Add search lines"),
        (r"\(the diff was made against other content,", "(the edit was made against other content,"),
        (
            r"Send the diff again so that the code stays valid",
            "Send the edit again so that the code stays valid",
        ),
        (r"With this diff ", "With this edit "),
        (r"Send the diff again keeping", "Send the edit again keeping"),
        (
            r"leave code you are not changing out of the hunk \(or as ' ' context lines\), splitting the "
            r"change into smaller hunks if needed\.",
            "leave code you are not changing out of the edit, splitting the change into smaller edits if "
            "needed.",
        ),
        (
            r"A diff must quote the file's real lines: use separate, smaller hunks around each change",
            "Search lines must be the file's real lines: use separate, smaller edits around each change",
        ),
        (r"Merge them into one hunk so", "Merge them into one edit so"),
        (
            r"Include a few non-blank unchanged lines around the change as context\.",
            "Include a few non-blank lines around the change in both search and replace.",
        ),
    )
)

_CONTENT_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"An empty `search` list sends", "`content` sends"),
        (r"an empty `search` list", "`content`"),
        (r"\bedit #1\b", "the content"),
        (r"\bEdit #1\b", "The content"),
        (r"Send the edit again", "Send the content again"),
        (
            r"The diff adds the whole content of (\S+), which the file already has: it looks already "
            r"applied\. Re-read the file before editing it again\.",
            r"The content is \1 as it is: nothing would change, and the fix is still to be made. Send the "
            "content again with the lines that must change changed.",
        ),
    )
)
"""What `for_content` changes further, for a change sent as the file's whole `content` (one edit with an
empty `search` underneath)."""

_BLOCK = re.compile(r"<<<<<<< SEARCH\n(.*?)=======\n(.*?)>>>>>>> REPLACE", re.DOTALL)


_FILE_ROW = re.compile(r"^  [ >] *\d+\| ")
"""A file line as messages show it (`_locate.numbered`): never reworded."""


def for_edits(rejected: PatchRejected) -> PatchRejected:
    """`rejected` reworded for a change sent as edits (same reason; a suggested block becomes an edit).
    The file's lines a message shows (numbered rows, a suggested block's lines) are left as they are."""
    lines = []
    in_block = False
    for line in str(rejected).split("\n"):
        if line == "<<<<<<< SEARCH":
            in_block = True
        elif line == ">>>>>>> REPLACE":
            in_block = False
        elif not in_block and not _FILE_ROW.match(line):
            for pattern, replacement in _PHRASES:
                line = pattern.sub(replacement, line)
        lines.append(line)
    message = _BLOCK.sub(_as_edit, "\n".join(lines))
    suggestion = _BLOCK.sub(_as_edit, rejected.suggestion)
    return PatchRejected(message, reason=rejected.reason, suggestion=suggestion)


def for_content(rejected: PatchRejected) -> PatchRejected:
    """`rejected` (already `for_edits`) reworded for a change sent as the file's whole `content`."""
    lines = []
    for line in str(rejected).split("\n"):
        if not _FILE_ROW.match(line):
            for pattern, replacement in _CONTENT_PHRASES:
                line = pattern.sub(replacement, line)
        lines.append(line)
    return PatchRejected("\n".join(lines), reason=rejected.reason, suggestion=rejected.suggestion)


def _as_edit(block: re.Match[str]) -> str:
    """A SEARCH/REPLACE block as one item of `edits`."""
    return json.dumps({"search": block.group(1).splitlines(), "replace": block.group(2).splitlines()})
