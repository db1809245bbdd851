"""The POSIX shell backend with real processes: streams, exit codes, timeouts, environment scrubbing."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from glmagent.tools.shell import KEEP_HEAD, KEEP_TAIL, PosixShell, child_environment, resolve_shell_kind

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX backend")


def test_stdout_stderr_and_exit_code_are_captured_separately(tmp_path: Path) -> None:
    result = PosixShell().run("echo out; echo err >&2; exit 3", tmp_path, 10)
    assert (result.stdout, result.stderr, result.exit_code, result.timed_out) == ("out\n", "err\n", 3, False)


def test_runs_in_the_given_directory(tmp_path: Path) -> None:
    assert PosixShell().run("pwd", tmp_path, 10).stdout.strip() == str(tmp_path.resolve())


def test_timeout_kills_the_whole_process_tree(tmp_path: Path) -> None:
    marker = tmp_path / "survived"
    result = PosixShell().run(f"(sleep 2; touch {marker}) & sleep 30", tmp_path, 0.5)
    assert result.timed_out and result.exit_code is None  # stopped at the timeout, not after the 30 s
    time.sleep(2.5)
    assert not marker.exists(), "a background child outlived the timeout"


def test_huge_output_keeps_head_and_tail(tmp_path: Path) -> None:
    size = KEEP_HEAD + KEEP_TAIL + 50_000
    result = PosixShell().run(f"head -c {size} /dev/zero | tr '\\0' a; echo END", tmp_path, 30)
    assert result.stdout_bytes == size + 4
    assert "bytes of output cut" in result.stdout
    assert result.stdout.rstrip().endswith("END")


def test_commands_never_wait_for_stdin(tmp_path: Path) -> None:
    result = PosixShell().run("cat", tmp_path, 5)
    assert result.exit_code == 0 and not result.timed_out


def test_api_keys_never_reach_the_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZAI_API_KEY", "zai-secret-value")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-value")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-secret")
    monkeypatch.setenv("GLMAGENT_HARMLESS", "visible")
    # The test process reads its own environment through the child, not the policy engine.
    result = PosixShell().run("set", tmp_path, 10)
    assert "secret" not in result.stdout
    assert "GLMAGENT_HARMLESS" in result.stdout


def test_child_environment_keeps_ordinary_variables() -> None:
    env = child_environment({"PATH": "/bin", "GIT_AUTHOR_NAME": "a", "MY_PASSWORD": "p", "HOME": "/h"})
    assert env["PATH"] == "/bin" and env["GIT_AUTHOR_NAME"] == "a" and "MY_PASSWORD" not in env
    assert env["GIT_TERMINAL_PROMPT"] == "0"


def test_auto_shell_is_posix_off_windows() -> None:
    assert resolve_shell_kind("auto") == ("powershell" if os.name == "nt" else "posix")


def test_powershell_backend_runs_non_interactively_without_profile() -> None:
    from glmagent.tools.shell import PowerShell

    shell = PowerShell(executable="pwsh")
    assert shell.kind == "powershell"
    # The command travels as base64 of UTF-16LE: no argv quoting layer can change what the policy checked.
    assert shell.argv("Get-ChildItem") == [
        "pwsh",
        "-NoProfile",
        "-NonInteractive",
        "-EncodedCommand",
        "RwBlAHQALQBDAGgAaQBsAGQASQB0AGUAbQA=",
    ]


@pytest.mark.parametrize(
    "command",
    [
        'Write-Output "a b" \'c\' `"quoted`"',
        'echo \\"x\\" & calc.exe',
        "Get-Item 'ünïcödé ✓ 𝄞'",
        "line1\nline2\r\n\ttab",
        "",
    ],
)
def test_powershell_encoded_command_round_trips_exactly(command: str) -> None:
    from glmagent.tools.shell import PowerShell, decode_command

    argv = PowerShell(executable="pwsh").argv(command)
    assert argv[:4] == ["pwsh", "-NoProfile", "-NonInteractive", "-EncodedCommand"]
    assert len(argv) == 5 and argv[4].isascii() and " " not in argv[4]
    assert decode_command(argv[4]) == command


def test_missing_powershell_is_a_clear_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from glmagent.errors import ConfigError
    from glmagent.tools.shell import make_shell

    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(ConfigError, match="needs PowerShell"):
        make_shell("powershell")


def test_a_file_rewritten_in_the_same_second_at_the_same_size_runs_as_rewritten(tmp_path: Path) -> None:
    # Python's bytecode cache trusts a module whose size and whole-second mtime match the compiled one. The
    # loop writes a file and runs the tests within a second (an edit tried without, then put back): a cache
    # written by one run would serve the other content to the next. Commands write no bytecode.
    module = tmp_path / "mod.py"
    stamp = time.time() - 100
    python = f"{sys.executable} -c 'import mod; print(mod.VALUE)'"
    module.write_text("VALUE = min([1, 2])\n", encoding="utf-8")
    os.utime(module, (stamp, stamp))
    assert PosixShell().run(python, tmp_path, 30).stdout == "1\n"

    module.write_text("VALUE = max([1, 2])\n", encoding="utf-8")  # same size, same second
    os.utime(module, (stamp, stamp))
    assert PosixShell().run(python, tmp_path, 30).stdout == "2\n"
    assert not (tmp_path / "__pycache__").exists()
