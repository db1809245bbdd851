"""Turn command words into comparable keys: the one place that decides when two spellings are equal."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ._lazy import lazy_re

# Characters that render as nothing (or steer rendering) but survive copy-paste; a model or a hostile file can
# hide them inside a command word (`r\u200bm`) to dodge a name comparison.
_INVISIBLE = dict.fromkeys(
    [
        0x00AD,
        0x034F,
        0x061C,
        0x115F,
        0x1160,
        0x17B4,
        0x17B5,
        0x180E,
        *range(0x200B, 0x2010),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2070),
        0x3164,
        0xFEFF,
        0xFFA0,
    ]
)
_WINDOWS_EXTENSIONS = (".exe", ".cmd", ".bat", ".com")
_EXTENSION_NAMES = frozenset((
    ".exe", ".cmd", ".bat", ".com", ".vbs", ".vbe", ".js", ".jse", ".wsf", ".wsh", ".msc", ".py", ".pyw",
    ".ps1",
))  # fmt: skip
"""Words that are a file type, not a hidden program (`set PATHEXT=.COM;.EXE;.BAT;.PY` in PowerShell runs each
as a command PowerShell does not find; `.BAT` is no copy of `bat`)."""
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_DASH_TABLE = dict.fromkeys(map(ord, _DASHES), "-")
# One character class each: a regex substitution runs in C, where `str.translate` with a dict looks each
# character up in Python (about ten times slower on non-ASCII text, which hostile lines are made of).
_INVISIBLE_CHARACTERS = lazy_re("[" + re.escape("".join(map(chr, _INVISIBLE))) + "]")
_DASH_CHARACTERS = lazy_re("[" + re.escape(_DASHES) + "]")


def clean(text: str) -> str:
    """NFKC-fold and drop invisible characters (cheap for the common all-ASCII word)."""
    if text.isascii():
        return text
    return _INVISIBLE_CHARACTERS.sub("", unicodedata.normalize("NFKC", text))


@lru_cache(maxsize=4096)
def command_key(word: str) -> str:
    """Normalise a command word: basename of any path, case-folded, without a Windows executable extension
    or leading dots.

    Case is folded on every backend: Windows and macOS resolve `CURL`/`/BIN/RM` to the same program, and
    treating them alike can only make the policy stricter. A hidden copy of a program (`.rclone.exe`,
    `/tmp/.xmrig`) is that program under a name that hides it.
    """
    name = _program_name(word)
    return name.lstrip(".") if _hidden(name) else name


def hidden_program(word: str) -> bool:
    """Is `word` a program named like a hidden file (`.rclone.exe`, `/tmp/.xmrig`)? `command_key` reads it as
    the program it copies, which makes a deny rule stricter; an allowlist entry for that program must not
    allow a copy of it under a hidden name."""
    return _hidden(_program_name(word))


def _program_name(word: str) -> str:
    """The basename of a command word, case-folded, without a Windows executable extension."""
    word = clean(word).strip()
    # Module-qualified cmdlets (`Microsoft.PowerShell.Management\Remove-Item`) and paths reduce alike.
    cut = max(word.rfind("/"), word.rfind("\\"))
    if cut >= 0 and cut < len(word) - 1:
        word = word[cut + 1 :]
    word = word.casefold()
    for _ in range(2):  # `curl.exe.exe` is not a thing, but `x.com.exe` style stacking costs nothing to undo
        if word.endswith(_WINDOWS_EXTENSIONS) and len(word) > 4:
            word = word[:-4]
    return word


def _hidden(name: str) -> bool:
    """Is a program name (`_program_name`) a hidden file's: a leading dot, more than dots, no file type?"""
    return name[:1] == "." and bool(name.strip(".")) and name not in _EXTENSION_NAMES


def fold_arg(text: str) -> str:
    """Normalise an argument for comparison: NFKC, invisible characters out, typographic dashes to `-`."""
    text = clean(text)
    if not text.isascii():
        text = _DASH_CHARACTERS.sub("-", text)
    return text


_BACKTICK = lazy_re(r"`(.)", re.DOTALL)
_PS_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
}


_PS_TYPOGRAPHY = str.maketrans(
    {
        **dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b"), "'"),
        **dict.fromkeys(map(ord, "\u201c\u201d\u201e"), '"'),
        **_DASH_TABLE,
        **dict.fromkeys(
            [0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000], " "
        ),
    }
)


def ps_ascii(text: str) -> str:
    """PowerShell's own reading of typographic characters: smart quotes are quotes, en and em dashes are
    dashes, Unicode spaces are spaces (`Remove-Item \u2013Recurse` binds `-Recurse`). Spelled in ASCII
    before parsing so the grammar sees what PowerShell runs; ASCII text is returned as it is."""
    if text.isascii():
        return text
    return text.translate(_PS_TYPOGRAPHY)


def ps_unescape(text: str, expandable: bool) -> str:
    """Undo PowerShell backtick escapes. In bare words a backtick just quotes the next character."""
    if "`" not in text:
        return text
    if expandable:
        return _BACKTICK.sub(lambda m: _PS_ESCAPES.get(m.group(1), m.group(1)), text)
    return _BACKTICK.sub(lambda m: m.group(1), text)


_ANSI_C = lazy_re(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)", re.DOTALL)
_C_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_C_SIMPLE |= {"v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _ansi_c_char(m: re.Match[str]) -> str:
    esc = m.group(1)
    head = esc[0]
    if head in "xuU":
        if len(esc) == 1:
            return "\\" + esc  # `\x`, `\u`, `\U` with no hex digit after: bash keeps them as written
        code = int(esc[1:], 16)
        # past Unicode or a lone surrogate (`\UFFFFFFFF`, `\uD800`): no character bash could print
        return "\ufffd" if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF else chr(code)
    if head in "01234567":  # (`\8`, `\9` are no octal digits: kept as written, below)
        return chr(int(esc, 8) & 0xFF)
    if head == "c" and len(esc) == 2:
        return chr(ord(esc[1]) & 0x1F)
    return _C_SIMPLE.get(esc, "\\" + esc)


def ansi_c_unescape(body: str) -> str:
    """Decode the escapes of a bash `$'...'` string (also used by `echo -e` and `printf`)."""
    return _ANSI_C.sub(_ansi_c_char, body) if "\\" in body else body


_POSIX_ESCAPE = lazy_re(r"\\(\n|.)", re.DOTALL)


def posix_unescape_word(text: str) -> str:
    """Remove backslash quoting from an unquoted POSIX word (`\\rm` -> `rm`, line continuations vanish)."""
    if "\\" not in text:
        return text
    return _POSIX_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


_DQ_ESCAPE = lazy_re(r"\\([$`\"\\\n])")


def posix_unescape_double(text: str) -> str:
    """Inside double quotes only `\\$ \\` \\" \\\\` and newline are escapes."""
    if "\\" not in text:
        return text
    return _DQ_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)
