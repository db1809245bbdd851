"""Allowlist mode: only commands an [[allow]] entry matches run, every simple command counts, the deny rules
still apply on top, entries prove their examples when the policy loads."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from glmagent.errors import PolicyError
from glmagent.guard import Decision, Policy
from glmagent.guard._rules import CommandView

ALLOWLIST = """
version = 1

[policy]
mode = "allowlist"

[[allow]]
id = "git-read"
description = "look at the repository"
commands = ["git"]
subcommands = ["status", "diff", "log", "push"]
match = ["git status", "git -C sub log --oneline", "git --no-pager diff HEAD~1"]
not_match = ["git commit -m x", "git $sub"]

[[allow]]
id = "pytest"
commands = ["pytest"]
match = ["pytest -q tests"]

[[allow]]
id = "python-m-pytest"
commands = ["python", "python3"]
prefix = ["-m", "pytest"]
match = ["python -m pytest -q", "python3 -m pytest"]
not_match = ["python -m http.server", "python x.py", "python -c 'print(1)'"]

[[allow]]
id = "nice"
commands = ["nice"]
match = ["nice pytest"]

[[allow]]
id = "rm-files"
commands = ["rm"]
flags_none = ["-f", "--force"]
match = ["rm build/x.o"]
not_match = ["rm -f build/x.o"]

[[allow]]
id = "sort"
commands = ["sort"]
args_none = ["-o"]
match = ["sort names.txt"]
not_match = ["sort -o names.txt names.txt"]

