"""Reading README.md as a test script: its code blocks, the commands in them, and a world to run them in.

The README is the user's guide, so every command it shows must work as shown. The rules a README author
follows (also stated in the README's own "About this guide" note):

- ```sh blocks hold commands, one per line (a trailing `\\` continues a line); lines of one block run in one
  shell, in order, so `export`, `cd` and `. .venv/bin/activate` carry over. A command must exit 0 unless a
  comment on its line says otherwise (`# exit 1`, `# exits 2`).
- A ```text block right after a ```sh block of one command shows that command's output, all of it, in
  order: a line holding only `…` stands for lines left out there, and nothing else may be missing (blank
  lines aside; temporary paths, task and run ids, times, hashes and the interpreter's path may differ).
  A ```text block that starts with `$ ` is a terminal session: each `$ COMMAND` runs (in the same shell,
  like a ```sh block) and must print what follows it, by the same rule. No other block shows output.
- ```python blocks run with the interpreter under test; a `print(...)  # TEXT` line says what it prints, and
  the block's stdout must be exactly those lines. ```powershell blocks run only on Windows.
- Commands run in a copy of the demo's sample project (a module that crashes on None and its pytest suite),
  with `replies.jsonl` (the demo's recorded replies) and `TASK.md` beside its files; `~` is a fresh home
  holding `~/src/app`, another copy. Every provider points at a loopback stand-in that answers like a model
  fixing that project, with dummy keys in the environment; nothing reaches the internet (proxies point at a
  closed port).
- Skipped, each with its reason shown in the test report: commands naming a server other than the stand-in,
  commands that run this test suite, and commands with a placeholder in capitals (`TASK_ID`).
"""

from __future__ import annotations

import json
import re
import shlex
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from cli_helpers import send_chat_reply, send_json

_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
_EXIT = re.compile(r"#.*?\bexits? (\d+)\b")
#: Words that stand for a value of the reader's in a usage line (`glmagent audit show TASK_ID`).
_PLACEHOLDERS = frozenset({"TASK_ID", "ID", "DIR", "FILE", "URL", "CMD", "COMMAND", "DESCRIPTION", "NAME"})


@dataclass
class Command:
    text: str
    line: int
    """The README line the command starts on."""
    expected_exit: int = 0
    skip: str | None = None


@dataclass
class Block:
    language: str
    body: str
    line: int
    commands: list[Command] = field(default_factory=list)
    output: str | None = None
    """The ```text block that follows, when this block is one command whose output it shows."""
    transcript: list[tuple[Command, str]] = field(default_factory=list)
    """A ```text block written as a terminal session: each `$ COMMAND` line and the output after it."""

    @property
    def name(self) -> str:
        return f"README.md:{self.line} ({self.language})"


def blocks(readme: str) -> list[Block]:
    """Every fenced code block, with sh commands split out and output blocks attached to their command."""
    found: list[Block] = []
    for match in _FENCE.finditer(readme):
        language = match.group(1).lower() or "text"
        line = readme.count("\n", 0, match.start()) + 1
        block = Block(language, match.group(2), line)
        if language in ("sh", "bash", "shell", "console"):
            block.commands = _commands(block.body, line + 1)
        elif language == "text" and block.body.lstrip().startswith("$ "):
            block.transcript = _transcript(block.body, line + 1)
        elif language == "text" and found and found[-1].commands and len(found[-1].commands) == 1:
            between = readme[_end_of(readme, found[-1].line) : match.start()]
            if not between.strip():
                found[-1].output = block.body
        found.append(block)
    return found


def _end_of(readme: str, line: int) -> int:
    """Offset just after the block that starts on `line`."""
    for match in _FENCE.finditer(readme):
        if readme.count("\n", 0, match.start()) + 1 == line:
            return match.end()
    raise AssertionError(line)


def _transcript(body: str, first_line: int) -> list[tuple[Command, str]]:
    """The `$ COMMAND` lines of a session block, each with the lines shown after it as its output."""
    session: list[tuple[Command, list[str]]] = []
    for offset, raw in enumerate(body.splitlines()):
        if raw.startswith("$ "):
            session.append((_command(raw[2:], first_line + offset), []))
        elif session:
            session[-1][1].append(raw)
    return [(command, "\n".join(lines)) for command, lines in session]


_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1")


