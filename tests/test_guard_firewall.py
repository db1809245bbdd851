"""Firewall and packet-filter changes block on both backends; reading the rules stays allowed."""

from __future__ import annotations

import pytest

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

ALLOWED = [
    ("posix", "iptables -L -n"),
    ("posix", "iptables -S"),
    ("posix", "nft list ruleset"),
    ("posix", "ufw status verbose"),
    ("posix", "firewall-cmd --list-all"),
    ("powershell", "Get-NetFirewallRule -Enabled True"),
    ("powershell", "netsh advfirewall show allprofiles"),
    ("powershell", "Set-NetFirewallProfile -Enabled False -WhatIf"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_firewall_changes_block(shell: str, command: str) -> None:
    decision = Policy.default().check(command, shell)  # type: ignore[arg-type]
    assert decision.rule_id == "destructive.firewall", decision.reason


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_reading_firewall_rules_stays_allowed(shell: str, command: str) -> None:
    decision = Policy.default().check(command, shell)  # type: ignore[arg-type]
    assert decision.allowed, decision.reason