[[allow]]
id = "listing"
commands = ["get-childitem", "ls"]
match = ["PS> gci -Recurse", "ls -la"]
"""


def write(folder: Path, text: str, name: str = "allow.toml") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> Policy:
    return Policy.load([write(tmp_path_factory.mktemp("allowlist"), ALLOWLIST)])


@pytest.fixture(scope="module")
def without_pytest(tmp_path_factory: pytest.TempPathFactory) -> Policy:
    """ALLOWLIST with no entry for a bare `pytest` (so `python -m pytest` runs an unlisted command)."""
    text = ALLOWLIST.replace('id = "pytest"\ncommands = ["pytest"]', 'id = "pytest"\ncommands = ["pytest-x"]')
    text = text.replace('match = ["pytest -q tests"]', 'match = ["pytest-x -q"]')
    text = text.replace('match = ["nice pytest"]', 'match = ["nice ls"]')
    return Policy.load([write(tmp_path_factory.mktemp("without-pytest"), text)])


def refused(decision: Decision, word: str) -> None:
    assert not decision.allowed, decision
    assert decision.rule_id == "allowlist.not-allowed", decision
    assert decision.category == "allowlist"
    assert f"`{word}`" in decision.reason and "is not on your allowlist" in decision.reason, decision.reason


def test_mode_and_entries_are_reported(policy: Policy) -> None:
    assert policy.mode == "allowlist"
    assert [e.id for e in policy.allow_entries][:2] == ["git-read", "pytest"]
    assert Policy.default().mode == "deny" and Policy.default().allow_entries == []


@pytest.mark.parametrize(
    "command",
    [
        "git status",
        "git log --oneline -5",
        "pytest -q",
        "python -m pytest -x tests/test_a.py",
        "nice pytest",
        "rm build/x.o",
        "ls -la && git diff",
        "pytest || true",  # true does nothing: it needs no entry
        "FOO=1 pytest",
    ],
)
def test_listed_commands_run(policy: Policy, command: str) -> None:
    decision = policy.check(command, "posix")
    assert decision.allowed, decision.reason
    assert "allowlist" in decision.reason


@pytest.mark.parametrize(
    ("command", "word"),
    [
        ("cat README.md", "cat README.md"),
        ("git commit -m 'x'", "git commit -m 'x'"),
        ("git status && cat x", "cat x"),  # a chain
        ("git log | head -3", "head -3"),  # a pipeline
        ("pytest $(cat tests.txt)", "cat tests.txt"),  # a substitution
        ("nice cat /etc/hosts", "cat /etc/hosts"),  # what a wrapper runs
        ("sh -c 'pytest'", "sh -c 'pytest'"),  # the shell itself
        ("python -m pytest -q", "pytest -q"),  # what `python -m` runs (no entry for a bare pytest here)
        ("git $sub", "git $sub"),  # a subcommand only known at run time never counts as listed
        ("python -c 'print(1)'", "python -c 'print(1)'"),
    ],
)
def test_every_simple_command_must_be_listed(without_pytest: Policy, command: str, word: str) -> None:
    refused(without_pytest.check(command, "posix"), word)


def test_a_wrapper_and_what_it_runs_are_both_needed(policy: Policy) -> None:
    assert policy.check("nice pytest", "posix").allowed
    refused(policy.check("nice make", "posix"), "make")
    refused(policy.check("timeout 5 pytest", "posix"), "timeout 5 pytest")
    both = policy.check("find . -name '*.o' -exec cat {} +", "posix")
    refused(both, "find . -name '*.o' -exec cat {} +")
    refused(both, "cat {}")  # every unlisted command is named at once
    assert both.reason.index("`find") < both.reason.index("`cat {}` (inside `find -exec`)")


def test_deny_rules_still_apply_on_top(policy: Policy) -> None:
    # Listed programs, dangerous calls: the deny rule explains the block, not the allowlist.
    push = policy.check("git push origin main", "posix")
    assert not push.allowed and push.category == "network", push
    nice = policy.check("nice rm -rf /", "posix")
    assert not nice.allowed and nice.rule_id == "destructive.recursive-delete", nice
    server = policy.check("python -m pytest && python -m http.server", "posix")
    assert not server.allowed
    # A deny found after an unlisted command still names the real danger.
    mixed = policy.check("cat x; rm -rf ~", "posix")
    assert mixed.rule_id == "destructive.recursive-delete", mixed


def test_entry_conditions_use_the_deny_rule_matcher(policy: Policy) -> None:
    refused(policy.check("rm -f build/x.o", "posix"), "rm -f build/x.o")
    refused(policy.check("rm -vf build/x.o", "posix"), "rm -vf build/x.o")  # -f inside a cluster
    refused(policy.check("rm --forc build/x.o", "posix"), "rm --forc build/x.o")  # a long-option prefix
    assert policy.check("rm -v build/x.o", "posix").allowed


def test_an_entrys_refusing_words_refuse_in_any_case(policy: Policy) -> None:
    # A deny rule's sparing word spares a POSIX command only as written; an allow entry's `args_none` is the
    # other way round, so it must refuse every spelling (failing closed)
    refused(policy.check("sort -O names.txt names.txt", "posix"), "sort -O names.txt names.txt")
    assert policy.check("sort -r names.txt", "posix").allowed


def test_powershell_aliases_resolve_to_the_listed_cmdlet(policy: Policy) -> None:
    for command in ("Get-ChildItem -Recurse", "gci", "dir src", "ls"):
        assert policy.check(command, "powershell").allowed, command
    refused(policy.check("Get-Content x.txt", "powershell"), "Get-Content x.txt")


def test_the_reason_tells_the_planner_what_is_allowed(policy: Policy) -> None:
    decision = policy.check("cat x", "posix")
    message = decision.planner_message()
    assert "allowlist.not-allowed" in message and "`cat x` is not on your allowlist" in message
    assert decision.justification is not None
    for listed in ("git status|diff|log|push", "pytest", "python|python3 -m pytest", "nice"):
        assert listed in decision.justification, decision.justification


def test_allowlist_without_entries_runs_nothing_but_no_ops(tmp_path: Path) -> None:
    policy = Policy.load([write(tmp_path, '[policy]\nmode = "allowlist"\n')])
    refused(policy.check("ls", "posix"), "ls")
    assert policy.check("true", "posix").allowed
    assert policy.check("", "posix").allowed  # nothing runs


def test_dynamic_program_names_stay_blocked(policy: Policy) -> None:
    decision = policy.check("$tool status", "posix")
    assert not decision.allowed and decision.category == "unverifiable"


@pytest.mark.parametrize("command", [".pytest -q tests", "./.sort names.txt", ".ls -la", "PS> .gci -Recurse"])
def test_a_hidden_copy_of_a_listed_program_is_not_allowed(policy: Policy, command: str) -> None:
    # The deny rules read `.rclone` as rclone (stricter); an entry for a program allows no copy of it.
    shell = "powershell" if command.startswith("PS> ") else "posix"
    decision = policy.check(command.removeprefix("PS> "), shell)
    assert not decision.allowed and decision.rule_id == "allowlist.not-allowed", decision


# -- examples proven at load --
def test_an_entry_missing_its_own_example_fails_the_load_with_a_clear_message(tmp_path: Path) -> None:
    text = ALLOWLIST.replace('match = ["pytest -q tests"]', 'match = ["pytest -q tests", "py.test -q"]')
    with pytest.raises(PolicyError) as failed:
        Policy.load([write(tmp_path, text)])
    message = str(failed.value)
    assert "allow entry pytest" in message and "'py.test -q'" in message and "misses it" in message


def test_an_entry_allowing_its_not_match_example_fails_the_load(tmp_path: Path) -> None:
    text = ALLOWLIST.replace('not_match = ["rm -f build/x.o"]', 'not_match = ["rm build/y.o"]')
    with pytest.raises(
        PolicyError, match=r"allow entry rm-files .* allows 'rm build/y.o' on posix, listed under"
    ):
        Policy.load([write(tmp_path, text)])


def test_a_match_example_must_be_one_command_the_entry_allows(tmp_path: Path) -> None:
    text = ALLOWLIST.replace('match = ["nice pytest"]', 'match = ["nice pytest | cat"]')
    with pytest.raises(PolicyError, match=r"allow entry nice .*`cat` misses it"):
        Policy.load([write(tmp_path, text)])


def test_powershell_examples_run_on_powershell(tmp_path: Path) -> None:
    text = ALLOWLIST.replace('match = ["PS> gci -Recurse", "ls -la"]', 'match = ["gci -Recurse"]')
    with pytest.raises(PolicyError, match=r"allow entry listing .*'gci -Recurse' on posix"):
        Policy.load([write(tmp_path, text)])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[allow]]\nid = "x"\ncommands = ["ls"]\nmatch = ["ls"]\n', "may only add"),
        ('[policy]\nmode = "allow-all"\n', "mode"),
        ('[policy]\nmode = "allowlist"\n[[allow]]\nid = "x"\ncommands = ["ls"]\n', "match"),
        ('[policy]\nmode = "allowlist"\n[[allow]]\nid = "Bad Id"\ncommands = ["ls"]\nmatch = ["ls"]\n', "id"),
        (
            '[policy]\nmode = "allowlist"\n[[allow]]\nid = "x"\ncommands = ["ls"]\nmatch = ["ls"]\nhosts = 1',
            "hosts",
        ),
        ("version = 1\n", "at least one"),
    ],
)
def test_invalid_allowlist_files_are_refused(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        Policy.load([write(tmp_path, text)])


def test_allow_entry_ids_are_unique_across_files(tmp_path: Path) -> None:
    first = write(tmp_path, ALLOWLIST, "a.toml")
    second = write(tmp_path, ALLOWLIST.replace("[[rule]]", ""), "b.toml")
    with pytest.raises(PolicyError, match="allow entry git-read is already defined"):
        Policy.load([first, second])


def test_deny_rules_and_allow_entries_in_one_file(tmp_path: Path) -> None:
    text = ALLOWLIST + textwrap.dedent(
        """
        [[rule]]
        id = "custom.no-git-log"
        category = "destructive"
        description = "reads history"
        justification = "History is off limits in this repository; use git status."
        match = ["git log"]
        when = [{ on = "command", commands = ["git"], subcommands = ["log"] }]
        """
    )
    policy = Policy.load([write(tmp_path, text)])
    assert policy.check("git log", "posix").rule_id == "custom.no-git-log"
    assert policy.check("git status", "posix").allowed


# -- where it can be set: the user's files add up, a project's files only narrow --
ONLY_GIT = """
[policy]
mode = "allowlist"

