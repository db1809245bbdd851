"""Firewall and packet-filter changes block on both backends. Reading the rules tells which ports are open to
whom: it is machine discovery (tests/test_guard_machine_discovery.py), not a firewall change."""

from __future__ import annotations

import pytest
from conftest import assert_decided_as

from glmagent.guard import Policy

BLOCKED = [
    ("posix", "iptables -F"),
    ("posix", "sudo iptables -A INPUT -p tcp --dport 22 -j ACCEPT"),
    ("posix", "ip6tables -P INPUT ACCEPT"),
    ("posix", "iptables-restore < rules.v4"),
    ("posix", "nft flush ruleset"),
    ("posix", "ufw allow 22"),
    ("posix", "ufw disable"),
    ("posix", "firewall-cmd --permanent --add-service=http"),
    ("posix", "pfctl -d"),
    ("powershell", "netsh advfirewall set allprofiles state off"),
    ("powershell", "netsh firewall set opmode disable"),
    ("powershell", "New-NetFirewallRule -DisplayName x -Direction Inbound -Action Allow"),
    ("powershell", "Set-NetFirewallProfile -Profile Domain,Public -Enabled False"),
    ("powershell", "cmd /c netsh advfirewall reset"),
]

READS = [
    ("posix", "iptables -L -n"),
    ("posix", "iptables -S"),
    ("posix", "nft list ruleset"),
    ("posix", "ufw status verbose"),
    ("posix", "firewall-cmd --list-all"),
    ("powershell", "Get-NetFirewallRule -Enabled True"),
    ("powershell", "netsh advfirewall show allprofiles"),
]

ALLOWED = [
    ("posix", "iptables --version"),
    ("posix", "ufw --help"),
    ("powershell", "netsh advfirewall /?"),
    ("powershell", "Set-NetFirewallProfile -Enabled False -WhatIf"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_firewall_changes_block(shell: str, command: str) -> None:
    decision = Policy.default().check(command, shell)  # type: ignore[arg-type]
    assert_decided_as(shell, command, decision, "destructive.firewall")


@pytest.mark.parametrize(("shell", "command"), READS)
def test_reading_firewall_rules_is_machine_discovery(shell: str, command: str) -> None:
    decision = Policy.default().check(command, shell)  # type: ignore[arg-type]
    assert decision.rule_id == "env.machine-discovery", decision.reason


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_help_and_dry_runs_stay_allowed(shell: str, command: str) -> None:
    decision = Policy.default().check(command, shell)  # type: ignore[arg-type]
    assert decision.allowed, decision.reason
