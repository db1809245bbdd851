"""The README is the user's guide, and every command in it is run here, top to bottom, as a reader would.

The rules a README author follows are in tests/readme_guide.py (and in the README's "About this guide").
A command that cannot run here is reported as skipped with its reason, never left out silently.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from readme_guide import Block, Command, blocks, output_mismatch, printed_lines, stand_in

from glmagent.demo import REPLAY_FILE, SAMPLE_PROJECT

# One reader, top to bottom: later blocks build on earlier ones (pyproject's `--dist loadfile` keeps this file
# in one worker, in order).
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the README's sh blocks are POSIX shell")

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = blocks(README)
SHELL_BLOCKS = [block for block in BLOCKS if block.commands]
WINDOWS = ("powershell", "ps1", "pwsh", "cmd", "bat")
SKIPPED = [(block, command) for block in SHELL_BLOCKS for command in block.commands if command.skip]
TASK_TEXT = (
    "wordstats crashes when given None; make None behave like empty text without breaking other tests.\n"
)


@dataclass
class World:
    """Where the README's commands run: a project as cwd, a home, and a private environment."""

    base: Path
    cwd: Path
    home: Path
    env: dict[str, str]
    source: Path | None = None

    def repository_copy(self) -> Path:
        """A copy of this repository with a `.venv` that sees this environment's packages but not glmagent,
        so `pip install .` works offline and builds the copy, never touching the environment under test."""
        if self.source is None:
            files = subprocess.run(
                ["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True
            ).stdout.split(b"\0")
            source = self.base / "glmagent-src"
            for name in filter(None, files):
                relative = Path(name.decode())
                if not (REPO_ROOT / relative).is_file():
                    continue
                (source / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO_ROOT / relative, source / relative)
            deps = self.base / "deps"
            deps.mkdir()
            for entry in PURELIB.iterdir():
                # Not pip: the README's own `python3 -m venv .venv` installs it, and only when no pip is
                # importable there already. With this environment's pip seen through deps.pth, the venv got
                # none, and the README's `pip` was this environment's: it installed the copy over the
                # glmagent under test.
                if not _ours(entry.name) and entry.name != "pip" and not entry.name.startswith("pip-"):
                    (deps / entry.name).symlink_to(entry)
            # No pip yet: the README's `python3 -m venv .venv` installs it (installing it twice was 3 s).
            venv = [sys.executable, "-m", "venv", "--without-pip", str(source / ".venv")]
            subprocess.run(venv, check=True, timeout=300)
            site = next((source / ".venv").glob("lib/python*/site-packages"))
            (site / "deps.pth").write_text(f"{deps}\n", encoding="utf-8")
            self.source = source
        return self.source


PURELIB = Path(sysconfig.get_paths()["purelib"])


def _ours(name: str) -> bool:
    """Whether a site-packages entry is the glmagent install under test (editable or not)."""
    return name.lower().startswith(("glmagent", "_editable_impl_glmagent", "__editable__"))


def _installs_under_test() -> dict[str, int]:
    """The glmagent entries of the environment under test, with their change times."""
    return {entry.name: entry.stat().st_mtime_ns for entry in PURELIB.iterdir() if _ours(entry.name)}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    base = tmp_path_factory.mktemp("readme")
    cwd = base / "work"
    shutil.copytree(SAMPLE_PROJECT, cwd, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPLAY_FILE, cwd / "replies.jsonl")
    (cwd / "TASK.md").write_text(TASK_TEXT, encoding="utf-8")
    home = base / "home"
    shutil.copytree(SAMPLE_PROJECT, home / "src" / "app", ignore=shutil.ignore_patterns("__pycache__"))
    closed = "http://127.0.0.1:9"
    with stand_in(REPLAY_FILE) as url:
        env = {
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}/usr/local/bin:/usr/bin:/bin",
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
            "GLMAGENT_CONFIG_DIR": str(base / "config"),
            "GLMAGENT_STATE_DIR": str(base / "state"),
            "ZAI_API_KEY": "sk-readme-dummy-key",
            "OPENAI_API_KEY": "sk-readme-dummy-key",
            "GLMAGENT_BASE_URL": url,
            "OLLAMA_HOST": url.removesuffix("/v1"),
            "GLMAGENT_MAX_RETRIES": "1",
            "GLMAGENT_RETRY_BACKOFF": "0.05",  # a retry still happens, without a second's wait
            "HTTP_PROXY": closed,
            "HTTPS_PROXY": closed,
            "ALL_PROXY": closed,
            "http_proxy": closed,
            "https_proxy": closed,
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "PIP_NO_INDEX": "1",
            "PIP_NO_BUILD_ISOLATION": "0",  # pip's spelling of --no-build-isolation
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            # A new user's venv holds pytest alone; the copy's sees this suite's plugins too (deps.pth).
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        }
        yield World(base, cwd, home, env)


