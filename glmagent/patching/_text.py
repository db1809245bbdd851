"""Bytes <-> lines for the file being patched, keeping its encoding, BOM and line endings byte for byte.

Lines are held without their line ending; the ending of each line is kept separately so untouched lines
are written back exactly as they were, and new lines take the file's dominant style.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from glmagent.errors import PatchRejected

# Longest BOM first: the UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


@dataclass(frozen=True, slots=True)
class FileText:
    """A decoded file: `lines` without endings, `eols[i]` the ending of line i ("" only for a last line)."""

    text: str
    lines: list[str]
    eols: list[str] | None  # None: every line ends with `newline` (except maybe the last, see final_newline)
    newline: str  # dominant line ending, used for lines the diff adds
    final_newline: bool
    encoding: str
    bom: bytes

    def eol(self, i: int) -> str:
        """The line ending of line `i` as found in the file."""
        if self.eols is not None:
            return self.eols[i]
        if i == len(self.lines) - 1 and not self.final_newline:
            return ""
        return self.newline

    def span(self, start: int, end: int) -> int:
        """Number of characters lines [start, end) occupy in `text`, endings included."""
        chars = sum(map(len, self.lines[start:end]))
        if self.eols is not None:
            return chars + sum(map(len, self.eols[start:end]))
        chars += (end - start) * len(self.newline)
        if end == len(self.lines) and end > start and not self.final_newline:
            chars -= len(self.newline)
        return chars


def decode_file(data: bytes) -> FileText:
    """Decode file bytes; reject binary files and BOM-marked files that do not decode."""
    bom, encoding = b"", ""
    for mark, name in _BOMS:
        if data.startswith(mark):
            bom, encoding = mark, name
            break
    body = data[len(bom) :]
    if bom:
        try:
            text = body.decode(encoding)
        except UnicodeDecodeError as exc:
            raise PatchRejected(
                f"The file starts with a {encoding} byte-order mark but is not valid {encoding} "
                f"({exc.reason} at byte {exc.start}); it cannot be patched as text.",
                reason="encoding",
            ) from exc
    else:
        if b"\x00" in body:
            raise PatchRejected(
                "The file contains NUL bytes (binary, or UTF-16/32 without a byte-order mark); apply_diff "
                "only edits text files.",
                reason="encoding",
            )
        # UTF-8 first; legacy 8-bit files round-trip exactly through cp1252 or, failing that, latin-1, so
        # untouched bytes are preserved and any line the diff quotes must still match to be edited.
        for encoding in ("utf-8", "cp1252"):
            try:
                text = body.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        else:
            encoding = "latin-1"  # decodes any byte string and encodes it back unchanged
            text = body.decode(encoding)
    return split_text(text, encoding, bom)


def split_text(text: str, encoding: str = "utf-8", bom: bytes = b"") -> FileText:
    """Split decoded text into lines and endings (only "\\n" and "\\r\\n" end a line)."""
    if not text:
        return FileText(text, [], None, "\n", True, encoding, bom)
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    newline = "\r\n" if crlf > lf else "\n"
    if crlf == 0 or lf == 0:
        # Uniform endings (the common case): split in C, no per-line list.
        newline = "\n" if crlf == 0 else "\r\n"
        lines = text.split(newline)
        final_newline = lines[-1] == ""
        if final_newline:
            lines.pop()
        return FileText(text, lines, None, newline, final_newline, encoding, bom)
    parts = text.split("\n")
    final_newline = parts[-1] == ""
    if final_newline:
        parts.pop()
    last = len(parts) - 1
    lines = []
    eols: list[str] = []
    for i, part in enumerate(parts):
        terminated = i < last or final_newline
        if terminated and part.endswith("\r"):
            lines.append(part[:-1])
            eols.append("\r\n")
        else:
            lines.append(part)
            eols.append("\n" if terminated else "")
    return FileText(text, lines, eols, newline, final_newline, encoding, bom)


def encode_text(text: str, encoding: str, bom: bytes) -> bytes:
    """Encode the result in the file's own encoding, or reject naming the first character that cannot be."""
    try:
        return bom + text.encode(encoding)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end]
        line_no = exc.object.count("\n", 0, exc.start) + 1
        raise PatchRejected(
            f"Line {line_no} of the result contains {bad!r}, which cannot be written in this file's "
            f"encoding ({encoding}); use only characters the file's encoding supports (or an escape "
            "sequence).",
            reason="encoding",
        ) from exc


def diff_lines(diff: str) -> list[str]:
    """Split diff text into lines, forgiving CRLF/CR transport: a trailing "\\r" is never content."""
    if diff.startswith("\ufeff"):
        diff = diff[1:]
    if "\n" not in diff:
        diff = diff.replace("\r", "\n")  # classic-Mac line ends: CR alone
    lines = diff.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