[[allow]]
id = "git-any"
commands = ["git"]
match = ["git status"]
"""

GIT_AND_LS = """
[policy]
mode = "allowlist"

[[allow]]
id = "project-git"
commands = ["git"]
match = ["git status"]

[[allow]]
id = "project-ls"
commands = ["ls"]
match = ["ls"]
"""


def test_the_users_files_add_up(tmp_path: Path) -> None:
    policy = Policy.load([write(tmp_path, ONLY_GIT, "a.toml"), write(tmp_path, GIT_AND_LS, "b.toml")])
    assert policy.check("git status && ls", "posix").allowed


def test_a_project_allowlist_cannot_widen_the_users(tmp_path: Path) -> None:
    mine = write(tmp_path, ONLY_GIT, "mine.toml")
    theirs = write(tmp_path / "project" / ".hazina", GIT_AND_LS, "policy.toml")
    policy = Policy.load([mine], project_files=[theirs])
    assert policy.check("git status", "posix").allowed
    refused(policy.check("ls", "posix"), "ls")  # listed by the project only


def test_a_project_allowlist_narrows(tmp_path: Path) -> None:
    theirs = write(tmp_path, ONLY_GIT, "policy.toml")
    policy = Policy.load(project_files=[theirs])
    assert policy.mode == "allowlist"
    assert policy.check("git status", "posix").allowed
    decision = policy.check("ls", "posix")
    assert not decision.allowed and "is not on the project's allowlist" in decision.reason
    # and it narrows the user's allowlist too
    mine = write(tmp_path, GIT_AND_LS, "mine.toml")
    both = Policy.load([mine], project_files=[theirs])
    assert not both.check("ls", "posix").allowed
    assert both.check("git status", "posix").allowed


def test_a_project_file_in_deny_mode_changes_nothing_but_its_rules(tmp_path: Path) -> None:
    mine = write(tmp_path, ONLY_GIT, "mine.toml")
    theirs = write(tmp_path, '[policy]\nmode = "deny"\n[[rule]]\n' + _RULE, "policy.toml")
    policy = Policy.load([mine], project_files=[theirs])
    refused(policy.check("ls", "posix"), "ls")
    assert policy.check("git gc", "posix").rule_id == "custom.no-gc"


_RULE = """id = "custom.no-gc"
category = "destructive"
description = "prunes objects"
justification = "Garbage collection can drop unreachable work; leave it to the user."
match = ["git gc"]
when = [{ on = "command", commands = ["git"], subcommands = ["gc"] }]
"""


def test_what_each_program_may_match_is_remembered_within_a_bound(tmp_path: Path) -> None:
    # The entries worth trying are worked out once per program name; names come from untrusted text.
    policy = Policy.load([write(tmp_path, ALLOWLIST)])
    layer = policy._allowlist.layers[0]  # type: ignore[union-attr]
    refused(policy.check("tool0 --version", "posix"), "tool0 --version")
    assert ("tool0",) in layer.candidates
    for n in range(1, 5_000):
        layer.entry_for(CommandView((f"tool{n}",), [], "posix"))

    assert len(layer.candidates) <= 4096
    assert policy.check("pytest -q tests", "posix").allowed
    assert policy.check("git status", "posix").allowed
    refused(policy.check("tool4999 --version", "posix"), "tool4999 --version")
