"""cmd's `for` over a list of plain names runs its command once per name: `for %%d in (bin,obj) do rd /s
/q %%d` deletes `bin` and `obj`, judged as those two deletes; with `/r ROOT` each name is every folder of
that name below ROOT (`ROOT\\**\\bin`, judged as `find ROOT -name bin` is); a `for /f` over `dir /s /b
NAME` is every NAME below the working directory. Any other loop's variable stays a run-time word."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import committed_repo, decide_in

from glmagent.guard._parse_cmd import parse_cmd

SWEEPS = [
    'FOR /D /R . %%D IN (bin,obj) DO @if EXIST "%%D" RD /S/Q "%%D"',
    'for /r /D %%d in (*) do if exist "%%d\\bin" rd /s /q "%%d\\bin"',
    "for %%d in (bin,obj) do rd /s /q %%d",
    "for %d in (dist build) do rmdir /s /q %d",
]

STILL_BLOCKED = [
    "for %%d in (bin,src) do rd /s /q %%d",  # one of them is the sources
    'for /d /r . %%d in (src) do rd /s /q "%%d"',
    "for %%d in (..,bin) do rd /s /q %%d",
    'for /r C:\\ %%d in (bin) do rd /s /q "%%d"',  # below a drive's root
    'for /d /r %%d in (*) do rd /s /q "%%d"',  # every folder
    "for /f %%i in (list.txt) do rd /s /q %%i",  # a file's lines: known at run time
    'FOR /F "tokens=*" %%G IN (\'DIR /B /AD /S *\') DO RMDIR /S /Q "%%G"',
    "for %%d in (bin,obj) do rd /s /q %%d & rd /s /q src",
]


@pytest.mark.parametrize("line", SWEEPS)
def test_a_loop_over_build_output_names_deletes_build_output(line: str) -> None:
    decision = decide_in(line, None, "powershell")
    assert decision.allowed, f"{decision.rule_id}: {decision.reason}"


@pytest.mark.parametrize("line", STILL_BLOCKED)
def test_a_loop_over_other_names_or_places_stays_blocked(line: str) -> None:
    decision = decide_in(line, None, "powershell")
    assert decision.rule_id == "destructive.recursive-delete", f"{decision.rule_id}: {decision.reason}"


def test_a_listing_of_one_name_below_the_working_directory_is_its_sweep() -> None:
    line = 'FOR /F "tokens=*" %%G IN (\'DIR /B /AD /S TestResults\') DO RMDIR /S /Q "%%G"'
    assert decide_in(line, None, "powershell").allowed
    rd = [c.argv for c in parse_cmd(line).commands if c.argv and c.argv[0].text.lower() == "rmdir"]
    assert [a.text for a in rd[0]] == ["RMDIR", "/S", "/Q", ".\\**\\TestResults"]


def test_each_name_is_one_command_and_the_list_runs_nothing() -> None:
    commands = [[a.text for a in c.argv] for c in parse_cmd("for %%d in (bin,obj) do rd /s /q %%d").commands]
    assert [c for c in commands if c] == [["rd", "/s", "/q", "bin"], ["rd", "/s", "/q", "obj"]]


def test_switches_written_together_are_read_apart() -> None:
    for line in ("cmd /c rd /s/q bin", "cmd /c RD /S/Q dist", "cmd /c rd/s/q build"):
        assert decide_in(line, None, "powershell").allowed, line
    assert not decide_in("cmd /c rd /s/q src", None, "powershell").allowed


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_in_a_project_a_tracked_folder_of_that_name_is_kept(tmp_path: Path) -> None:
    root = committed_repo(tmp_path, {"tools/bin/run.cmd": "@echo off\n", "src/app.cs": "class A {}\n"})
    line = 'for /d /r . %%d in (bin) do rd /s /q "%%d"'
    assert not decide_in(line, root, "powershell").allowed  # tools\bin holds tracked files
    (root / "tools" / "bin" / "run.cmd").unlink()
    (root / "obj").mkdir()
    assert decide_in('for /d /r . %%d in (obj) do rd /s /q "%%d"', root, "powershell").allowed
