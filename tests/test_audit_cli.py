"""`audit list`, `audit show`, `audit export --html` (rendered in headless Chromium), and `act`'s record."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from audit_support import finished_task

from glmagent.audit import iter_records, verify_log
from glmagent.cli import main

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def test_list_shows_runs_newest_first_with_outcome_and_chain_status(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished_task(project, "older", "first task")
    finished_task(project, "newer", "second task")
    capsys.readouterr()
    assert main(["audit", "list", "-C", str(project)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == [
        "started", "(UTC)", "task", "run", "outcome", "iter", "tokens", "cost", "chain", "description"
    ]  # fmt: skip
    assert [line.split()[2] for line in out[1:]] == ["newer", "older"]
    # The second task starts where the first left the file: its tests pass from the start.
    assert "SUCCESS (no_actions)" in out[1] and "SUCCESS (tests_passed)" in out[2]
    assert all(" verified " in line for line in out[1:])
    assert out[1].rstrip().endswith("second task")
    assert main(["audit", "list", "-C", str(project), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["task_id"] for row in rows] == ["newer", "older"]
    assert rows[1]["iterations"] == 3 and rows[1]["success"] is True and rows[1]["chain"] == "verified"
    assert rows[1]["stop_reason"] == "tests_passed" and rows[0]["description"] == "second task"


def test_list_in_a_project_without_records_says_so(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "list", "-C", str(project)]) == 0
    assert "no recorded runs here" in capsys.readouterr().out


def test_show_gives_summaries_and_a_timeline_with_blocks_highlighted(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished_task(project)
    capsys.readouterr()
    assert main(["audit", "show", "t", "-C", str(project)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("task t · run ")
    for needle in (
        "  task         say hi",
        "  chain        verified: ",
        "Summary (memory file)\n  Iteration 1:\n  - Baseline: ",
        "tests (baseline): FAILED · exit 1",
        "  ── iteration 2 ",
        "  plan: clean up",
        "  !! [BLOCKED] run `rm -rf /`\n  !!     rule destructive.",
        "  [ok] Modified app.py (+1 -1)\n",
        "      -    return 'hello ' + name\n      +    return 'hi ' + name",
        "      $ echo changed  → exit 0 · policy: allowed",
        "  tests (after iteration 3): PASSED · exit 0",
        "  end: SUCCESS (tests_passed) at ",
    ):
        assert needle in out, needle
    timeline = out[out.index("\nTimeline\n") :]
    assert (
        timeline.index("plan: look first") < timeline.index("[BLOCKED]") < timeline.index("Modified app.py")
    )


def test_show_json_and_run_selection(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = finished_task(project)
    run = next(iter_records(log))["run"]
    capsys.readouterr()
    assert main(["audit", "show", "t", "-C", str(project), "--run", run[-8:], "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["run"] == run and document["verification"]["ok"] is True
    assert [r["event"] for r in document["records"]][:2] == ["task_start", "tests"]
    assert main(["audit", "show", "t", "-C", str(project), "--run", "nope"]) == 2
    assert "no run matching 'nope'" in capsys.readouterr().err


def test_export_writes_one_self_contained_page(project: Path, tmp_path: Path) -> None:
    finished_task(project)
    page = tmp_path / "audit.html"
    assert main(["audit", "export", "t", "-C", str(project), "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    for section in (
        "overview",
        "verification",
        "summary",
        "timeline",
        "iteration-1",
        "iteration-3",
        "outcome",
    ):
        assert f'id="{section}"' in html
    assert "default-src 'none'" in html, "a Content-Security-Policy forbids loading anything"
    assert not re.search(r"<(script|link|img|iframe)\b|\b(src|href)\s*=|url\(|@import", html, re.IGNORECASE)
    assert '<span class="add">+    return &#x27;hi &#x27; + name</span>' in html
    assert '<span class="badge">BLOCKED</span> run `rm -rf /`' in html
    assert os.stat(page).st_mode & 0o044, "the page is readable like any file the user writes"


def _chromium(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


@pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium is not installed (Debian package: chromium)"
)
def test_the_export_renders_in_headless_chromium(project: Path, tmp_path: Path) -> None:
    finished_task(project)
    page = tmp_path / "audit.html"
    assert main(["audit", "export", "t", "-C", str(project), "--html", str(page)]) == 0
    shot = tmp_path / "audit.png"
    done = _chromium(
        "--window-size=1200,1800", f"--screenshot={shot}", page.as_uri(), profile=tmp_path / "p1"
    )
    assert shot.is_file(), done.stderr[-2000:]
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (1200, 1800)
    assert len(png) > 20_000, "a blank page compresses to almost nothing"
    dom = _chromium("--dump-dom", page.as_uri(), profile=tmp_path / "p2").stdout
    for section in ("overview", "verification", "summary", "timeline", "outcome"):
        assert re.search(rf'<section id="{section}"', dom), section
    assert "BLOCKED" in dom and "SUCCESS (tests_passed)" in dom and "verified" in dom


def test_act_records_each_action_in_act_jsonl(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["act", '{"tool": "run", "command": "echo hi"}', "-C", str(project), "--sandbox", "none"]) == 0
    )
    assert main(["act", '{"tool": "run", "command": "curl http://example.com"}', "-C", str(project)]) == 1
    capsys.readouterr()
    log = project / ".hazina" / "agent-memory" / "act.jsonl"
    records = list(iter_records(log))
    assert [r["event"] for r in records] == ["task_start", "action", "task_end"] * 2
    starts = [r for r in records if r["event"] == "task_start"]
    assert {r["mode"] for r in starts} == {"act"} and starts[0]["glmagent_version"]
    assert starts[0]["policy_files"][0]["sha256"] and starts[0]["planner_schema_sha256"]
    ran, blocked = (r for r in records if r["event"] == "action")
    assert ran["action"]["command"] == "echo hi" and ran["status"] == "ok" and "hi" in ran["output_tail"]
    assert blocked["status"] == "rejected" and blocked["details"]["policy"]["rule_id"].startswith("network")
    assert verify_log(log).ok
    assert main(["audit", "list", "-C", str(project)]) == 0
    assert capsys.readouterr().out.count(" act ") == 2


def _blocks(html: str, css: str) -> list[str]:
    """The HTML of each step box of one kind (`tests`, `action`), in order."""
    return re.findall(rf'<div class="{css}\b.*?</div>(?=\n<div|\n</section>)', html, re.DOTALL)


def test_the_export_shows_each_run_once_and_folds_a_passing_runs_output(
    project: Path, tmp_path: Path
) -> None:
    """Each test run and command once (the recorded output repeats them at its top); a failed run with its
    output open; a passing one with the runner's last line in view and its output folded away."""
    finished_task(project, test_output="collected 4 items\n\n4 passed in 0.01s")
    page = tmp_path / "audit.html"
    assert main(["audit", "export", "t", "-C", str(project), "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    tests = _blocks(html, "tests")
    assert len(tests) >= 2 and 'class="tests failed"' in tests[0] and 'class="tests passed"' in tests[-1]
    for block in tests:
        command = re.search(r"\$ ([^<]*?)(?:   →|</)", block)
        assert command is not None, block
        assert block.count(command.group(1)) == 1, f"the command appears more than once:\n{block}"
        assert "[exit " not in block, "the exit is shown once, in the header"
    failed, passed = tests[0], tests[-1]
    assert '<pre class="output">' in failed and "<details" not in failed
    summary = re.search(
        r'<details class="output"><summary><code>(.*?)</code></summary><pre>(.*?)</pre>', passed, re.S
    )
    assert summary is not None, passed
    assert "open" not in passed.split("<summary>")[0], "folded unless the reader opens it"
    assert summary.group(1).endswith("→ 4 passed in 0.01s") and "collected 4 items" in summary.group(2)
    runs = [block for block in _blocks(html, "action") if '<pre class="command">$ echo changed' in block]
    assert len(runs) == 1 and runs[0].count("$ echo changed") == 1
    assert "[exit 0]" not in runs[0] and "changed" in runs[0].split("</pre>", 1)[1]


def test_a_passing_run_that_printed_nothing_shows_only_its_command(project: Path, tmp_path: Path) -> None:
    finished_task(project)
    page = tmp_path / "audit.html"
    assert main(["audit", "export", "t", "-C", str(project), "--html", str(page)]) == 0
    passed = _blocks(page.read_text(encoding="utf-8"), "tests")[-1]
    assert 'class="tests passed"' in passed and "<details" not in passed and "stdout: (empty)" not in passed


def test_show_gives_each_run_once_and_a_passing_runs_last_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished_task(project, test_output="4 passed in 0.01s")
    capsys.readouterr()
    assert main(["audit", "show", "t", "-C", str(project)]) == 0
    timeline = capsys.readouterr().out.split("\nTimeline\n", 1)[1]
    assert "[exit " not in timeline, "the recorded output's own header is not repeated"
    assert timeline.count("$ echo changed") == 1
    passed = timeline[timeline.index("tests (after iteration 3): PASSED") :].splitlines()
    assert passed[1].startswith("      $ ") and passed[1].endswith("  → 4 passed in 0.01s")
    assert not passed[2].startswith("      | "), "a passing run's output stays folded"
