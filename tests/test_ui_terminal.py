"""The terminal as a user sees it: `glmagent demo` and `glmagent task` under a real pseudo-terminal (and under
tmux, which renders the screen like a terminal does), piped, with NO_COLOR, and with --json.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from cli_helpers import clean_env, run_glmagent, send_chat_reply
from conftest import plan

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

#: Any escape sequence: CSI (colours, cursor moves), OSC (titles, links), or a bare ESC.
ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
#: SGR parameters that set a colour (30–38, 40–48, 90–97, 100–107); 39/49 only reset to the default.
COLOUR_SGR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


def _env(**extra: str) -> dict[str, str]:
    return clean_env(TERM="xterm-256color", COLUMNS="120", LINES="50", **extra)


def run_in_pty(args: list[str], env: dict[str, str], timeout: float = 120) -> tuple[int, str]:
    """Run `glmagent ARGS` with stdin, stdout and stderr on a pseudo-terminal: its exit code, raw output."""
    import pty

    leader, follower = pty.openpty()
    os.set_blocking(leader, False)
    proc = subprocess.Popen(
        [sys.executable, "-m", "glmagent", *args],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        close_fds=True,
    )
    os.close(follower)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            data = os.read(leader, 65536)
            if data:
                chunks.append(data)
                continue
        except BlockingIOError:
            pass
        except OSError:  # EIO: the child closed the terminal
            if proc.poll() is not None:
                break
        if proc.poll() is not None and not _readable(leader):
            break
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("timed out: " + b"".join(chunks).decode(errors="replace"))
        time.sleep(0.02)
    os.close(leader)
    return proc.wait(), b"".join(chunks).decode("utf-8", errors="replace")


def _readable(fd: int) -> bool:
    import select

    return bool(select.select([fd], [], [], 0.05)[0])


def screen_text(raw: str) -> str:
    """What remains on screen once escape sequences are removed (good enough to look for words)."""
    return ANSI.sub("", raw).replace("\r\n", "\n")


@pytest.fixture(scope="module")
def demo_on_a_terminal(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str]:
    target = tmp_path_factory.mktemp("tty") / "demo"
    return run_in_pty(["demo", "--dir", str(target)], _env())


def test_the_demo_on_a_terminal_shows_progress_the_diff_and_the_summary_panel(
    demo_on_a_terminal: tuple[int, str],
) -> None:
    code, raw = demo_on_a_terminal
    screen = screen_text(raw)
    assert code == 0, screen
    # progress: the baseline tests, each iteration with its thought, one line per action with its outcome
    assert "✗ tests (baseline) pytest failed" in screen
    assert "── iteration 1 of 5" in screen and "── iteration 2 of 5" in screen
    assert "thought" in screen and "plan" in screen
    assert "✓ Read wordstats.py (20 lines)" in screen
    assert "✓ modified wordstats.py +10 −3" in screen
    # the diff, with old and new line numbers
    assert re.search(r"^\s+4 \+ def _words\(text\):", screen, re.MULTILINE), screen
    assert re.search(r"^\s+6\s+- +return len\(text\.split\(\)\)", screen, re.MULTILINE), screen
    assert "✓ tests (after iteration 2) pytest passed" in screen
    # the summary panel: outcome, iterations, files, tests before → after, tokens, duration, records
    assert re.search(r"╭─ ✓ SUCCESS · tests_passed ─+╮", screen), screen
    for row in ("outcome", "iterations  2 of 5", "files       wordstats.py +10 −3", "failing → passing"):
        assert row in screen, row
    for row in ("tokens", "duration", "memory", "audit", "review"):
        assert re.search(rf"│ {row} +\S", screen), row
    assert "╰" in screen


def test_the_terminal_run_is_coloured(demo_on_a_terminal: tuple[int, str]) -> None:
    _, raw = demo_on_a_terminal
    assert COLOUR_SGR.search(raw), "a terminal gets colour"


def test_the_demo_piped_has_no_escape_codes_at_all(tmp_path: Path) -> None:
    done = run_glmagent("demo", "--dir", str(tmp_path / "demo"), env=_env())
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout + done.stderr
    assert "✓ SUCCESS · tests_passed" in done.stdout and "+ def _words(text):" in done.stdout
    assert "╭" not in done.stdout, "piped output is plain lines, not a panel"
    assert re.search(r"^  outcome +the tests pass$", done.stdout, re.MULTILINE)


def test_no_color_on_a_terminal_has_no_colour(tmp_path: Path) -> None:
    code, raw = run_in_pty(["demo", "--dir", str(tmp_path / "demo")], _env(NO_COLOR="1"))
    assert code == 0
    assert not COLOUR_SGR.search(raw), COLOUR_SGR.search(raw)
    assert "SUCCESS" in screen_text(raw)


def test_the_no_color_flag_on_a_terminal_has_no_colour(tmp_path: Path) -> None:
    code, raw = run_in_pty(["demo", "--dir", str(tmp_path / "demo"), "--no-color"], _env())
    assert code == 0 and not COLOUR_SGR.search(raw)


def test_json_prints_exactly_one_document_matching_task_result(tmp_path: Path) -> None:
    from glmagent.loop import TaskResult

    done = run_glmagent("-v", "demo", "--dir", str(tmp_path / "demo"), "--json", env=_env())
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)  # raises if anything but one JSON document is on stdout
    result = TaskResult.model_validate(document)
    assert result.success and set(document) == set(TaskResult.model_fields)
    assert "iteration 1 of 5" in done.stderr and "SUCCESS" in done.stderr, "progress went to stderr"


def test_json_on_a_terminal_keeps_stdout_to_the_document(tmp_path: Path) -> None:
    """stdout redirected to a file, stderr a terminal: the live progress must not leak into the file."""
    import pty

    leader, follower = pty.openpty()
    out = tmp_path / "result.json"
    with out.open("w") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "glmagent", "demo", "--dir", str(tmp_path / "demo"), "--json"],
            stdin=follower,
            stdout=stdout,
            stderr=follower,
            env=_env(),
            timeout=120,
        )
    os.close(follower)
    os.close(leader)
    assert done.returncode == 0
    assert json.loads(out.read_text())["stop_reason"] == "tests_passed"


def test_quiet_prints_the_outcome_in_one_line(tmp_path: Path) -> None:
    done = run_glmagent("demo", "-q", "--dir", str(tmp_path / "demo"), env=_env())
    assert done.returncode == 0
    assert done.stdout.strip().splitlines() == [
        next(line for line in done.stdout.splitlines() if line.startswith("✓ SUCCESS · tests_passed"))
    ]


# --- model text on a real terminal ------------------------------------------------------------------------

EVIL = "harmless\x1b[2K\r\x1b[1A\x1b[2KSUCCESS \x1b]0;pwned\x07 \x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\"


def test_escape_sequences_from_the_model_command_output_and_files_are_inert_on_a_terminal(
    project: Path, tmp_path: Path
) -> None:
    (project / "evil\x1b[31m.txt").write_text("x")
    replies = tmp_path / "replies.jsonl"
    replies.write_text(
        json.dumps(
            plan(
                {"tool": "run", "command": "printf 'out\\033]0;title\\007\\033[2J\\n'; exit 1"},
                {"tool": "read_file", "path": "evil\x1b[31m.txt"},
                thought=EVIL,
                steps=["step \x1b[1A\x1b[2K"],
            )
        )
        + "\n"
    )
    code, raw = run_in_pty(
        ["task", "x", "-C", str(project), "--replay", str(replies), "--sandbox", "none"], _env()
    )
    assert code == 1
    # The live status line moves the cursor itself; what must never arrive is what the model, the command or
    # the file name sent.
    for sequence in (
        "\x1b[2KSUCCESS",
        "\x1b]0;pwned",
        "\x1b]8;;https://evil",
        "\x1b]0;title",
        "\x1b[2J",
        "\x07",
    ):
        assert sequence not in raw, f"{sequence!r} reached the terminal"
    assert "evil\x1b[31m.txt" not in raw
    screen = screen_text(raw)
    assert "harmless\\x1b[2K\\r\\x1b[1A\\x1b[2KSUCCESS" in screen
    assert "out\\x1b]0;title\\x07\\x1b[2J" in screen, "command output is shown inert"
    assert "evil\\x1b[31m.txt" in screen, "a file name is shown inert"


# --- the live status line, under tmux (it renders the screen as a terminal would) -------------------------


class _SlowServer(BaseHTTPRequestHandler):
    """An OpenAI-compatible planner on 127.0.0.1 that answers the second request slowly."""

    replies: ClassVar[list[Any]] = []
    calls: ClassVar[list[int]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.calls.append(1)
        if len(self.calls) == 2:
            time.sleep(4)
        reply = self.replies.pop(0) if self.replies else plan()
        send_chat_reply(self, json.dumps(reply), prompt_tokens=1200, completion_tokens=34)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def slow_server() -> Iterator[str]:
    _SlowServer.replies = [plan({"tool": "read_file", "path": "app.py"}), plan()]
    _SlowServer.calls = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_status_line_shows_spinner_elapsed_iteration_and_tokens_while_the_planner_thinks(
    project: Path, slow_server: str, tmp_path: Path
) -> None:
    socket = f"glmagent-test-{os.getpid()}"
    done = tmp_path / "exit-code"
    command = (
        f"{sys.executable} -m glmagent task 'look' -C {project} --provider openai-compatible --model m "
        f"--base-url {slow_server} --sandbox none; echo $? > {done}; sleep 60"
    )
    env = _env()
    env.pop("TMUX", None)
    tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
    subprocess.run([*tmux, "new-session", "-d", "-x", "120", "-y", "40", command], env=env, check=True)
    try:
        status = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not done.exists():
            screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True).stdout
            match = re.search(
                r"^(\S) iteration 2 of 5 · asking openai-compatible:m · (\d+\.\d)s · 1,234 tokens so far",
                screen,
                re.M,
            )
            if match:
                status = match.group(0)
                break
            time.sleep(0.2)
        assert status, screen
        assert status[0] in "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏", "a spinner frame leads the line"
        while time.monotonic() < deadline and not done.exists():
            time.sleep(0.2)
        final = subprocess.run(
            [*tmux, "capture-pane", "-p", "-S", "-"], capture_output=True, text=True
        ).stdout
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    assert done.read_text().strip() == "0", final
    assert "asking openai-compatible" not in final, "the status line is gone once the run ends"
    assert "tokens      2,468 tokens (2,400 in, 68 out)" in final
