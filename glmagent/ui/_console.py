"""The rich console every screen writes through, and the few helpers all of them share.

One console per stream: styled and live on a terminal, plain (no colour, no spinner, no escape codes, no
wrapping) when piped or redirected; colour off with `NO_COLOR` or `--no-color`. `FORCE_COLOR` colours a
piped log (CI pages show it) but never makes it live. Markup, emoji codes and
highlighting are off, so text is printed as given: nothing in a string is ever read as an instruction to
rich — and `inert_text` makes sure nothing in it is read as one by the terminal.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text
from rich.theme import Theme

from glmagent.inert import escape_char, redact, unsafe_pattern

THEME = Theme(
    {
        "ok": "green",
        "fail": "red",
        "warn": "yellow",
        "muted": "dim",
        "accent": "cyan",
        "heading": "bold",
        "verdict.ok": "bold green",
        "verdict.fail": "bold red",
        "verdict.stopped": "bold yellow",
        "escape": "reverse",
        "diff.add": "green",
        "diff.del": "red",
        "diff.hunk": "cyan",
        "diff.lineno": "dim",
    }
)


@dataclass(frozen=True)
class Glyphs:
    """Symbols for outcomes; plain ASCII when the stream cannot encode Unicode."""

    ok: str = "✓"
    fail: str = "✗"
    skip: str = "–"
    arrow: str = "→"
    minus: str = "−"
    rule: str = "─"
    ellipsis: str = "…"
    spinner: tuple[str, ...] = ("⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏")


ASCII_GLYPHS = Glyphs(
    ok="ok",
    fail="x",
    skip="-",
    arrow="->",
    minus="-",
    rule="-",
    ellipsis="...",
    spinner=("|", "/", "-", "\\"),
)


def colour_wanted(no_color_flag: bool, environ: dict[str, str] | os._Environ[str] | None = None) -> bool:
    """False under `--no-color` or a non-empty `NO_COLOR` (https://no-color.org)."""
    env = os.environ if environ is None else environ
    return not no_color_flag and not env.get("NO_COLOR")


def make_console(stream: TextIO, *, colour: bool) -> Console:
    """A console writing to `stream`: styled on a terminal, plain text otherwise."""
    return Console(
        file=stream,
        theme=THEME,
        markup=False,
        emoji=False,
        highlight=False,
        no_color=not colour,
        soft_wrap=not stream.isatty(),  # piped output keeps whole lines for grep and logs
    )


def is_live(console: Console) -> bool:
    """A spinner and a status line only on an interactive terminal (FORCE_COLOR colours a log, no more)."""
    isatty = getattr(console.file, "isatty", None)
    return bool(isatty and isatty()) and console.is_terminal and not console.is_dumb_terminal


def glyphs_for(console: Console) -> Glyphs:
    encoding = (console.encoding or "").lower().replace("-", "")
    return Glyphs() if encoding.startswith("utf") else ASCII_GLYPHS


def inert_text(text: str, style: str = "", *, multiline: bool = False) -> Text:
    """Untrusted text as a rich `Text`: secrets replaced, control characters shown as styled escapes."""
    text = redact(text)
    if multiline:
        text = text.replace("\r\n", "\n")
    result = Text(style=style)
    position = 0
    for found in unsafe_pattern(multiline=multiline).finditer(text):
        if found.start() > position:
            result.append(text[position : found.start()])
        result.append(escape_char(found.group()), style="escape")
        position = found.end()
    result.append(text[position:])
    return result


def shorten(text: str, limit: int, ellipsis: str = "…") -> str:
    """`text` cut to `limit` characters, marked when cut."""
    return text if len(text) <= limit else text[: max(limit - len(ellipsis), 0)] + ellipsis


def duration(seconds: float) -> str:
    """`0.4s`, `12.3s`, `2m05s`, `1h02m`."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def print_rows(console: Console, rows: list[tuple[str, Text]], *, indent: int, width: int) -> None:
    """`name  value` rows; long values wrap under their value on a terminal, and stay whole lines when
    piped (continuation lines of a multi-line value are indented to match)."""
    if is_live(console):
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True, style="muted", min_width=indent + width)
        grid.add_column(overflow="fold")
        for name, value in rows:
            grid.add_row(" " * indent + name, value)
        console.print(grid)
        return
    for name, value in rows:
        line = Text(" " * indent + f"{name:<{width}} ", style="muted")
        for index, part in enumerate(value.split("\n")):
            if index:
                line.append("\n" + " " * (indent + width + 1))
            line.append_text(part)
        console.print(line)
