"""Red-team survey lines for who is logged on and who may elevate, and build lines that copy a file's times.

Post-exploitation notes list the logged-on users through systemd-logind (`loginctl`, `loginctl
list-sessions`) and the raw login record (`cat /var/run/utmp`) as well as through `who`, and list every
account or the members of an elevating group through bash's completion lists (`compgen -u`) and Debian's
`members sudo`: machine discovery and account listings, as `who` and `getent group sudo` are. One's own
session (`loginctl show-session "$XDG_SESSION_ID" -p Type`), completion of commands or files and the
members of an ordinary group stay allowed.

`touch -r REF FILE` reads REF's times and sets them on FILE: only FILE is backdated, so a reference outside
the project (`touch -r ../configure.ac build/aclocal.m4`, as out-of-tree builds write it) is build work, as
`--reference=REF` already was, while a target outside the project stays blocked whichever way it is written.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # logged-on users through logind and the login record
    ("posix", "loginctl", "env.machine-discovery"),
    ("posix", "loginctl list-sessions", "env.machine-discovery"),
    ("posix", "loginctl --no-legend list-users", "env.machine-discovery"),
    ("posix", "loginctl list-seats", "env.machine-discovery"),
    ("posix", "sudo loginctl list-sessions", "env.machine-discovery"),
    ("posix", "cat /var/run/utmp | strings", "env.machine-discovery"),
    ("posix", "strings /run/utmp", "env.machine-discovery"),
    ("posix", "last -f /var/run/utmp", "env.machine-discovery"),
    # what starts on its own on a Mac or a BSD: login items and the periodic scripts
    ("posix", "defaults read com.apple.loginitems", "env.machine-discovery"),
    ("posix", "plutil -p ~/Library/Preferences/com.apple.loginitems.plist", "env.machine-discovery"),
    (
        "posix",
        "cat ~/Library/Application\\ Support/com.apple.backgroundtaskmanagementagent/backgrounditems.btm",
        "env.machine-discovery",
    ),
    ("posix", "find /var/db/com.apple.xpc.launchd -iname 'loginitems.*.plist'", "env.machine-discovery"),
    ("posix", "ls /var/db/com.apple.backgroundtaskmanagement/", "env.machine-discovery"),
    ("posix", "ls -la /etc/periodic/daily", "env.machine-discovery"),
    ("posix", "cat /etc/periodic/weekly/999.local", "env.machine-discovery"),
    ("posix", "ls /usr/local/etc/periodic", "env.machine-discovery"),
    # every account or group, and the members of an elevating group
    ("posix", "compgen -u", "env.accounts"),
    ("posix", "compgen -g | sort", "env.accounts"),
    ("posix", "compgen -A user", "env.accounts"),
    ("posix", "compgen -A group -- ad", "env.accounts"),
    ("posix", "members sudo", "env.accounts"),
    ("posix", "members -p wheel", "env.accounts"),
    # the target of a forged time outside the project, however the reference is given
    ("posix", "touch -r /bin/ls /usr/local/bin/helper", "destructive.hide-or-backdate"),
    ("posix", "touch -r build/stamp ~/.ssh/authorized_keys", "destructive"),
    ("posix", "touch -d '2019-03-01 10:00' -r /etc/hosts /tmp/payload", "destructive.hide-or-backdate"),
    ("posix", "touch -amt 201901010000 /etc/cron.d/job", "destructive.hide-or-backdate"),
    ("posix", "touch -mr /etc/hosts ../other/x", "destructive.hide-or-backdate"),
]

ALLOWED = [
    ("posix", 'loginctl show-session "$XDG_SESSION_ID" -p Type --value'),
    ("posix", "loginctl --help"),
    ("posix", "compgen -c | grep ^git-"),
    ("posix", "compgen -f src/"),
    ("posix", "compgen -W 'build test lint' -- te"),
    ("posix", "members docker"),
    ("posix", "defaults read com.apple.dock autohide"),
    ("posix", "plutil -p build/App.app/Contents/Info.plist"),
    ("posix", "ls etc/periodic"),
    ("posix", "ls -l /run/user"),
    ("posix", "touch -r ../configure.ac build/aclocal.m4"),
    ("posix", "touch -r /usr/share/zoneinfo/UTC build/tz.stamp"),
    ("posix", "touch -r $(srcdir)/Makefile.am Makefile.in"),
    ("posix", "touch -d @0 -r ../src/app.c build/app.o"),
    ("posix", "touch -amt 202001010000 build/x"),
    ("posix", "touch --reference=/etc/hosts build/hosts.stamp"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_session_and_account_surveys_and_outside_backdating_are_blocked(
    shell: str, command: str, expected: str
) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_own_session_completion_and_project_touches_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