def _commands(body: str, first_line: int) -> list[Command]:
    commands: list[Command] = []
    pending: list[str] = []
    heredoc: str | None = None
    start = first_line
    for offset, raw in enumerate(body.splitlines()):
        if heredoc is not None:
            pending.append(raw)
            if raw.strip() == heredoc:
                heredoc = None
                commands.append(_command("\n".join(pending), start))
                pending = []
            continue
        if not pending:
            start = first_line + offset
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
        if raw.rstrip().endswith("\\"):
            pending.append(raw.rstrip()[:-1])
            continue
        pending.append(raw)
        opened = _HEREDOC.search(raw)
        if opened:
            heredoc = opened.group(2)
            continue
        commands.append(_command("\n".join(pending), start))
        pending = []
    assert heredoc is None and not pending, f"unfinished command at README.md:{start}"
    return commands


def _command(text: str, line: int) -> Command:
    command = Command(text.strip(), line)
    first_line = text.strip().splitlines()[0]
    expected = _EXIT.search(first_line)
    if expected:
        command.expected_exit = int(expected.group(1))
    command.skip = _skip_reason(first_line, command.expected_exit)
    return command


def _skip_reason(text: str, expected_exit: int) -> str | None:
    code = text.split(" #", 1)[0]
    words = _words(code)
    for url in _server_urls(words):
        host = re.sub(r"^https?://([^/:]+).*$", r"\1", url)
        if host not in ("127.0.0.1", "localhost"):
            return f"talks to {host}, which tests never reach"
        if expected_exit == 0:
            return f"needs a server listening at {url}"
    for segment in _segments(words):
        runs = segment[1:3] == ["-m", "pytest"] and segment[0].startswith("python")
        if segment[:1] == ["pytest"] or runs:
            return "runs the project's own test suite, which this test is part of"
    if any(word.startswith("bench/") for word in words):
        return "a benchmark takes minutes; tests/test_bench.py runs each one briefly"
    if words and words[0] in ("sudo", "apt-get", "apt", "brew", "winget", "choco", "ollama"):
        return f"{words[0]} changes the machine itself"
    for word in words:
        value = word.split("=", 1)[1] if word.startswith("--") and "=" in word else word
        if value in _PLACEHOLDERS:
            return f"{value} is a placeholder for a value of yours"
    return None


def _server_urls(words: list[str]) -> list[str]:
    """The servers a command line points glmagent at: `--base-url URL` and `*_BASE_URL=URL`/`OLLAMA_HOST=`."""
    found = []
    for index, word in enumerate(words):
        if word == "--base-url" and index + 1 < len(words):
            found.append(words[index + 1])
        elif word.startswith("--base-url=") or re.match(r"^(\w*_BASE_URL|OLLAMA_HOST)=", word):
            found.append(word.split("=", 1)[1])
    return [url if "://" in url else f"http://{url}" for url in found]


def _segments(words: list[str]) -> list[list[str]]:
    """Simple commands of a line split at `&&`, `||`, `;` and `|`."""
    segments: list[list[str]] = [[]]
    for word in words:
        if word in ("&&", "||", ";", "|"):
            segments.append([])
        else:
            segments[-1].append(word)
    return [segment for segment in segments if segment]


def _words(code: str) -> list[str]:
    try:
        return shlex.split(code, comments=True)
    except ValueError:
        return code.split()


_NORMALISE = [
    (re.compile(r"/tmp/[^\s│]*?(?=/wordstats\b)|/tmp/glmagent-demo-[^/\s│]+"), "<tmp>"),
    (re.compile(r"task-\d{8}-\d{6}-[0-9a-f]{4}"), "<task-id>"),
    (re.compile(r"\b\d{8}T\d{6}Z-[0-9a-f]{8}\b"), "<run-id>"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]\d{2}:\d{2}|Z)?"), "<when>"),
    (re.compile(r"\b[0-9a-f]{64}\b"), "<sha256>"),
    # A hash's short form, also when all its digits happen to be decimal (1 in 280 for 12 of them): cut short
    # (`head 772133066929…`) or named as a commit (`git 123456789012`); a plain number stays a number.
    (re.compile(r"\b(?=[0-9]*[a-f])[0-9a-f]{12,16}\b…?|\b[0-9]{12,16}…|(?<=\bgit )[0-9]{12,16}\b"), "<hex>"),
    (re.compile(r"…[0-9a-f]{8}\b"), "…<run>"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}\b"), "<date>"),
    (re.compile(r"(?<![\w/])[~\w./-]*/python3?(?:\.\d+)?(?=\s)"), "<python>"),
    (re.compile(r"\b\d+\.\d+s\b"), "<s>"),
    (re.compile(r"\b\d{2}:\d{2}:\d{2}\b"), "<time>"),
    (re.compile(r"[ \t]+"), " "),
]


def normalise(text: str) -> str:
    for pattern, replacement in _NORMALISE:
        text = pattern.sub(replacement, text)
    return text


