"""Policy files: the built-in rules prove themselves, users may add denies but never weaken them."""

from __future__ import annotations

import textwrap
import tomllib
from pathlib import Path

import pytest

from glmagent._resources import data_dir
from glmagent.errors import PolicyError
from glmagent.guard import Policy

MIGRATE_RULE = """
version = 1

[[rule]]
id = "custom.db-migrate"
category = "destructive"
description = "changes the shared database's schema"
justification = "Schema changes need a human: write the migration (`alembic revision`) and say how to run it."
match = ["alembic upgrade head", "sudo alembic downgrade base"]
not_match = ["alembic history", "echo alembic upgrade head"]

[[rule.when]]
on = "command"
commands = ["alembic"]
subcommands = ["upgrade", "downgrade"]
"""


def write(tmp_path: Path, text: str, name: str = "policy.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_builtin_rules_all_carry_examples_and_justifications() -> None:
    policy = Policy.default()
    ids = [r.id for r in policy.rules]
    assert len(ids) == len(set(ids))
    for rule in policy.rules:
        assert rule.match, rule.id
        assert len(rule.justification) > 30, rule.id
        assert rule.category in {"destructive", "network", "env", "containment", "unverifiable"}


def test_builtin_policy_file_is_where_resources_say() -> None:
    raw = tomllib.loads((data_dir("policy") / "default.toml").read_text(encoding="utf-8"))
    assert raw["version"] == 1 and raw["rule"]


def test_user_file_adds_a_deny_rule(tmp_path: Path) -> None:
    policy = Policy.load([write(tmp_path, MIGRATE_RULE)])
    decision = policy.check("env PYTHONPATH=. alembic upgrade head", "posix")
    assert decision.rule_id == "custom.db-migrate"
    assert decision.justification and "alembic revision" in decision.justification
    assert policy.check("alembic history", "posix").allowed
    # the built-in rules are all still there
    assert policy.check("rm -rf /", "posix").rule_id == "destructive.recursive-delete"
    assert len(policy.rules) == len(Policy.default().rules) + 1


def test_user_file_cannot_replace_a_builtin_rule(tmp_path: Path) -> None:
    text = MIGRATE_RULE.replace("custom.db-migrate", "destructive.recursive-delete")
    with pytest.raises(PolicyError, match=r"destructive\.recursive-delete is already defined"):
        Policy.load([write(tmp_path, text)])


@pytest.mark.parametrize(
    "extra",
    [
        "[allow]\ncommands = ['rm']\n",
        "[override]\nrule = 'destructive.recursive-delete'\n",
        "max_depth = 1\n",
        "[wrappers.rm]\nnames = ['rm']\n",
        "[powershell_aliases]\nrm = 'get-date'\n",
    ],
)
def test_user_file_cannot_touch_anything_but_rules(tmp_path: Path, extra: str) -> None:
    with pytest.raises(PolicyError, match="may only add"):
        Policy.load([write(tmp_path, extra + MIGRATE_RULE)])


def test_user_rule_with_unknown_keys_is_refused(tmp_path: Path) -> None:
    text = MIGRATE_RULE.replace('category = "destructive"', 'category = "destructive"\nenabled = false')
    with pytest.raises(PolicyError, match="enabled"):
        Policy.load([write(tmp_path, text)])


def test_user_rule_cannot_redefine_engine_events(tmp_path: Path) -> None:
    text = """
    [[rule]]
    id = "custom.no-parse-errors"
    category = "unverifiable"
    description = "claims the parse error event"
    justification = "trying to take over the parse error rule"
    match = ["echo 'open"]
    when = [{ on = "engine", event = "parse-error" }]
    """
    with pytest.raises(PolicyError, match="engine"):
        Policy.load([write(tmp_path, text)])


def test_rule_that_misses_its_own_example_fails_loudly(tmp_path: Path) -> None:
    text = MIGRATE_RULE.replace('"sudo alembic downgrade base"', '"alembic init migrations"')
    with pytest.raises(PolicyError, match=r"custom\.db-migrate.*'alembic init migrations'"):
        Policy.load([write(tmp_path, text)])


def test_rule_that_matches_its_not_match_example_fails_loudly(tmp_path: Path) -> None:
    text = MIGRATE_RULE.replace('"alembic history"', '"alembic upgrade head"')
    with pytest.raises(PolicyError, match=r"custom\.db-migrate matches 'alembic upgrade head'"):
        Policy.load([write(tmp_path, text)])


def test_invalid_toml_and_missing_files_are_policy_errors(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="cannot be read"):
        Policy.load([write(tmp_path, "[[rule]\n")])
    with pytest.raises(PolicyError, match="does not exist"):
        Policy.load([tmp_path / "absent.toml"])


def test_bad_regular_expression_is_reported(tmp_path: Path) -> None:
    text = """
    [[rule]]
    id = "custom.bad-regex"
    category = "network"
    description = "has a broken pattern"
    justification = "a payload rule whose pattern does not compile"
    match = ["python -c 'x'"]
    when = [{ on = "payload", languages = ["python"], patterns = ["(unclosed"] }]
    """
    with pytest.raises((PolicyError, ValueError), match=r"custom\.bad-regex"):
        Policy.load([write(tmp_path, text)])


def test_a_first_operand_rule_reads_the_operand_after_its_subcommand(tmp_path: Path) -> None:
    text = """
    [[rule]]
    id = "custom.shared-stage"
    category = "network"
    description = "ships to the shared staging site"
    justification = "Staging is shared: say what to ship and let the user run it."
    match = ["shiptool push staging --dry-run"]
    not_match = ["shiptool push local staging"]

    [[rule.when]]
    on = "command"
    commands = ["shiptool"]
    subcommands = ["push", "pull"]
    first_operand_only = true
    operands_any = ["staging"]
    """
    policy = Policy.load([write(tmp_path, text)])
    assert policy.check("shiptool pull staging", "posix").rule_id == "custom.shared-stage"
    assert policy.check("shiptool pull local --label staging", "posix").allowed
    uneven = text.replace('subcommands = ["push", "pull"]', 'subcommands = ["push", "stage pull"]')
    with pytest.raises(PolicyError, match="first_operand_only"):
        Policy.load([write(tmp_path, uneven, "uneven.toml")])


def test_two_user_files_may_not_reuse_an_id(tmp_path: Path) -> None:
    first = write(tmp_path, MIGRATE_RULE, "a.toml")
    second = write(tmp_path, MIGRATE_RULE, "b.toml")
    with pytest.raises(PolicyError, match="already defined"):
        Policy.load([first, second])


def test_examples_with_a_powershell_prompt_run_on_powershell(tmp_path: Path) -> None:
    text = """
    [[rule]]
    id = "custom.stop-job"
    category = "destructive"
    description = "stops a background job"
    justification = "Jobs belong to the user's session; ask the user instead."
    match = ["PS> Stop-Job -Name build", "PS> spjb build"]
    not_match = ["PS> Get-Job", "Get-Job"]
    when = [{ on = "command", commands = ["stop-job"], shells = ["powershell"] }]
    """
    policy = Policy.load([write(tmp_path, text)])
    rule = policy.rules[-1]
    assert rule.shells == ["powershell"]
    assert ("Stop-Job -Name build", "powershell", True) in rule.examples()
    assert policy.check("spjb build", "powershell").rule_id == "custom.stop-job"
    assert policy.check("stop-job build", "posix").allowed  # no cmdlet's spelling: a POSIX program
    # A cmdlet as PowerShell spells it, in a POSIX line, is a PowerShell line in the wrong box.
    assert policy.check("Stop-Job build", "posix").rule_id == "custom.stop-job"
