"""Text from the model, a command or a file, made safe to put on a terminal: the one renderer of such text.

The task console (`glmagent.ui`), `glmagent audit show|list|verify`, the HTML export and every message the
CLI prints pass untrusted text through `inert` (JSON output through `inert_json`).

A terminal obeys what it is sent: an escape sequence in a model's `thought` can erase the lines above it,
retitle the window or plant a hyperlink; a carriage return can overwrite a line; a right-to-left override can
make `rm -rf /tmp/x` read as something else. Every such character is shown as a visible escape instead
(`\\x1b`, `\\r`, `\\u202e`), so what the screen shows is what was sent — and nothing more.

Secret values (the same ones the memory file and the audit log never hold) are replaced first: a model that
echoes a key, or a command that prints one, must not put it on a screen that may be shared or recorded.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from glmagent.secrets import Redactor

# Every control (Cc), format (Cf), line/paragraph separator (Zl, Zp) and surrogate (Cs) code point: C0 and
# C1 controls, DEL, soft hyphen, bidirectional overrides and isolates, zero-width characters, the BOM,
# interlinear annotations, tag characters. tests/test_ui_inert.py checks the list against unicodedata.
_FORMAT = (
    "\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u2028-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
_LINE = re.compile(f"[\x00-\x1f{_FORMAT}]")
_BLOCK = re.compile(f"[\x00-\x08\x0b-\x1f{_FORMAT}]")  # newline (\x0a) and tab (\x09) stay
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escape_char(char: str) -> str:
    """The visible form of one unsafe character: `\\n`, `\\x1b`, `\\u202e`, `\\U000e0041`."""
    named = _NAMED.get(char)
    if named:
        return named
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def unsafe_pattern(*, multiline: bool) -> re.Pattern[str]:
    """What `inert` replaces: every unsafe character, except newline and tab in multi-line text."""
    return _BLOCK if multiline else _LINE


def _redactor() -> Redactor:
    from glmagent.secrets import shared_redactor  # lazily: `--help` never needs it

    # Shared and rebuilt when the provider's key variable is declared, so a key under any name is hidden.
    return shared_redactor()


def redact(text: str) -> str:
    """`text` with the values of this process's secret-looking environment variables replaced."""
    return _redactor()(text)


def inert(text: str, *, multiline: bool = False) -> str:
    """`text` with every control or invisible formatting character replaced by its visible escape.

    Single-line text (a summary, a command, a path) shows newlines and tabs as `\\n` and `\\t` too;
    multi-line text (command output, a diff) keeps them, and a Windows line end (CRLF) counts as a newline.
    """
    text = redact(text)
    if multiline:
        text = text.replace("\r\n", "\n")
    return unsafe_pattern(multiline=multiline).sub(lambda m: escape_char(m.group()), text)


def inert_line(text: str) -> str:
    """One line of a plain-text report: like `inert`, but a tab stays a tab (diffs and output keep their
    indentation) while a newline or carriage return inside the text is shown, never obeyed."""
    return inert(text, multiline=True).replace("\n", "\\n")


def inert_json(document: str) -> str:
    """JSON text (from `json.dumps(..., ensure_ascii=False)`) with every character a terminal could act on
    written as a JSON escape (`\\u009b`, `\\u202e`): the same data, nothing for a terminal to obey. Other
    non-ASCII text stays readable. (`json.dumps` already escapes C0 controls inside strings; such characters
    cannot appear outside them.)"""
    return unsafe_pattern(multiline=True).sub(lambda m: _json_escape(m.group()), document)


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
