"""The header and footer each run adds to the memory file (`{taskId}.txt`), rendered from its records.

They are `# ` lines, neither `Iteration N:` headers nor `- ` bullets, so the iteration blocks keep their exact
format. Every line of the memory file is data (`one_line`): text from the task, the model or a file name is
flattened to one line, and control and invisible formatting characters are written as visible escapes, so
no name or thought can start a line of its own (one a shell would run if the file were ever sourced).
Both are rendered from the records as stored, which lets `verify` rebuild the memory file from the
audit log and spot an edit in either.

    # run 20250101T120000Z-3f9c2a1b started 2025-01-01T12:00:00.000+00:00
    # task: wordstats crashes when given None; make None behave like empty text
    # test command: pytest -q
    # planner: glm:glm-5

    Iteration 1:
    - ...

    # run 20250101T120000Z-3f9c2a1b ended 2025-01-01T12:01:10.250+00:00: SUCCESS (tests_passed), ...
    # chain head: 0c4e...9a (record 23)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

_HEADER = re.compile(r"^# run (\S+) started ", re.MULTILINE)
_LINE_CAP = 300
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _visible(char: str) -> str:
    if unicodedata.category(char) not in _INVISIBLE:
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def one_line(text: object, cap: int = _LINE_CAP) -> str:
    """`text` as one line of data for the memory file: whitespace runs (newlines included) become one
    space, control and invisible formatting characters visible escapes, and at most `cap` characters."""
    flat = " ".join(str(text).split())
    if not flat.isprintable():
        flat = "".join(_visible(char) for char in flat)
    return flat if len(flat) <= cap else flat[: cap - 1] + "…"


_one_line = one_line


def render_header(start: Mapping[str, Any]) -> str:
    """The header block for a stored `task_start` record."""
    lines = [
        f"# run {start.get('run')} started {start.get('ts')}",
        f"# task: {_one_line(start.get('description', ''))}",
        f"# test command: {_one_line(start.get('test_command') or '(none)')}",
        f"# planner: {_one_line(start.get('planner') or 'unknown')}",
    ]
    if start.get("resumed_from"):
        lines.append(f"# resumes run {start['resumed_from']}")
    return "\n".join(lines) + "\n"


def outcome_text(end: Mapping[str, Any]) -> str:
    """`SUCCESS (tests_passed)` / `NOT DONE (max_iterations)` from a `task_end` record."""
    verdict = "SUCCESS" if end.get("success") else "NOT DONE"
    return f"{verdict} ({end.get('stop_reason', 'unknown')})"


def render_footer(end: Mapping[str, Any], head: str) -> str:
    """The footer block for a stored `task_end` record whose line hashes to `head`."""
    usage = end.get("usage") or {}
    tokens = usage.get("total_tokens", 0) if isinstance(usage, Mapping) else 0
    cost = end.get("cost_usd")
    cost_text = f"${cost:.4f}" if isinstance(cost, int | float) else "unknown"
    iterations = end.get("iterations", 0)
    plural = "" if iterations == 1 else "s"
    return (
        f"# run {end.get('run')} ended {end.get('ts')}: {outcome_text(end)}, {iterations} iteration{plural}, "
        f"{tokens:,} tokens, cost {cost_text}\n"
        f"# chain head: {head} (record {end.get('seq')})\n"
    )


def split_runs(text: str) -> tuple[str, list[tuple[str, str]]]:
    """(text before the first run header, [(run id, that run's section)]) of a memory file."""
    matches = list(_HEADER.finditer(text))
    if not matches:
        return text, []
    sections = []
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        sections.append((match.group(1), text[match.start() : end]))
    return text[: matches[0].start()], sections
