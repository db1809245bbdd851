"""The SSH folder is private as a whole: besides keys it lists the machines the user reaches (`known_hosts`,
`config`) and who may log in here (`authorized_keys`), so any read of `~/.ssh/*` is blocked in any spelling
(`$HOME/.ssh`, `/home/u/.ssh`, `/root/.ssh`, `%USERPROFILE%\\.ssh`). Key pairs made in the project and files
that only mention SSH stay readable."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "cat ~/.ssh/known_hosts"),
    ("posix", "cat ~/.ssh/known_hosts.old"),
    ("posix", "cat ~/.ssh/config"),
    ("posix", "cat ~/.ssh/authorized_keys"),
    ("posix", "cat ~/.ssh/id_rsa.pub"),
    ("posix", "ssh-keygen -lf ~/.ssh/id_ed25519.pub"),
    ("posix", "cat $HOME/.ssh/known_hosts"),
    ("posix", 'cat "${HOME}/.ssh/config"'),
    ("posix", "cat /home/u/.ssh/known_hosts"),
    ("posix", "cat /root/.ssh/authorized_keys"),
    ("posix", "sudo cat /root/.ssh/authorized_keys"),
    ("posix", "grep github ~/.ssh/known_hosts"),
    ("posix", "ssh-keygen -F github.com -f ~/.ssh/known_hosts"),
    ("posix", "awk '{print $1}' ~/.ssh/known_hosts"),
    ("posix", "sh -c 'cat ~/.ssh/config'"),
    ("posix", "cat ~//.ssh/./known_hosts"),
    ("powershell", "Get-Content $env:USERPROFILE\\.ssh\\known_hosts"),
    ("powershell", "type C:\\Users\\bob\\.ssh\\config"),
]

ALLOWED = [
    ("posix", "ssh-keygen -t ed25519 -f ./deploy_key -N ''"),
    ("posix", "cat deploy_key.pub"),
    ("posix", "ssh-keygen -lf ./deploy_key.pub"),
    ("posix", "cat docs/ssh/known_hosts.md"),
    ("posix", "grep -rn 'known_hosts' docs/"),
    ("posix", "echo 'add the host to ~/.ssh/known_hosts'"),
    ("posix", "cat ~/.sshrc"),
    ("powershell", "Get-Content .\\deploy_key.pub"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_reading_anything_in_the_ssh_folder_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.secret-files")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_project_key_pairs_and_mentions_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
