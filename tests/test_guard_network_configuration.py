"""Changing the machine's network configuration is blocked; reading it is machine discovery or fine.

Addresses, routes, links, traffic shaping, DNS servers, wireless connections and the file systems a machine
exports (`exportfs`) belong to the machine: changing them can cut it off, reroute its traffic or open its
disks. Listing them keeps the behaviour documented for machine discovery (`ip addr`, `ipconfig` are fine).
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

RULE = "destructive.network-configuration"

BLOCKED = [
    ("posix", "exportfs -a"),
    ("posix", "exportfs -ra"),
    ("posix", "exportfs -o rw,no_root_squash 10.0.0.0/24:/srv/nfs"),
    ("posix", "exportfs -u '*:/srv/nfs'"),
    ("posix", "exportfs '*:/home'"),
    ("posix", "ip addr add 10.0.0.5/24 dev eth0"),
    ("posix", "ip a del 10.0.0.5/24 dev eth0"),
    ("posix", "ip -6 route add default via fe80::1 dev eth0"),
    ("posix", "ip -n ns1 route replace default via 10.0.0.1"),
    ("posix", "ip link set eth0 down"),
    ("posix", "ip link set dev eth0 mtu 9000"),
    ("posix", "ip link add br0 type bridge"),
    ("posix", "ip netns add test"),
    ("posix", "ip neigh flush all"),
    ("posix", "ip -batch changes.txt"),
    ("posix", "ifconfig eth0 down"),
    ("posix", "ifconfig eth0 hw ether 00:11:22:33:44:55"),
    ("posix", "tc qdisc add dev eth0 root netem delay 100ms"),
    ("posix", "./wondershaper -a wlp4s0 -u 4096 -d 8192"),
    ("posix", "wondershaper -c -a eth0"),
    ("posix", "ethtool -s eth0 speed 100 duplex full autoneg off"),
    ("posix", "ethtool -K eth0 tso off"),
    ("posix", "conntrack -F"),  # the tracked connections of the whole machine
    ("posix", "conntrack --delete -p udp --orig-port-dst 53"),
    ("posix", "brctl addbr br0"),
    ("posix", "dhclient -r eth0"),
    ("posix", "ifdown eth0"),
    ("posix", "netplan apply"),
    ("posix", "wg-quick up wg0"),
    ("posix", "iw dev wlan0 connect homenet"),
    ("posix", "nmcli connection up id work"),
    ("posix", "nmcli radio wifi off"),
    ("posix", "nmcli device wifi connect homenet password secret"),
    ("posix", "route add default gw 10.0.0.1"),
    ("posix", "route del -net 10.0.0.0/8"),
    ("posix", "resolvectl dns eth0 1.1.1.1"),
    ("posix", "resolvectl flush-caches"),
    ("powershell", "ipconfig /release"),
    ("powershell", "ipconfig /renew Ethernet"),
    ("powershell", "ipconfig /flushdns"),
    ("powershell", "Set-NetIPInterface -InterfaceAlias Ethernet -Dhcp Enabled"),
    ("powershell", "Set-NetTCPSetting -SettingName Internet -AutoTuningLevelLocal Normal"),
    ("powershell", "Set-DnsClientCache -MaxTtl 86400 -MaxNegativeTtl 5"),
    ("powershell", "proxycfg.exe -d"),
    ("posix", "scselect Ethernet"),
    ("powershell", "Clear-DnsClientCache"),
    ("powershell", "New-SmbShare -Name src -Path C:\\src -FullAccess Everyone"),
    ("powershell", "route -p add 10.0.0.0 mask 255.0.0.0 10.0.0.1"),
    ("powershell", "route delete 10.0.0.0"),
    ("powershell", "Set-NetQosPolicy -Name x -ThrottleRateActionBitsPerSecond 1MB"),
    ("powershell", "Enable-NetAdapterQos -Name eth"),
    ("powershell", "Add-VpnConnectionRoute -ConnectionName x -DestinationPrefix 10.0.0.0/8"),
    ("powershell", "Set-DnsClientNrptRule -Namespace .corp"),
    ("powershell", "Remove-NetIPsecRule -DisplayName x"),
]

ALLOWED = [
    ("posix", "wondershaper -s -a eth0"),
    ("powershell", "Get-NetTCPSetting -SettingName Internet"),
    ("posix", "scselect"),  # lists the locations
    ("posix", "exportfs"),
    ("posix", "exportfs -v"),
    ("posix", "ip addr"),
    ("posix", "ip -br addr show"),
    ("posix", "ip -j link show dev eth0"),
    ("posix", "ifconfig"),
    ("posix", "ifconfig eth0"),
    ("posix", "tc qdisc show dev eth0"),
    ("posix", "ethtool eth0"),
    ("posix", "ethtool -i eth0"),
    ("posix", "conntrack -L -p tcp"),
    ("posix", "conntrack -C"),
    ("posix", "echo 'ip addr add 10.0.0.5/24 dev eth0' >> docs/network.md"),
    ("posix", "grep -rn exportfs docs/"),
    ("powershell", "ipconfig"),
    ("powershell", "Get-NetIPInterface"),
    ("powershell", "Get-NetQosPolicy"),
    ("powershell", "Get-NetAdapter | Format-Table"),
    ("powershell", "Set-NetQosPolicy -WhatIf -Name x"),
    ("powershell", "Build-NetCore x86"),  # a project's own function, no networking cmdlet
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_changing_the_network_configuration_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, RULE)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_reading_it_and_mentioning_it_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
