"""`glmagent audit show|list|verify` and the HTML export show what the model wrote, and obey none of it.

A thought, a plan step, a file name or a command's output can hold a terminal's escape sequences: OSC 52
(write the clipboard), OSC 8 (a hyperlink), a window title, `ESC[2J` (clear the screen), the C1 form `\\x9b`
of CSI, BEL, a carriage return, a right-to-left override. Each is shown as a visible escape, piped or on a
terminal, as the task console shows it.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from audit_support import run_glmagent
from conftest import plan

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.inert import inert_json, unsafe_pattern
from glmagent.planners.scripted import ScriptedPlanner

CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"
LINK = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\"
TITLE = "\x1b]0;all tests passed\x07"
CLEAR = "\x1b[2J\x1b[H"
C1_CSI = "\x9b2J"
RTL = "\u202e"
BELL = "\x07"
FAKE_LINE = "\r  [ok] tests (final): PASSED"
NAME = f"notes{CLEAR}{RTL}txt.py"


def hostile_task(project: Path) -> None:
    (project / NAME).write_text("x = 1\n", encoding="utf-8")
    replies = [
        plan(
            {"tool": "read_file", "path": NAME},
            {"tool": "run", "command": "printf 'out\\033]0;title\\007\\233J\\n'"},
            thought=f"look {CLIPBOARD}{TITLE} then{FAKE_LINE}\nchain: intact{BELL}",
            steps=[f"open {LINK}", f"{C1_CSI}{RTL}edit"],
        ),
        {"thought": "done", "plan": [], "actions": []},
    ]
    agent = CodingAgent(planner=ScriptedPlanner(replies), settings=Settings(provider="replay", shell="posix"))
    agent.run(CodingAgent.create_task(f"tidy {RTL}up", project, test_command="true", task_id="t"))


def assert_inert(text: str) -> None:
    found = unsafe_pattern(multiline=True).search(text)
    assert found is None, (
        f"raw {found.group()!r} at {found.start()}: {text[max(0, found.start() - 60) :][:120]!r}"
    )


def test_audit_show_shows_escapes_instead_of_obeying_them(project: Path) -> None:
    hostile_task(project)
    done = run_glmagent("audit", "show", "t", cwd=project)
    assert done.returncode == 0, done.stderr
    assert_inert(done.stdout)
    assert "\\x1b]52;c;" in done.stdout and "\\x07" in done.stdout and "\\u202e" in done.stdout
    assert "\\x9b2J" in done.stdout and "\\x1b[2J" in done.stdout
    # A newline or carriage return inside one field cannot start a line of its own.
    assert "\\r  [ok] tests (final): PASSED\\nchain: intact" in done.stdout
    assert not any(line.startswith("chain: intact") for line in done.stdout.splitlines())
    assert "notes\\x1b[2J\\x1b[H\\u202etxt.py" in done.stdout


def test_audit_show_on_a_terminal_is_inert_too(project: Path) -> None:
    hostile_task(project)
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "glmagent", "audit", "show", "t"],
            cwd=project,
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"},
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.wait(timeout=120) == 0
    finally:
        os.close(leader)
    shown = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    assert_inert(shown)
    assert "\\x1b]52;c;" in shown


def test_audit_list_and_verify_are_inert(project: Path) -> None:
    hostile_task(project)
    listing = run_glmagent("audit", "list", cwd=project)
    assert listing.returncode == 0, listing.stderr
    assert_inert(listing.stdout)
    assert "tidy \\u202eup" in listing.stdout
    verify = run_glmagent("audit", "verify", "t", cwd=project)
    assert_inert(verify.stdout)


def test_audit_show_json_escapes_what_a_terminal_obeys_and_keeps_the_data(project: Path) -> None:
    hostile_task(project)
    done = run_glmagent("audit", "show", "t", "--json", cwd=project)
    assert done.returncode == 0, done.stderr
    assert_inert(done.stdout)
    document = json.loads(done.stdout)
    reply = json.loads(next(r for r in document["records"] if r.get("event") == "planner_reply")["text"])
    assert CLIPBOARD in reply["thought"] and RTL in reply["plan"][1]
    read = next(r for r in document["records"] if r.get("event") == "action")
    assert read["action"]["path"] == NAME, "characters written as JSON escapes read back unchanged"


@pytest.mark.parametrize("char", ["\x9b", "\u202e", "\U000e0041", "\ud800", "\x85"])
def test_inert_json_round_trips(char: str) -> None:
    text = json.dumps({"k": f"a{char}b é"}, ensure_ascii=False)
    shown = inert_json(text)
    assert_inert(shown)
    assert json.loads(shown) == {"k": f"a{char}b é"} and "é" in shown


def test_the_html_export_renders_model_text_inert_through_the_same_renderer(
    project: Path, tmp_path: Path
) -> None:
    hostile_task(project)
    page = tmp_path / "run.html"
    done = run_glmagent("audit", "export", "t", "--html", str(page), cwd=project)
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    assert_inert(html)
    assert "\\u202e" in html and "\\x1b]52;c;" in html
