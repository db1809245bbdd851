"""LXD/Incus containers are made and configured through their daemon; a property list is written like a file.

`lxc init … -c security.privileged=true` or a disk of the host's `/` gives a container root on the host, and
`lxc launch images:…` downloads its image: like `docker run`, making, configuring and starting containers is a
remote service; listing them stays fine. `plutil -insert|-replace|-remove|-convert FILE` rewrites the
property list in place (or writes the `-o` file): a write, judged by where it lands, so a system app's
`Info.plist` or a `LaunchAgents` entry is outside the project, while the project's own plists and reading any
plist are fine.

Stopping every container the daemon runs (`docker stop $(docker ps -q)`) stops other projects' containers
too, as removing them does, and so does removing every image a compose project uses (`down --rmi all`: the
pulled images are shared) or the build cache; a container named, a list filtered to the project's own, or
the images compose built (`--rmi local`) stay allowed.
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


EVERY_CONTAINER = [
    ("posix", "docker stop $(docker ps -aq)"),
    ("posix", "docker stop `docker ps -q`"),
    ("posix", 'docker stop $(docker ps --format "{{.ID}}")'),
    ("posix", "docker ps -q | xargs docker restart"),
    ("posix", "podman container pause $(podman container ls -q)"),
    ("powershell", "docker stop (docker ps -q)"),
    ("powershell", "docker ps -q | ForEach-Object { docker stop $_ }"),
    ("posix", "docker compose down --rmi all"),
    ("posix", "docker compose -f compose.test.yml down --rmi=all"),
    ("posix", "docker buildx prune --all --force"),
]

NAMED_CONTAINERS = [
    ("posix", "docker stop web"),
    ("posix", 'docker stop "$container"'),
    ("posix", "docker stop $(docker ps -q --filter name=app)"),
    ("posix", "docker ps -aqf ancestor=app | xargs docker stop"),
    ("posix", "docker compose stop"),
    ("powershell", "docker restart db"),
    ("posix", "docker compose down --rmi local --remove-orphans"),
    ("posix", "docker compose down"),
]


@pytest.mark.parametrize(("shell", "command"), EVERY_CONTAINER)
def test_stopping_every_container_of_the_daemon_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "destructive.machine-state")


@pytest.mark.parametrize(("shell", "command"), NAMED_CONTAINERS)
def test_stopping_named_or_filtered_containers_stays_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
