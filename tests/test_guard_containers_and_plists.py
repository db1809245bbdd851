"""LXD/Incus containers are made and configured through their daemon; a property list is written like a file.

`lxc init … -c security.privileged=true` or a disk of the host's `/` gives a container root on the host, and
`lxc launch images:…` downloads its image: like `docker run`, making, configuring and starting containers is a
remote service; listing them stays fine. `plutil -insert|-replace|-remove|-convert FILE` rewrites the
property list in place (or writes the `-o` file): a write, judged by where it lands, so a system app's
`Info.plist` or a `LaunchAgents` entry is outside the project, while the project's own plists and reading any
plist are fine.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("lxc init myimage c1 -c security.privileged=true", "network.remote-service"),
    ("lxc config device add c1 host disk source=/ path=/mnt/root recursive=true", "network.remote-service"),
    ("lxc config set c1 security.privileged true", "network.remote-service"),
    ("incus launch images:debian/12 c1", "network.remote-service"),
    ("lxc start c1", "network.remote-service"),
    ("plutil -insert LSUIElement -string 1 /Applications/TargetApp.app/Contents/Info.plist", "containment"),
    ("plutil -remove ProgramArguments ~/Library/LaunchAgents/com.x.plist", "containment"),
    ("plutil -convert xml1 /Library/Preferences/com.apple.x.plist", "containment"),
    ("plutil -convert xml1 /Library/Preferences/com.apple.x.plist build/y.plist", "containment"),  # each file
    ("plutil -convert xml1 -e xml /Library/Preferences/x.plist", "containment"),  # written beside it
    ("plutil -replace Label -string x -o /Library/LaunchDaemons/x.plist build/x.plist", "containment"),
]

ALLOWED = [
    "lxc list",
    "incus info c1",
    "lxc --version",
    "plutil -replace CFBundleVersion -string 1.2 build/App.app/Contents/Info.plist",
    "plutil -insert Path -string /usr/local/bin/tool build/Info.plist",
    "plutil -lint /Applications/Safari.app/Contents/Info.plist",
    "plutil -p /Library/Preferences/com.apple.x.plist",
    "plutil -extract CFBundleVersion raw -o - /Applications/X.app/Contents/Info.plist",
    "plutil -convert xml1 -o build/x.plist /Library/Preferences/x.plist",
    "plutil -convert json build/a.plist build/b.plist",
]


@pytest.mark.parametrize(("command", "expected"), BLOCKED)
def test_container_changes_and_plists_written_outside_are_blocked(command: str, expected: str) -> None:
    guard_blocks("posix", command, expected)


@pytest.mark.parametrize("command", ALLOWED)
def test_listing_and_the_projects_own_plists_stay_allowed(command: str) -> None:
    guard_allows("posix", command)