def _run_block(world: World, block: Block) -> tuple[list[int], str]:
    """Run a block's commands in one shell; each command's exit code, and everything printed."""
    installs = any("pip install" in command.text for command in block.commands)
    cwd = world.cwd
    if installs:
        assert "-m venv .venv" in block.body, f"{block.name} installs without creating a virtual environment"
        cwd = world.repository_copy()
    codes = world.base / f"codes-{block.line}"
    codes.unlink(missing_ok=True)
    before = _installs_under_test()
    script = []
    for command in block.commands:
        script.append(": skipped" if command.skip else command.text)
        script.append(f'printf "%s\\n" "$?" >> "{codes}"')
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", "\n".join(script)],
        cwd=cwd,
        env=world.env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=900,
    )
    exits = [int(line) for line in codes.read_text().split()] if codes.exists() else []
    if installs:
        assert _installs_under_test() == before, (
            f"{block.name} installed into the environment under test, not into the copy's .venv"
        )
        assert any((cwd / ".venv").glob("lib/python*/site-packages/pip")), (
            f"{block.name}: the .venv has no pip; the block printed:\n{(done.stdout + done.stderr)[-3000:]}"
        )
    return exits, done.stdout + done.stderr


#: Every block that runs, in README order: later commands build on earlier ones, as for a reader.
RUNNABLE = [
    block for block in BLOCKS if block.commands or block.transcript or block.language in ("python", *WINDOWS)
]


