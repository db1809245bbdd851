"""Printers, wireless links, agents, another machine's daemon and macOS's desktop are not the project.

Print queues and jobs may be other users', and the printing defaults and the print server's certificates are
the machine's; a wireless link joined, dropped or switched off cuts the machine off; killing the user's gpg
agent and switching docker's current context change what every later command meets; a docker context other
than the local one may be another machine's daemon. Reading each stays allowed, and so do packet-capture
tools that only read a saved capture or print what they know (Wireshark's own CI runs `tshark -G fields`).
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

MACHINE_STATE = [
    ("posix", "cancel -a office-laser"),
    ("posix", "lprm -P office 17"),
    ("posix", "lpmove office-3 upstairs"),
    ("posix", "lpoptions -p office -o sides=two-sided-long-edge"),
    ("posix", "lpoptions -d upstairs"),
    ("posix", "cups-x509 install print.example.org print.crt"),
    ("posix", "wall 'rebooting in 5 minutes'"),
    ("posix", "gpgconf --kill all"),
    ("posix", "gpgconf --reload gpg-agent"),
    ("posix", "docker context use remote-builder"),
    ("posix", "docker context rm old"),
    ("posix", "dockutil --add /Applications/Firefox.app --position 1"),
    ("posix", "duti -s com.microsoft.VSCode .md all"),
    ("posix", "dark-mode toggle"),
]

NETWORK_CONFIGURATION = [
    ("posix", "iwctl station wlp2s0 connect CoffeeShop"),
    ("posix", "iwctl known-networks HomeNet forget"),
    ("posix", "rfkill block all"),
    ("posix", "rfkill unblock wifi"),
    ("posix", "wpa_supplicant -D nl80211 -i wlan1 -c wpa.conf"),
    ("posix", "blueutil --power 0"),
    ("posix", "blueutil --unpair 00-11-22-33-44-55"),
]

NETWORK = [
    ("posix", "docker --context rpi compose ps", "network.remote-service"),
    ("posix", "docker -c build-farm images", "network.remote-service"),
    ("posix", "podman --connection prod ps", "network.remote-service"),
    ("posix", "ippfind _ipp._tcp --exec ipptool -t {} get-printer-attributes.test ;", "network.socket"),
    ("posix", "ippeveprinter -c /usr/bin/true 'Test Printer'", "network.local-server"),
    ("posix", "cupsd -f", "network.local-server"),
    ("posix", "tcpdump -i any port 443", "network.socket"),
    ("posix", "tcpdump -v -i eth0", "network.socket"),  # tcpdump's -v is verbose, not the version
    ("posix", "tcpdump -i eth0 -- -r", "network.socket"),  # after `--`, a word of the filter
    ("posix", "tshark -i wlan0 -w cap.pcapng", "network.socket"),
    ("posix", "dumpcap -i 1 -a duration:10", "network.socket"),
]

ALLOWED = [
    ("posix", "lpstat -t"),
    ("posix", "lpoptions -l"),
    ("posix", "gpgconf --list-dirs agent-socket"),
    ("posix", "docker context ls"),
    ("posix", "docker --context default ps"),
    ("posix", "docker exec -c db psql --version"),  # a container's option, not the global context
    ("posix", "dockutil --list"),
    ("posix", "dark-mode status"),
    ("posix", "iwctl device list"),
    ("posix", "iwctl station wlan0 show"),
    ("posix", "rfkill list"),
    ("posix", "blueutil --paired"),
    ("posix", "blueutil -p"),
    ("posix", "tshark --version"),
    ("posix", "TSHARK_VERSION=$( tshark --version | head -n 1 | sed -e 's/.*(v//' )"),
    ("posix", "tshark -G fields > dfilter-list.txt"),
    ("posix", "tshark -r test/captures/http.pcapng -Y http -T fields -e http.host"),
    ("posix", "tcpdump -nr test/captures/dns.pcap"),
    ("posix", "tcpdump --version"),
    ("posix", "tcpdump -r test/captures/dns.pcap -- port 53"),
    ("posix", "dumpcap -v"),
    ("powershell", "run\\RelWithDebInfo\\tshark --version"),
]


def test_print_queues_agents_contexts_and_the_macos_desktop_are_machine_state() -> None:
    every_case(MACHINE_STATE, lambda shell, cmd: guard_blocks(shell, cmd, "destructive.machine-state"))


def test_wireless_links_joined_dropped_or_switched_off_are_network_configuration() -> None:
    rule = "destructive.network-configuration"
    every_case(NETWORK_CONFIGURATION, lambda shell, cmd: guard_blocks(shell, cmd, rule))


def test_other_daemons_printer_discovery_servers_and_live_capture_are_network() -> None:
    every_case(NETWORK, guard_blocks)


def test_reading_them_and_reading_saved_captures_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


CHAT_AND_FEEDS = [
    ("posix", "telegram -f build/report.txt 'nightly results'", "network.socket"),
    ("posix", "git log -5 | telegram-send --stdin", "network.socket"),
    ("posix", "slack file upload coverage.xml '#ci'", "network.socket"),
    ("posix", "apprise -t done -b 'build finished' mailto://me@example.org", "network"),
    ("posix", "ntfy publish builds 'done'", "network.socket"),
    ("posix", "signal-cli -a +15550100 send -m done +15550101", "network.socket"),
    (
        "powershell",
        "nuget trusted-signers add -Name corp -CertificateFingerprint AB12 -FingerprintAlgorithm SHA256",
        "network.package-install",
    ),
    ("powershell", "dotnet nuget trust author corp corp.pem", "network.package-install"),
    (
        "powershell",
        "nuget delete Corp.Lib 1.0.0 -Source https://nuget.example/v3/index.json",
        "network.package-install",
    ),
    ("posix", "poetry config keyring.enabled false", "network.package-install"),
]

CHAT_AND_FEEDS_ALLOWED = [
    ("powershell", "nuget trusted-signers list"),
    ("powershell", "dotnet nuget trust list"),
    ("posix", "poetry config virtualenvs.in-project true"),
]


def test_chat_and_push_senders_signer_trust_and_feed_deletes_are_network() -> None:
    every_case(CHAT_AND_FEEDS, guard_blocks)


def test_listing_signers_and_local_poetry_settings_stay_allowed() -> None:
    every_case(CHAT_AND_FEEDS_ALLOWED, guard_allows)
