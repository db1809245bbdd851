"""Mentioning a denied command is not running it: denied examples and program names quoted as data (echo,
grep, git log --grep, Select-String, file names), fixed look-alikes beside their blocked twins, and option
values that hide a word a rule trusted."""

from __future__ import annotations

import shlex
import tomllib
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from glmagent.guard import Decision, Policy


def _check(command: str, shell: str) -> Decision:
    return Policy.default().check(command, shell)  # type: ignore[arg-type]


_PS_ENV = "env.powershell-environment"


_DD = "destructive.raw-disk-write"


# Fixed look-alikes (backend, harmless command) with their blocked twin (command, rule id).
FIXED = [
    # `sls` is PowerShell's built-in alias of Select-String; the Serverless CLI of that name stays denied.
    ("powershell", "sls TODO *.py", "sls deploy --stage prod", "network.remote-service"),
    ("powershell", "sls -Pattern 'TODO' -Path *.md", "sls.cmd invoke -f hello", "network.remote-service"),
    ("powershell", "Get-Content x.ps1 | sls 'curl'", "sls", "network.remote-service"),
    ("powershell", "sls 'rm -rf' docs\\*.md -SimpleMatch", "sls remove", "network.remote-service"),
    # `twine check` validates local distributions; uploading stays network.
    ("posix", "twine check dist/*", "twine upload dist/*", "network.publish"),
    ("posix", "python -m twine check --strict dist/*", "twine upload check", "network.publish"),
    ("powershell", "python -m twine check dist\\*", "py -m twine upload dist\\*", "network.publish"),
    # Copy-Item's `-r` is -Recurse (it has no -ResourceURI outside the WSMan: drive).
    ("powershell", "cp -r src dst", "Copy-Item -ToSession $s a b", "network.socket"),
    ("powershell", "Copy-Item -r .\\src .\\backup", "cpi -FromSession $s C:\\a b", "network.socket"),
    ("powershell", "copy -Rec src dst", "Copy-Item -ComputerName srv a b", "network.socket"),
    ("powershell", "cpi -r a b -Force", "cp -cn srv a b", "network.socket"),
    # -WhatIf only reports what the cmdlet would do.
    ("powershell", "Clear-Content log.txt -WhatIf", "Clear-Content log.txt", "destructive.overwrite-file"),
    ("powershell", "clc app.log -WhatIf", "clc app.log -WhatIf:$false", "destructive.overwrite-file"),
    ("powershell", "Clear-Item .\\x.txt -WhatIf", "Clear-Item .\\x.txt", "destructive.overwrite-file"),
    # (a file the line reads first is one that holds something)
    (
        "powershell",
        "gc f.txt; New-Item f.txt -Force -WhatIf",
        "gc f.txt; New-Item f.txt -Force",
        "destructive.truncating-write",
    ),
    # urllib.parse only splits and quotes strings; urllib.request and a bare urllib stay network (once
    # called: a program that only imports calls nothing).
    (
        "posix",
        "python -c \"import urllib.parse; print(urllib.parse.quote('a b'))\"",
        'python -c "import urllib.parse, urllib.request; urllib.request.urlopen(u)"',
        "network.payload",
    ),
    (
        "powershell",
        "python -c \"from urllib.parse import urlparse; print(urlparse('http://x/y').path)\"",
        'python -c "from urllib import request; request.urlopen(u)"',
        "network.payload",
    ),
    # Encoding to base64 hides nothing; decoding it still counts as a hidden payload.
    (
        "posix",
        "node -e \"console.log(Buffer.from('hi').toString('base64'))\"",
        "node -e \"console.log(Buffer.from('aGk=', 'base64').toString())\"",
        "unverifiable.payload-dynamic",
    ),
    # cmd's dynamic values are no environment variables.
    ("powershell", 'cmd /c "echo %CD%"', 'cmd /c "echo %USERPROFILE%"', _PS_ENV),
    ("posix", 'cmd /c "build.bat & echo %ERRORLEVEL%"', 'cmd /c "echo %API_KEY%"', _PS_ENV),
    ("powershell", "cmd /c echo %date% %time%", 'cmd /c "echo %CD%%GITHUB_TOKEN%"', _PS_ENV),
    # dd writing to /dev/null is a read benchmark; any other target (dd uses the last) writes.
    ("posix", "dd if=in.img of=/dev/null", "dd of=/dev/null of=/dev/sda", _DD),
    ("posix", "dd if=/dev/zero of=/dev/null bs=1M count=100", "dd if=x of=/dev/sdb", _DD),
    ("posix", "dd if=/dev/sda of=/dev/null bs=4M", "dd of=/dev/sda of=/dev/null", _DD),
]


