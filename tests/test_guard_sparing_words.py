"""A word that spares a deny clause (`args_none`) spares it only where the program reads it that way.

A plain word (`status`, `version`, `list`) names a subcommand: it spares the clause as the subcommand, not as
a value elsewhere in the line, where it is a rule's comment, a tag, a file, an app or a database name
(`ufw allow 22 comment status`, `restic forget --tag version`, `croc send version`). A word written as a glob
(`[s]how`) is read wherever it stands, for programs whose reading words sit deeper (`netsh advfirewall
firewall show rule`, `eselect python list`). For programs that act on every option they are given
(`args_none_alone`), a reading switch spares the line only when no other option stands beside it
(`spctl --master-disable -a` still turns Gatekeeper off).
"""

from __future__ import annotations

import pytest
from conftest import every_case, guard_allows, guard_blocks

from glmagent.guard._models import CommandClause, Rule
from glmagent.guard._rules import CommandView, CompiledCommand
from glmagent.guard._syntax import Arg

BLOCKED = [
    ("posix", "ufw allow 22 comment status", "destructive.firewall"),
    ("posix", "nft add chain inet filter list", "destructive.firewall"),
    ("posix", "restic -r /srv/repo forget --keep-last 1 --prune --tag version", "destructive.machine-state"),
    ("posix", "mysqladmin -f drop app status", "destructive.data-store"),
    ("posix", "dropdb status", "destructive.data-store"),  # the database's name, whatever it is
    ("posix", "ovs-vsctl del-br br0 -- show", "destructive.network-configuration"),
    ("posix", "shorewall clear test", "destructive.firewall"),
    ("posix", "croc send version", "network.publish"),
    ("posix", "kubectl version", "network.remote-service"),  # the cluster's version is asked too
    ("posix", "ansible all -m ping --version", "network.remote-service"),  # other options beside it
    ("posix", "rclone copy . remote:x --help --dry-run", "network.remote-service"),
    ("posix", "fly deploy --app help", "network.publish"),
    ("posix", "kamal deploy -d config", "network.publish"),
    ("posix", "lxc delete version --force", "network.remote-service"),
    ("posix", "git config --global user.name list", "containment.write-outside-project"),
    ("posix", "claude -p version", "unverifiable.coding-agent"),  # a prompt, not a subcommand
    # programs that act on every option: a reading switch beside an acting one spares nothing
    ("posix", "spctl --master-disable -a", "destructive.machine-state"),
    ("posix", "softwareupdate -l -i -a", "destructive.machine-state"),
    ("posix", "update-java-alternatives -s java-1.17.0-openjdk-amd64 -l", "destructive.machine-state"),
    ("posix", "csf -d 203.0.113.9 -l", "destructive.firewall"),
    ("posix", "pacman-key --delete 0xABCD -f", "destructive.machine-state"),
    ("powershell", "w32tm /resync /query", "destructive.machine-state"),
    ("powershell", "defrag C: /a /d", "destructive.machine-state"),
    ("posix", "kpartx -a -l disk.img", "destructive.machine-state"),
    ("posix", "veracrypt --mount vault.vc /mnt/v -l", "destructive.machine-state"),
    ("posix", "duti -s com.example.app .html all -l", "destructive.machine-state"),
    ("posix", "xset q s off", "destructive.machine-state"),  # every setting after the query is made
    ("powershell", "iisreset /stop /status", "destructive.machine-state"),
]

ALLOWED = [
    ("posix", "ufw app list"),
    ("posix", "ufw --dry-run allow 22"),
    ("posix", "restic version"),
    ("posix", "mysqladmin status"),
    ("posix", "ovs-vsctl show"),
    ("posix", "croc version"),
    ("posix", "kubectl version --client"),
    ("posix", "gcloud --version"),
    ("posix", "aws --version"),
    ("posix", "ansible --version"),
    ("posix", "vault version"),
    ("posix", "gcloud help compute"),
    ("posix", "fly help"),
    ("posix", "kamal init"),
    ("posix", "git config list"),
    ("posix", "claude --version"),
    ("posix", "ansible-galaxy collection build --force --verbose ."),
    ("posix", "ansible-galaxy role init my_role"),
    ("posix", "eselect python list"),
    ("powershell", "New-Item -ItemType Directory -Force -Path build"),
    ("posix", "spctl -a -t exec -vv build/App.app"),
    ("posix", "softwareupdate --history"),
    ("posix", "update-java-alternatives -l"),
    ("posix", "csf -l"),
    ("powershell", "w32tm /query /status"),
    ("powershell", "defrag C: /a /v"),
    ("posix", "kpartx -l disk.img"),
    ("posix", "xset q"),
    ("powershell", "iisreset /status"),
]


def test_a_plain_sparing_word_spares_a_clause_only_as_its_subcommand() -> None:
    every_case(BLOCKED, guard_blocks)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_reading_subcommands_still_spare_their_programs(shell: str, command: str) -> None:
    guard_allows(shell, command)


def _clause(*, deny: bool = True, **fields: object) -> CompiledCommand:
    rule = Rule(
        id="a.b", category="destructive", description="is x", justification="because", when=[], match=[]
    )
    return CompiledCommand.build(rule, CommandClause(on="command", commands=["tool"], **fields), deny=deny)


def _verdict(clause: CompiledCommand, line: str) -> int:
    words = line.split()
    return clause.check(CommandView(("tool",), [Arg(w, w) for w in words], "posix"))[0]


def test_where_a_sparing_word_is_read_depends_on_how_it_is_written() -> None:
    plain = _clause(args_none=["status"])
    assert not _verdict(plain, "tool status"), "the subcommand spares"
    assert _verdict(plain, "tool set --comment status"), "a value elsewhere does not"
    sub = _clause(subcommands=["rule"], args_none=["status"])
    assert not _verdict(sub, "tool rule status"), "right after the clause's own subcommand words"
    assert _verdict(sub, "tool rule add status")
    globbed = _clause(args_none=["[s]tatus"])
    assert not _verdict(globbed, "tool set --comment status"), "a glob is read anywhere"
    entry = _clause(deny=False, args_none=["status"])
    assert not _verdict(entry, "tool set --comment status"), "an allow entry refuses on it wherever it stands"