@pytest.mark.parametrize("block", RUNNABLE, ids=[block.name for block in RUNNABLE])
def test_the_readme_works_as_shown_top_to_bottom(world: World, block: Block) -> None:
    if block.language in WINDOWS:
        pytest.skip(f"{block.name}: PowerShell and cmd examples run on Windows only")
    if block.language == "python":
        done = subprocess.run(
            [sys.executable, "-c", block.body],
            cwd=world.cwd,
            env=world.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        shown = printed_lines(block.body)
        if shown is not None:
            printed = [line for line in done.stdout.splitlines() if line.strip()]
            assert printed == shown, f"{block.name} prints {printed}, the README shows {shown}"
        return
    if block.transcript:
        _check_transcript(world, block)
        return
    if all(command.skip for command in block.commands):
        pytest.skip("; ".join(f"line {c.line}: {c.skip}" for c in block.commands))
    exits, output = _run_block(world, block)
    assert len(exits) == len(block.commands), f"the block stopped early:\n{output}"
    wrong = [
        f"README.md:{command.line}: `{command.text.splitlines()[0]}` exited {code}, "
        f"expected {command.expected_exit}"
        for command, code in zip(block.commands, exits, strict=True)
        if not command.skip and code != command.expected_exit
    ]
    assert wrong == [], "\n".join(wrong) + "\n\n" + output
    assert "Traceback" not in output and "internal error" not in output, output
    if block.output is not None:
        wrong = output_mismatch(block.output, output, home=str(world.home))
        assert wrong == [], (
            f"{block.name}: the output shown is not what the command printed:\n{wrong}\n\n{output}"
        )


def _check_transcript(world: World, block: Block) -> None:
    """Run a session block's commands in one shell, each printing what the README shows after it."""
    marks = [f"@@readme-{block.line}-{index}@@" for index in range(len(block.transcript))]
    script = Block("sh", "", block.line)
    for (command, _), mark in zip(block.transcript, marks, strict=True):
        assert command.skip is None, f"README.md:{command.line}: {command.skip}"
        merged = f"{{ {command.text}\n}} 2>&1"  # stderr in place, as a terminal shows it
        script.commands += [Command(merged, command.line, command.expected_exit), Command(f"echo {mark}", 0)]
    exits, output = _run_block(world, script)
    assert exits[0::2] == [command.expected_exit for command, _ in block.transcript], output
    for (command, shown), mark in zip(block.transcript, marks, strict=True):
        printed, output = output.split(mark + "\n", 1)
        wrong = output_mismatch(shown, printed, home=str(world.home))
        assert wrong == [], (
            f"README.md:{command.line}: `{command.text}` printed otherwise:\n{wrong}\n\n{printed}"
        )


@pytest.mark.parametrize(
    ("block", "command"), SKIPPED, ids=[f"README.md:{command.line}" for _, command in SKIPPED]
)
def test_commands_the_readme_shows_that_tests_cannot_run(block: Block, command: Command) -> None:
    pytest.skip(f"`{command.text.splitlines()[0]}`: {command.skip}")


def test_the_readme_has_runnable_blocks_and_nothing_unclassified() -> None:
    known = {"sh", "bash", "shell", "console", "text", "python", "toml", "json", "powershell", "ps1", "pwsh"}
    assert SHELL_BLOCKS and [block for block in BLOCKS if block.language == "python"]
    assert [block.name for block in BLOCKS if block.language not in known] == []
    assert [block.name for block in BLOCKS if block.language in ("bash", "shell", "console")] == [], (
        "use ```sh for commands"
    )


def test_ci_runs_exactly_the_test_command_the_readme_gives() -> None:
    """CI proves what a reader is told: the quick start's test command is the line `.ci/run` executes."""
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    marker = next(i for i, line in enumerate(ci) if "the README's test command" in line)
    ci_command = ci[marker + 1].strip()
    quick_start = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    readme_commands = [c.text for b in blocks(quick_start) for c in b.commands]
    assert ci_command in readme_commands
    assert any(c.endswith("glmagent demo") and "pip install" in c for c in readme_commands)


_MEMORY_FILE = """# run 20260114T093012Z-5d2c81fa started 2026-01-14T09:30:12.481+00:00
# task: fix it

Iteration 1:
- Read wordstats.py (20 lines)

# run 20260114T093012Z-5d2c81fa ended 2026-01-14T09:30:16.613+00:00: SUCCESS (tests_passed), 1 iteration
"""


def test_an_output_block_shows_all_of_the_output_or_marks_where_it_leaves_lines_out() -> None:
    """The tour showed the memory file without its `# run` lines and still passed: a shown block is now the
    whole output, with `…` where lines are left out on purpose."""
    without_header = "Iteration 1:\n- Read wordstats.py (20 lines)\n"
    assert output_mismatch(without_header, _MEMORY_FILE) != []
    assert output_mismatch("…\n" + without_header + "…\n", _MEMORY_FILE) == []
    other_run = _MEMORY_FILE.replace("5d2c81fa", "00c0ffee").replace("09:30", "17:45")
    assert output_mismatch(_MEMORY_FILE, other_run) == [], "ids and times may differ"
    assert output_mismatch(_MEMORY_FILE.replace("(20 lines)", "(2 lines)"), _MEMORY_FILE) != []
    assert output_mismatch("a\nb", "a\nb\nc") == ["the command printed more after the last shown line: ['c']"]


def test_a_short_hash_of_decimal_digits_is_still_a_hash() -> None:
    shown = "chain        verified: 16 records, head 4f1e0c2a9b3d…\nstart state  git c67a636c969b"
    printed = "chain        verified: 16 records, head 772133066929…\nstart state  git 123456789012"
    assert output_mismatch(shown, printed) == []
    assert output_mismatch("tokens 123456789012", "tokens 999999999999") != []  # a number is no hash


def test_a_python_block_says_what_it_prints_in_its_print_comments() -> None:
    body = 'x = 1\nprint(x, "y")  # 1 y\nprint("no comment")\n'
    assert printed_lines(body) == ["1 y"]
    assert printed_lines("print(1)\n") is None
