"""`inert`: every character a terminal might obey is shown as a visible escape, nothing else changes."""

from __future__ import annotations

import io
import re
import sys
import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from glmagent.ui import inert
from glmagent.ui._console import inert_text

_OBEYED = ("Cc", "Cf", "Zl", "Zp", "Cs")


def test_every_control_format_and_separator_character_is_escaped() -> None:
    missed = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in _OBEYED and inert(chr(code)) == chr(code)
    ]
    assert missed == []


def test_escapes_are_readable_and_ordinary_text_is_untouched() -> None:
    assert inert("harmless\x1b[2K\r\x1b[1A\x1b[2KSUCCESS") == "harmless\\x1b[2K\\r\\x1b[1A\\x1b[2KSUCCESS"
    assert inert("a\u202eb\u200bc\x9bd\x00") == "a\\u202eb\\u200bc\\x9bd\\x00"
    assert inert("tag\U000e0041") == "tag\\U000e0041"
    assert (
        inert("päth/ファイル 🙂 “quotes” — tab\tnew\nline") == "päth/ファイル 🙂 “quotes” — tab\\tnew\\nline"
    )


def test_multiline_text_keeps_newlines_and_tabs_and_reads_crlf_as_a_newline() -> None:
    assert inert("one\r\ntwo\tcols\nthree\rover", multiline=True) == "one\ntwo\tcols\nthree\\rover"


@given(st.text())
def test_nothing_obeyable_survives(text: str) -> None:
    for multiline in (False, True):
        shown = inert(text, multiline=multiline)
        allowed = "\n\t" if multiline else ""
        assert all(unicodedata.category(c) not in _OBEYED or c in allowed for c in shown)


@given(st.text())
def test_inert_text_renders_exactly_the_inert_string(text: str) -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="truecolor", width=10_000, soft_wrap=True)
    console.print(inert_text(text), end="")
    plain = out.getvalue()
    # Only rich's own SGR styling of the escapes may add ESC; strip it and the text is `inert(text)`.
    assert re.sub(r"\x1b\[[0-9;]*m", "", plain) == inert(text)
