"""Apply model-written unified diffs: lenient about form, strict about meaning.

`apply_patch(path, original, diff) -> PatchResult` is pure (bytes in, bytes out, no filesystem access);
the caller confines `path`, reads the file, and writes `content` atomically or deletes the file.

Forms: unified diffs, SEARCH/REPLACE blocks, and (`apply_edits`) the same blocks given as pairs of line
lists, with no text to parse; SEARCH/REPLACE blocks (`<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`), read
as hunks of removed and added lines (git conflict blocks too, `<<<<<<< HEAD` ... `>>>>>>> LABEL`); one
block with an empty SEARCH part over a short existing file sends the file whole (`_rewrite`: turned into
hunks with real context).

Forgiven form: @@ numbers and counts (hints only), placeholder or missing @@/---/+++ headers, a/ b/
prefixes, labels, timestamps, header paths that are a path suffix of `path` (or the reverse), fenced
blocks with prose, empty lines standing for blank context, CRLF/LF mismatches, duplicate, out-of-order
and same-file-section hunks, trailing whitespace, typographic punctuation and indentation drift, ' for "
in Python and JavaScript/TypeScript (where both quote the same string), one
line left out of a hunk's outer context when that reading is the only one, unchanged lines that match
nowhere around a changed block whose removed lines occur at exactly one place (named in a note), and (edits)
a line cut into two list items by a bare `"` (`_items`), search lines that are the prompt's line numbers
(`_numbered`), one search line that is part of exactly one line of the file (`_fragment`), and, in an edit
that would not parse otherwise, a `for` header written with a comprehension's filter (`for x in xs if c:`),
a block header with a compound statement on its line (`def f(x): if not x: return 0`), or a compound
statement after a `;` (`_block_lines`); and, in an edit of a Python file refused as written, a one-line
item holding `\n` escapes where its line breaks should be (`_escaped`).

Refused meaning, as `glmagent.errors.PatchRejected(message, reason=...)`, the file untouched:
    unparseable          no hunk, a hunk line without prefix, a binary patch, create+delete at once
    ambiguous            a hunk matching several places (or none identifiable: no or only blank context)
    stale_context        unchanged/removed lines not in the file (quoted, with the closest region)
    already_applied      the hunk's new side is present and its old side is not
    placeholder          "// ... rest unchanged ..." style lines standing for real code
    new_file_exists      a new-file diff over an existing non-empty file; a file sent whole (an empty SEARCH
                         part, `_rewrite`) that is long, or whose content is not a revision of it (a
                         definition under a new name is a rename when only that reading fits: `_renames`)
    partial_delete       a deletion ('+++ /dev/null') whose removed lines are not the whole file
    wrong_file           headers naming another file: one file per call
    overlap              two hunks changing the same lines
    missing_file         editing or deleting a file that does not exist
    inconsistent_indent  no single indentation mapping explains the matched lines
    encoding             binary file, undecodable file, or added text the file's encoding cannot hold
    syntax_error         a Python file that parsed before would not parse after (`_syntax`)
    undefined_name       a Python file that would use a name it defines nowhere, where before it did not
                         (`_names`)
    unreachable          a Python file that would hold new code after a `return`, `raise`, `continue` or
                         `break` in the same block (`_unreachable`)
    tests_in_code        a Python file of code (not a test file) that would define a test function or
                         class it did not (`_tests_in_code`)
"""

from glmagent.patching._apply import apply_edits, apply_patch
from glmagent.patching._result import HunkReport, PatchResult
from glmagent.patching._rewrite import REWRITE_MAX_LINES

__all__ = ["REWRITE_MAX_LINES", "HunkReport", "PatchResult", "apply_edits", "apply_patch"]
