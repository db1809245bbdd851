"""A process environment under /proc holds the user's secrets: every spelling the policy can resolve to
`/proc/<process>/environ` is denied, fail-closed (globs, doubled slashes, `.`, quotes, run-time pieces)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import ELEVATION, guard_findings

from glmagent.guard import Policy

POSIX = [
    "cat /proc/[0-9]*/env*ron",
    "cat /*/*/env*",  # one glob word that may be the file itself
    "cat /*/*/*/*/*",  # /proc/<pid>/task/<tid>/environ
    "cat //proc/$PPID/environ",
    "cat /./proc/$PPID/environ",
    'cat /pro""c/$PPID/environ',
    "cat /proc/../proc/1/environ",
    "cd /proc && cat */environ",
    "cd /proc/self && cat environ",
    "cd / && cat proc/1/environ",
    "cat /proc/self/task/*/environ",
    "cat /proc/thread-self/environ",
    "xargs -0 < /proc/1/environ",
    "tr '\\0' '\\n' < /proc/$$/environ",
    "grep -a TOKEN /proc/*/e*",
    "cat /p?oc/1/environ",
    "cat /*/self/environ",
    "find /proc -name environ -exec cat {} +",
    "find /* -name environ",  # unquoted, the shell expands `/*` to /proc among the rest
    "foo '/proc' '*'",  # quoted, `/proc` is still /proc
    "sudo cat /proc/1/environ",
    "bash -c 'cat /proc/$PPID/environ'",
    "cd $D && cat environ",
    # from a folder known only at run time, a path that may still be a process's folder or climb out of one
    "cd $D && cat self/env*",
    "cd $D && cat 12/env*",
    "cd $D && cat root/proc/1/environ",
    "cd $D && cat x/../environ",
    "cd $D && cat x/.*/environ",  # `.*` may be `..`: back to $D, which may be a process's folder
    "cd $D && cat x/.*/root/proc/1/environ",
    "cd $D && cat *",  # a glob there names what the folder holds, `environ` among them if it is a process's
    "cd $D && cat e*",
    # a path that starts with a run-time word may start anywhere
    'cat "$x/environ"',
    "cat ${PROC}/self/environ",
    "strings /proc/${PID}/environ",
]
POWERSHELL = [
    "Get-Content /proc/$PID/environ",
    "gc /pr*c/self/env*",
    "Get-Content -Path '/proc/1/environ'",
    "Set-Location /proc; Get-Content */environ",
    # a word holding a variable keeps its literal pieces, as a shell's word does
    "Get-Content $d/*/environ",
    'cat "${d}/environ"',
    "gc $d\\environ",
    # the one path Join-Path prints, its pieces joined
    "Get-Content (Join-Path /proc/1 environ)",
    "Get-Content (Join-Path -Path /proc/self -ChildPath environ)",
    "$f = Join-Path /proc/self environ; Get-Content $f",
]


@pytest.mark.parametrize("command", POSIX)
def test_posix_spellings_are_denied(command: str) -> None:
    decision = Policy.default().check(command, "posix")
    assert not decision.allowed, command
    if decision.rule_id == ELEVATION:
        assert "env.proc-environ" in guard_findings("posix", command), command
        return
    assert decision.rule_id in ("env.proc-environ", "dynamic.arguments", "env.print-environment"), (
        decision.reason
    )


@pytest.mark.parametrize("command", POWERSHELL)
def test_powershell_spellings_are_denied(command: str) -> None:
    assert not Policy.default().check(command, "powershell").allowed


@pytest.mark.parametrize(
    "command",
    [
        "cat /proc/cpuinfo",
        "cat /proc/meminfo",
        "cat /proc/self/status",
        "ls *.py",
        "python -m venv .venv",
        "cat env.txt",
        "cat environment.yml",
        "cd src && cat environment.py",
        "source .venv/bin/activate",
        "echo $HOME",
        "pytest -k 'env and not slow'",
        # a `*` stays inside one path component: four components are never /proc/<pid>/environ
        "ls /*/*/x/*",
        "dotnet test -- --treenode-filter '/*/*/ReactiveCommandTest/*'",
        # from a folder known only at run time, through a plain folder no process has
        "cd $D && cat packages/*",
        # a wildcard never matches `..`, and under a plain folder `root` or `cwd` is just a folder
        "cd $D && cat x/*/environ",
        "cd $D && cat ./packages/**/*",
        "cd $D && cat x/root/*/environ",
        "cat $f",  # a run-time name is no more that file than any other
        # ... nor is it from a folder known only at run time: `cd $D && cat $f` is `cat $D/$f`
        "cd $D && cat $f",
        "cd ./${D} && cat ./${name}",
        "cd ${GO_TEST_DIR} && go test -run ${RUN} -count=1",
        "(cd examples/$ex && dub build --compiler=$DC $DUB_ARGS)",
        "cat $x/environment.yml",
        "cd $D; cd $E",  # a change of folder reads nothing, wherever it starts
        "cd $D && pushd $E",
        # quoted whole, a glob reaches the program unexpanded: a pattern, not folders to look in
        "lcov --remove coverage.info '/*/include/*' '*/tests/*' -o coverage.info",
        "gcovr -r . --exclude '/*/boost/*' --exclude 'tests/*'",
        "coverage report --omit '/*/site-packages/*' --include 'src/*'",
    ],
)
def test_neighbours_stay_allowed(command: str) -> None:
    decision = Policy.default().check(command, "posix")
    assert decision.allowed, f"{decision.rule_id}: {decision.reason}"


def test_a_workspace_filter_in_a_project_reads_no_process_environment(tmp_path: Path) -> None:
    """pnpm runs a filtered command in each workspace the glob selects, a folder known only at run time;
    `./packages/**` names folders under `packages` wherever that is, never a process's environment."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    commands = (
        'pnpm -r -F "./packages/**" build',
        'pnpm -F docs check && pnpm -F "./packages/**" check',
        'pnpm --recursive --parallel --filter "./packages/**/*" run codegen',
    )
    for command in commands:
        decision = Policy.default().check(command, "posix", cwd=tmp_path)
        assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(
    "command",
    [
        "Set-Location $a; Set-Location $b",
        "Push-Location $a; Push-Location $b",
        "Get-Content $d/x.txt",
        # an emptied `$temp` makes `\*` no path under /proc, nor `$output` its file
        "Copy-Item $temp\\* dist -Recurse",
        "Get-Content $d/* $x",
        # a folder next to the script's, however it is spelled: no file is read, let alone an environment
        "Set-Location (Join-Path $PSScriptRoot '..')",
        "Push-Location (Join-Path $PSScriptRoot '..' 'src')",
        "Set-Location $d; Test-Path environ",
        "Get-Content (Join-Path src config.json)",
    ],
)
def test_a_powershell_change_of_folder_reads_nothing(command: str) -> None:
    decision = Policy.default().check(command, "powershell")
    assert decision.allowed, f"{decision.rule_id}: {decision.reason}"
