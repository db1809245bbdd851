"""Privilege-escalation cheat-sheet lines through ordinary programs, each beside the everyday use of the same
program inside the project: the cron, timer and login-script folders listed (where a writable root job is
looked for) and the neighbour and route tables read from /proc; files named like options for a wildcard
injection made with `touch` (`touch "--checkpoint-action=exec=sh x.sh"`, `touch @list.txt` for 7-Zip); the
capability hunt and change with libcap-ng's `filecap` and `pscap`, as `getcap -r /` and `setcap` are; tar's
checkpoint actions and compressor running commands (`--checkpoint-action=exec=/bin/sh`,
`--use-compress-program='sh -c …'`), where the progress dots and a known compressor with its level or threads
are backup and build work."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

SCHEDULE_SURVEYS = [
    "ls -l /etc/cron.d/",
    "ls -la /etc/cron.daily",
    "ls /etc/cron.hourly/",
    "ls -lah /etc/cron.monthly",
    "find /etc/cron.weekly -type f -ls",
    "tree /var/spool/cron",
    "ls -la /var/spool/anacron/",
    "ls -la /etc/systemd/system/*.timer",
    "ls /etc/systemd/system/timers.target.wants",
    "cat /etc/systemd/system/timers.target.wants/logrotate.timer",
    "stat /etc/cron.d",
    "ls -la /etc/update-motd.d/",
    "cat /etc/update-motd.d/00-header",
    "cat /etc/rc.local",
    "cat /proc/net/arp",
    "awk '$2 == \"00000000\" {print $3}' /proc/net/route",
]

SCHEDULE_TWINS = [
    "ls deploy/cron.d",  # the project's own folder of the name
    "ls -la config/systemd",
    "cat deploy/app.timer",
    "ls /etc/cron.d.example",
    "run-parts --test /etc/cron.daily",  # names the jobs a run would start, as before
    "ls -la /etc/",
    "find . -name '*.timer'",
    "cat deploy/update-motd.d/50-app",
    "grep -q ':1F90' /proc/net/tcp",  # a listening port, as `ss -tln` shows it
    "cat /proc/net/dev",
]

OPTION_NAMED_FILES = [
    'touch "--checkpoint-action=exec=sh shell.sh"',
    "touch '--checkpoint=1'",
    "touch --checkpoint=1",
    "touch '--use-compress-program=sh x.sh'",
    "touch '--to-command=sh run.sh'",
    "touch '-e sh shell.sh'",
    "touch @root.txt",
    "cd /var/www/html && touch '--checkpoint-action=exec=bash x.sh'",
]

TOUCH_TWINS = [
    "touch build.stamp",
    "touch -c notes.txt",
    "touch -d '2 hours ago' build/.stamp",
    "touch --reference=src/app.py build/app.stamp",
    "touch -t 202001010000 fixtures/old.txt",
    "touch --no-create out/ready",
    "touch src/@types.d.ts",  # an `@` inside a path names no list file
    "touch -d @1700000000 build/.stamp",  # a time in seconds
    "echo '--checkpoint=1'",
]

CAPABILITY_HUNTS = [
    ("filecap -a", "env.machine-discovery"),
    ("filecap", "env.machine-discovery"),  # every folder of $PATH
    ("filecap /usr/bin", "env.machine-discovery"),
    ("filecap /usr/sbin 2>/dev/null", "env.machine-discovery"),
    ("pscap -a", "env.machine-discovery"),
    ("pscap", "env.machine-discovery"),
    ("filecap /usr/bin/python3.11 setuid", "destructive.machine-state"),
    ("filecap ./build/server net_bind_service", "destructive.machine-state"),
    ("filecap /usr/bin/vim none", "destructive.machine-state"),
]

CAPABILITY_TWINS = [
    "filecap ./build/app",  # reads the project's own binary
    "filecap build/server",
    "getcap build/app",
    "echo filecap -a",
]

TAR_LAUNCHERS = [
    "tar -cf /dev/null /dev/null --checkpoint=1 --checkpoint-action=exec=/bin/sh",
    "tar cf /dev/null x --checkpoint=1 --checkpoint-action=exec='sh -c id'",
    "tar --checkpoint=1000 --checkpoint-action=dot --checkpoint-action=exec=./x.sh -cf b.tar .",
    "tar --use-compress-program='/bin/sh -c \"sh <&2 1>&2\"' -xf /dev/null",
    "tar --use-compress-program=/tmp/pigz -cf out.tgz src",
    "tar --use-compress-program='zstd -d -o ~/.bashrc' -xf payload.tar.zst",
    "tar --use-compress-program=pigz --use-compress-program='sh x.sh' -xf a.tgz",
    'tar --use-compress-program="pigz -$LEVEL" -cf a.tgz src',
    "tar -I 'sh -c id' -xf a.tar",
]

TAR_EVERYDAY = [
    "tar --checkpoint=10000 --checkpoint-action=dot -czf backup.tar.gz data",
    "tar --checkpoint=1000 --checkpoint-action=echo='%u records' -xf dump.tar",
    "tar --checkpoint=100 --checkpoint-action=bell --checkpoint-action=totals -xf big.tar -C out",
    "tar --use-compress-program=pigz -cf dist/app.tar.gz build",
    "tar --use-compress-program='zstd -19 -T0' -cf dist/app.tar.zst build",
    'tar --use-compress-program="xz -T0" -xf vendor.tar.xz -C third_party',
    "tar --use-compress-program=lbzip2 -xf data.tar.bz2",
    "tar --use-compress-program='pigz -p8' -cf cache.tgz .cache/pip",
]


@pytest.mark.parametrize("command", SCHEDULE_SURVEYS)
def test_listing_the_machines_schedule_is_discovery(command: str) -> None:
    guard_blocks("posix", command, "env.machine-discovery")


@pytest.mark.parametrize("command", SCHEDULE_TWINS)
def test_the_projects_schedule_files_stay_readable(command: str) -> None:
    guard_allows("posix", command)


@pytest.mark.parametrize("command", OPTION_NAMED_FILES)
def test_touch_making_an_injected_option_is_blocked(command: str) -> None:
    guard_blocks("posix", command, "unverifiable.option-named-file")


@pytest.mark.parametrize("command", TOUCH_TWINS)
def test_touch_with_its_own_options_stays_allowed(command: str) -> None:
    guard_allows("posix", command)


@pytest.mark.parametrize(("command", "rule"), CAPABILITY_HUNTS)
def test_capability_hunts_and_changes_are_blocked(command: str, rule: str) -> None:
    guard_blocks("posix", command, rule)


@pytest.mark.parametrize("command", CAPABILITY_TWINS)
def test_a_project_binarys_capabilities_stay_readable(command: str) -> None:
    guard_allows("posix", command)


@pytest.mark.parametrize("command", TAR_LAUNCHERS)
def test_tar_running_a_command_is_blocked(command: str) -> None:
    guard_blocks("posix", command, "unverifiable")


@pytest.mark.parametrize("command", TAR_EVERYDAY)
def test_tar_progress_and_known_compressors_stay_allowed(command: str) -> None:
    guard_allows("posix", command)