# Option values that hide a word the rule trusted, and run-time targets: these stay blocked.
BLOCKED = [
    # `-e PATTERN` swallows the next word (or the rest of its cluster): the `-n` is no dry run.
    ("posix", "git clean -e -n -fdx", "destructive.git-clean"),
    ("posix", "git clean -en -f", "destructive.git-clean"),
    ("posix", "git clean --exclude -n -f", "destructive.git-clean"),
    ("posix", "git clean --ex --dry-run -fd", "destructive.git-clean"),
    ("powershell", "git clean -e -n -fdx", "destructive.git-clean"),
    # `--pathspec-from-file FILE` swallows `--cached`: the paths listed in that file are deleted.
    ("posix", "git rm --pathspec-from-file --cached -r", "destructive.git-rm"),
    ("posix", "git rm --pathspec-from --cached -rf", "destructive.git-rm"),
    # Paths read from a file may be `.`: checkout and restore then discard every change.
    ("posix", "git checkout --pathspec-from-file=paths.txt", "destructive.git-discard"),
    ("posix", "git restore --pathspec-from-file paths.txt", "destructive.git-discard"),
    ("posix", "git checkout --pathspec-from=- < list", "destructive.git-discard"),
    ("powershell", "git restore --pathspec-from-file=paths.txt", "destructive.git-discard"),
    # A dd target known only at run time may be a disk.
    ("posix", "dd if=x of=$dev", "dynamic.arguments"),
    ("posix", 'dd if=img "$1"', "dynamic.arguments"),
    # A word whose literal part already fits a glob ending in `*` fits it whatever the run-time part is.
    ("posix", "git -c core.pager=\"$(printf 'rm -rf ~')\" log -1", "dynamic.arguments"),
    ("posix", 'read x; git -c core.pager="$x" log', "dynamic.arguments"),
    # a pager reads what git prints: `sh` as one runs it
    ("posix", "x='sh'; git -c core.pager=\"$x\" log", "dynamic.stdin"),
    ("posix", 'git -c "alias.st=$y" st', "dynamic.arguments"),
    ("posix", "make SHELL=$x", "dynamic.arguments"),
    ("posix", "make .SHELLFLAGS=$(echo -c) all", "dynamic.arguments"),
    ("powershell", 'git -c "core.pager=$x" log', "dynamic.script"),  # the whole setting is only known then
]


STILL_ALLOWED = [
    ("posix", "git clean -n"),
    ("posix", "git clean -nd"),
    ("posix", "git clean --dry-run -dx"),
    ("posix", "git clean -n --exclude=build"),
    ("posix", "git rm --cached -r build/"),
    ("posix", "git rm -r -n src"),
    ("posix", "git rm --pathspec-from-file=paths.txt --cached"),
    ("posix", "dd if=disk.img bs=1M count=1"),
    ("posix", 'git -c user.name="$n" commit -m x'),
    ("posix", "make CC=$cc"),
    ("posix", "make -j$(nproc)"),
    ("posix", 'pytest -k "$expr"'),
    ("posix", "ps -p $pid"),
]


@pytest.mark.parametrize(("shell", "harmless", "twin", "rule_id"), FIXED)
def test_fixed_lookalike_is_allowed(shell: str, harmless: str, twin: str, rule_id: str) -> None:
    decision = _check(harmless, shell)
    assert decision.allowed, (harmless, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("shell", "harmless", "twin", "rule_id"), FIXED)
def test_blocked_twin_stays_blocked(shell: str, harmless: str, twin: str, rule_id: str) -> None:
    decision = _check(twin, shell)
    assert not decision.allowed
    assert decision.rule_id == rule_id, (twin, decision.rule_id)


def test_serverless_cli_stays_denied_on_posix() -> None:
    decision = _check("sls TODO", "posix")
    assert decision.rule_id == "network.remote-service"
    assert decision.category == "network"


@pytest.mark.parametrize(("shell", "command", "rule_id"), BLOCKED)
def test_hidden_option_values_stay_blocked(shell: str, command: str, rule_id: str) -> None:
    decision = _check(command, shell)
    assert not decision.allowed, command
    assert decision.rule_id == rule_id, (command, decision.rule_id)


@pytest.mark.parametrize(("shell", "command"), STILL_ALLOWED)
def test_dry_runs_and_plain_uses_stay_allowed(shell: str, command: str) -> None:
    decision = _check(command, shell)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


def _ps_quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


_POSIX_DATA = [
    "grep -rnF -- {q} docs/",
    "echo {q}",
    "git commit -m {q}",
    "printf '%s\\n' {q}",
    "rg -F -e {q}",
    "git log --grep={q}",
]


_POWERSHELL_DATA = [
    "Select-String -Pattern {q} -Path *.md",
    "Write-Output {q}",
    "git commit -m {q}",
    "$s = {q}; $s.Length",
    "rg -F {q} docs",
]


def _examples() -> list[tuple[str, list[str]]]:
    return [(rule.id, [ex for ex in rule.match if "\n" not in ex]) for rule in Policy.default().rules]


