"""macOS accounts, discovery and state, desktop launchers, memory forensics and the user's mail.

Enabling the root account (`dsenableroot`) is an account change; listing file shares, exporting directory
records, listing Time Machine backups and dumping Launch Services' application list survey the machine;
taking a local snapshot, mounting one and editing Launch Services change it. `open` handed an application
(`open X.app`, `open -a APP`) launches a program the policy does not see, and run-mailcap's edit action
starts an editor on the terminal. Memory-forensics tools read every secret of a memory image, and the user's
mail and messages (`~/Library/Mail`, `~/Library/Messages`, Thunderbird) hold what people are sent. Beside
each, the same program used on the project stays allowed: `open htmlcov/index.html`, `dscl . -read
/Users/dev`, `tmutil status`, viewing a file with run-mailcap (a pager, which prints)."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "dsenableroot", "env.accounts"),
    ("posix", "dsenableroot -u art-tester -p art-tester -r art-root", "env.accounts"),
    ("posix", "dscl . -list /SharePoints", "env.machine-discovery"),
    ("posix", "dscl . ls /SharePoints", "env.machine-discovery"),
    ("posix", "dsexport local_users.txt /Local/Default dsRecTypeStandard:Users", "env.machine-discovery"),
    ("posix", "tmutil listlocalsnapshots /", "env.machine-discovery"),
    ("posix", "lsregister -dump", "env.machine-discovery"),
    ("posix", "tmutil localsnapshot", "destructive.machine-state"),
    (
        "posix",
        "mount_apfs -o noowners -s com.apple.TimeMachine.2023-05-01-090000.local /System/Volumes/Data /tmp/s",
        "destructive.machine-state",
    ),
    ("posix", "lsregister -delete", "destructive.machine-state"),
    (
        "posix",
        "/System/Library/Frameworks/CoreServices.framework/Frameworks/LaunchServices.framework/Support/lsregister"
        " -kill -r -domain local",
        "destructive.machine-state",
    ),
    ("posix", "open Malicious.app", "unverifiable.launched-program"),
    ("posix", "open -a Calculator", "unverifiable.launched-program"),
    ("posix", "open -b com.apple.Terminal", "unverifiable.launched-program"),
    ("posix", "run-mailcap --action=edit text/plain:/path/to/output-file", "unverifiable.terminal-program"),
    ("posix", "volatility -f /path/to/core-dump volshell", "env.credential-dump"),
    ("posix", "volatility -f test.raw windows.registry.printkey.PrintKey", "env.credential-dump"),
    ("posix", "vol.py -f mem.raw windows.hashdump", "env.credential-dump"),
    ("posix", "volatility3 -f mem.raw windows.lsadump", "env.credential-dump"),
    # the user's mail and messages
    ("posix", "plutil -p ~/Library/Mail/V10/MailData/SyncedRules.plist", "env.credential-dump"),
    ("posix", "sqlite3 ~/Library/Messages/chat.db 'select text from message'", "env.credential-dump"),
    ("posix", "tar czf m.tgz ~/.thunderbird/abc.default", "env.credential-dump"),
    # a preference or launchd property list edited in place, outside the project
    (
        "posix",
        '/usr/libexec/PlistBuddy -c "Set :DesktopViewSettings:IconViewSettings:iconSize 80" '
        "~/Library/Preferences/com.apple.finder.plist",
        "containment.write-outside-project",
    ),
    ("posix", 'PlistBuddy -c "Add :Label string x" /Library/LaunchDaemons/x.plist', "containment"),
]

ALLOWED = [
    ("posix", "dscl . -read /Users/dev"),
    ("posix", "tmutil status"),
    ("posix", "open htmlcov/index.html"),
    ("posix", "open ."),
    ("posix", "xdg-open coverage/html/index.html"),
    ("posix", "run-mailcap --action=view text/plain:README.md"),
    ("posix", "mount"),
    ("posix", "open -a Xcode ."),
    ("posix", "ls ~/Library"),
    ("posix", "plutil -p App/Info.plist"),
    ("posix", '/usr/libexec/PlistBuddy -c "Set :CFBundleVersion 42" App/Info.plist'),
    ("posix", '/usr/libexec/PlistBuddy -c "Print :CFBundleShortVersionString" App/Info.plist'),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_macos_state_launchers_and_memory_forensics_are_blocked(
    shell: str, command: str, expected: str
) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_programs_on_the_project_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
