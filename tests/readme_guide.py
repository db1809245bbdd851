"""Reading README.md as a test script: its code blocks, the commands in them, and a world to run them in.

The README is the user's guide, so every command it shows must work as shown. The rules a README author
follows (also stated in the README's own "About this guide" note):

- ```sh blocks hold commands, one per line (a trailing `\\` continues a line); lines of one block run in one
  shell, in order, so `export`, `cd` and `. .venv/bin/activate` carry over. A command must exit 0 unless a
  comment on its line says otherwise (`# exit 1`, `# exits 2`).
- A ```text block right after a ```sh block of one command shows that command's output: every line of it
  must appear in what the command prints, in order (temporary paths, task ids and timings may differ).
- ```python blocks run with the interpreter under test; ```powershell blocks run only on Windows.
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
    (re.compile(r"\b\d+\.\d+s\b"), "<s>"),
    (re.compile(r"\b\d{2}:\d{2}:\d{2}\b"), "<time>"),
    (re.compile(r"[ \t]+"), " "),
]


def normalise(text: str) -> str:
    for pattern, replacement in _NORMALISE:
        text = pattern.sub(replacement, text)
    return text


def missing_output_lines(shown: str, actual: str, home: str | None = None) -> list[str]:
    """Lines of the README's output block not found, in order, in the actual output (`home`: the path the
    README writes as `~`)."""
    if home:
        actual = actual.replace(home, "~")
    got = [normalise(line).strip() for line in actual.splitlines()]
    position = 0
    missing = []
    for wanted in (normalise(line).strip() for line in shown.splitlines()):
        if not wanted or wanted in ("…", "..."):
            continue
        for index in range(position, len(got)):
            if got[index] == wanted:
                position = index + 1
                break
        else:
            missing.append(wanted)
    return missing


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