@pytest.mark.parametrize(("rule_id", "examples"), _examples(), ids=lambda v: v if isinstance(v, str) else "")
def test_denied_examples_quoted_as_data_are_allowed(rule_id: str, examples: list[str]) -> None:
    wrong = []
    for example in examples:
        if example.startswith("PS> "):
            body, shell, templates, quote = example[4:], "powershell", _POWERSHELL_DATA, _ps_quote
        else:
            body, shell, templates, quote = example, "posix", _POSIX_DATA, shlex.quote
        for template in templates:
            command = template.format(q=quote(body))
            decision = _check(command, shell)
            if not decision.allowed:
                wrong.append((shell, command, decision.rule_id))
        comment = f"Get-ChildItem # {body}" if shell == "powershell" else f"ls # {body}"
        if not _check(comment, shell).allowed:
            wrong.append((shell, comment, _check(comment, shell).rule_id))
    assert not wrong, wrong


def _rule_command_names(*, scripts: bool | None = None) -> list[str]:
    """The command names the default policy's clauses list; `scripts`: only those of clauses whose programs
    also ship as scripts (True), or only the others (False)."""
    data = tomllib.loads((Path(__file__).parent.parent / "policy" / "default.toml").read_text())
    names = {
        name
        for rule in data["rule"]
        for clause in rule.get("when", [])
        if scripts is None or bool(clause.get("script_names")) == scripts
        for name in clause.get("commands", [])
        if not any(ch in name for ch in "*?[")
    }
    return sorted(names)


_NAME_AS_DATA = [
    ("posix", "which {n}"),
    ("posix", "type {n}"),
    ("posix", "command -v {n}"),
    ("posix", "man {n}"),
    ("posix", "echo {n}"),
    ("posix", "grep -rn '{n} ' docs/"),
    ("posix", "git log --grep='{n}'"),
    ("posix", "cat {n}.md"),
    ("posix", "mkdir -p {n}"),
    ("posix", "git add {n}.py"),
    ("posix", "pytest tests/test_{n}.py"),
    ("powershell", "Get-Command {n}"),
    ("powershell", "Get-Help {n}"),
    ("powershell", "Write-Output '{n}'"),
    ("powershell", "Select-String -Pattern '{n}' -Path *.md"),
    ("powershell", "Test-Path .\\{n}"),
    ("powershell", "Get-Content .\\{n}.md"),
    ("powershell", "New-Item -ItemType Directory .\\{n}"),
]


@pytest.mark.parametrize(("shell", "template"), _NAME_AS_DATA)
def test_denied_program_names_as_data_are_allowed(shell: str, template: str) -> None:
    wrong = []
    for name in _rule_command_names():
        command = template.format(n=name)
        decision = _check(command, shell)
        if not decision.allowed:
            wrong.append((command, decision.rule_id))
    assert not wrong, wrong[:20]


def _script_tools() -> dict[str, str]:
    """Tools of the clauses whose programs also ship as scripts, with the backend to run each on: those the
    name alone decides (`esptool.py write-flash …`, a clause reading the words, is left to its own tests)."""
    data = tomllib.loads((Path(__file__).parent.parent / "policy" / "default.toml").read_text())
    words = ("args_any", "subcommands", "flags_any", "operands_any", "params_any", "switches_any")
    out: dict[str, str] = {}
    for rule in data["rule"]:
        for clause in rule.get("when", []):
            if clause.get("script_names") and not any(clause.get(key) for key in words):
                shells = clause.get("shells", ["posix", "powershell", "cmd"])
                for name in clause.get("commands", []):
                    out.setdefault(name, "posix" if "posix" in shells else "powershell")
    return out


def test_a_project_script_named_like_a_program_is_the_projects() -> None:
    """`python curl.py` runs the project's own script, whatever it is called: only the names of tools that
    ship as scripts themselves (`GetNPUsers.py`, `lazagne.py`, below) are those tools."""
    tools = _script_tools()
    wrong = []
    for name in _rule_command_names(scripts=False):
        if "." in name or any(fnmatchcase(name, t) or t.startswith(name + ".") for t in tools):
            continue
        for shell, template in (
            ("posix", "python {n}.py"),
            ("posix", "bash scripts/{n}.sh"),
            ("powershell", "pwsh -File .\\{n}.ps1"),
        ):
            command = template.format(n=name)
            decision = _check(command, shell)
            if not decision.allowed:
                wrong.append((command, decision.rule_id))
    assert not wrong, wrong[:20]


def test_a_tool_that_ships_as_a_script_is_that_tool_by_any_interpreter() -> None:
    tools = _script_tools()
    assert len(tools) > 100
    wrong = []
    for name, shell in tools.items():
        if any(ch in name for ch in ".*?["):
            continue
        if shell == "posix":
            commands = [f"python3 {name}.py", f"./{name}.py", f"bash {name}.sh"]
        else:
            commands = [f".\\{name}.ps1", f"Import-Module .\\{name}.ps1", f"pwsh -File {name}.ps1"]
        wrong += [c for c in commands if _check(c, shell).allowed]
    assert not wrong, wrong[:20]