#: A line holding only this, in an output block, stands for lines the README leaves out.
ELISIONS = ("…", "...")


def output_mismatch(shown: str, actual: str, home: str | None = None) -> list[str]:
    """Why the README's output block is not what the command printed, or [] when it is.

    The shown lines must be the command's output, all of it, in order: a line `…` alone stands for any
    lines left out there (a diff's middle, a row that depends on the machine), and nothing else may be left
    out. Blank lines do not count; temporary paths, task ids, timings and clock times are normalised, and
    `home` (the folder the README writes as `~`) is written `~`."""
    if home:
        actual = actual.replace(home, "~")
    got = [line for line in (normalise(line).strip() for line in actual.splitlines()) if line]
    wanted = [line for line in (normalise(line).strip() for line in shown.splitlines()) if line]
    segments: list[list[str]] = [[]]
    for line in wanted:
        if line in ELISIONS:
            segments.append([])
        else:
            segments[-1].append(line)
    opens = bool(wanted) and wanted[0] in ELISIONS
    closes = bool(wanted) and wanted[-1] in ELISIONS
    position = 0
    for index, segment in enumerate(segments):
        if not segment:
            continue
        last = index == len(segments) - 1
        starts = [
            at
            for at in range(position, len(got) - len(segment) + 1)
            if got[at : at + len(segment)] == segment
        ]
        if index == 0 and not opens:
            starts = [at for at in starts if at == 0]
        if last and not closes:
            ending = [at for at in starts if at + len(segment) == len(got)]
            if starts and not ending:
                after = got[starts[0] + len(segment) : starts[0] + len(segment) + 3]
                return [f"the command printed more after the last shown line: {after}"]
            starts = ending
        if not starts:
            return _diagnose(segment, got, position, anchored=index == 0 and not opens)
        position = starts[0] + len(segment)
    if not closes and position != len(got):
        return [f"the command printed more after the last shown line: {got[position : position + 3]}"]
    return []


def _diagnose(segment: list[str], got: list[str], position: int, *, anchored: bool) -> list[str]:
    """The first shown line of `segment` that the output does not have where the README puts it."""
    start = (
        position
        if anchored
        else next((at for at in range(position, len(got)) if got[at] == segment[0]), None)
    )
    if start is None:
        return [f"not printed (after line {position} of the output): {segment[0]!r}"]
    for offset, line in enumerate(segment):
        at = start + offset
        if at >= len(got):
            return [f"the output ends before {line!r}"]
        if got[at] != line:
            return [
                f"README shows {line!r} where the command printed {got[at]!r} "
                "(leave lines out only with a line holding `…`)"
            ]
    return [f"{segment[0]!r} matches only where the README's order or ends do not allow"]


_PRINT_SHOWS = re.compile(r"^\s*print\(.*\)\s+#\s?(.+?)\s*$")


def printed_lines(body: str) -> list[str] | None:
    """What a ```python block says it prints: the comment after each `print(...)` (`# True tests_passed 1`),
    or None when no print of it says."""
    shown = [m.group(1) for m in map(_PRINT_SHOWS.match, body.splitlines()) if m]
    return shown or None


# --- the loopback stand-in for every provider -----------------------------------------------------------


class _StandIn(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint answering like a model fixing the sample project: iteration N of a
    task gets the demo's recorded reply N, then "nothing left to do" (at once, once the read file shows the
    fix is already in)."""

    replies: ClassVar[list[str]] = []
    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        self.requests.append(body)
        prompt = "\n".join(
            str(m.get("content", "")) for m in body.get("messages", []) if m.get("role") == "user"
        )
        found = re.findall(r"Iteration (\d+) of", prompt)
        index = int(found[-1]) - 1 if found else 0
        done = json.dumps({"thought": "Nothing is left to do.", "plan": [], "actions": []})
        # A project fixed by an earlier command: having read it, there is nothing left to do.
        content = (
            done if index >= len(self.replies) or (index and "def _words" in prompt) else self.replies[index]
        )
        send_chat_reply(self, content, prompt_tokens=900, completion_tokens=120)

    def do_GET(self) -> None:  # model listings some clients ask for
        send_json(self, {"data": [{"id": "stand-in"}], "models": [{"name": "stand-in"}]})

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def stand_in(replay_file: Path) -> Iterator[str]:
    """A loopback planner server; yields its base URL (`http://127.0.0.1:PORT/v1`)."""
    replies = []
    for line in replay_file.read_text(encoding="utf-8").splitlines():
        if line.strip():
            value = json.loads(line)
            replies.append(value if isinstance(value, str) else json.dumps(value))
    _StandIn.replies = replies
    _StandIn.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _StandIn)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
