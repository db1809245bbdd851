"""Services driven through their init script's path: `/etc/init.d/ssh stop` is `service ssh stop` by another
name, so the service rules judge it, however the script is reached (`sudo`, `env`, `sh -c`, `bash SCRIPT`,
`//etc/./init.d`, upper case); the OpenRC and Debian runners (`rc-service`, `invoke-rc.d`) likewise.
Reading a service's state (`NAME status` and nothing more) stays allowed, like `systemctl status`; a script
of the project's own that lives in an `init.d` folder is the project's (`./scripts/init.d/dev-db start`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import guard_allows, guard_blocks

from glmagent.guard import Policy

BLOCKED = [
    "/etc/init.d/vpxa stop",
    "/etc/rc.d/init.d/x restart",
    "sudo /etc/init.d/ssh start",
    "sudo -u root /etc/init.d/cron force-reload",
    "env /etc/init.d/x stop",
    "sh -c '/etc/init.d/x restart'",
    "bash /etc/init.d/x stop",
    "sh -x /etc/init.d/x restart",
    '"/etc/init.d/x" stop',
    "//etc/init.d/./x stop",
    "/ETC/INIT.D/x stop",
    "/etc/init.d/x",
    "/etc/init.d/x status stop",
    "/etc/init.d/x $action",
    "/usr/local/etc/rc.d/nginx reload",
    "/etc/rc.d/sshd onestop",
    "/etc/rc2.d/S01ssh stop",
    "service x stop",
    "service x stop status",
    "service x --full-restart",
    'service x "$a"',
    "invoke-rc.d x stop",
    "invoke-rc.d x status stop",
    "rc-service x stop",
    "rc-service x status stop",
    "update-rc.d x disable",
]

ALLOWED = [
    "/etc/init.d/x status",
    "sh /etc/init.d/x status",
    "service x status",
    'service "$svc" status',
    "service --status-all",
    "invoke-rc.d x status",
    "rc-service x status",
    "./scripts/init.d/dev-db start",
    "scripts/init.d/dev-db stop",
    "ls /etc/init.d",
    "cat /etc/init.d/ssh",
    "/etc/init.d/../../bin/ls -l",
    ". /etc/init.d/functions",
]


@pytest.mark.parametrize("command", BLOCKED)
def test_driving_a_service_through_its_init_script_is_blocked(command: str) -> None:
    guard_blocks("posix", command, "destructive.machine-state")


@pytest.mark.parametrize("command", ALLOWED)
def test_reading_a_services_state_and_project_scripts_stay_allowed(command: str) -> None:
    guard_allows("posix", command)


SPARING_RULE = """
version = 1

[[rule]]
id = "custom.queue-workers"
category = "destructive"
description = "drives the queue's workers"
justification = "Workers serve other users; only reading their state is this task's business."
match = ["workerctl mail restart", "workerctl mail status stop", "workerctl mail"]
not_match = ["workerctl mail status", "workerctl --help"]

[[rule.when]]
on = "command"
commands = ["workerctl"]
args_none = ["--help"]
subcommands_none = ["* status"]
"""


def test_a_user_rule_can_spare_exact_operands_with_any_word(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(SPARING_RULE, encoding="utf-8")
    policy = Policy.load([path])  # the examples are proven at load
    assert policy.check("nice workerctl mail status purge", "posix").rule_id == "custom.queue-workers"
    assert policy.check('workerctl "$q" status', "posix").allowed
    assert not policy.check('workerctl mail "$action"', "posix").allowed
