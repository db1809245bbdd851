"""Cloud drives' and chat uploaders' clients, a filesystem's own layout, partition tables, and hardware keys.

`gdrive upload`, `./dropbox_uploader.sh upload`, `slackcat` and `s5cmd run` send files to a service every
time they run. btrfs subvolumes, snapshots and balances, a partition table read again (`partprobe`) and a
YubiKey's applets reset or reconfigured (`ykman openpgp reset`) change the machine; a key's one-time codes
(`ykman oath accounts code`) are a second factor. Showing each of them stays allowed.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "gdrive upload --parent 0B3X9GlR6Embn gdrive-osx-x64", "network.remote-service"),
    ("posix", 'echo "Hello World" | gdrive upload - hello.txt', "network.remote-service"),
    ("posix", "./dropbox_uploader.sh -x .git upload ./project /", "network.remote-service"),
    ("posix", "dbxcli put dist/app.zip /releases/app.zip", "network.remote-service"),
    ("posix", "tail -F -n0 build.log | slackcat --channel general --stream", "network.remote-service"),
    ("posix", "cat commands.txt | s5cmd run", "network.remote-service"),
    ("posix", 'btrfs subvolume create "${MNT_DIR}/@home"', "destructive.machine-state"),
    ("posix", "btrfs filesystem mkswapfile --size 4g /swap/swapfile", "destructive.machine-state"),
    ("posix", "btrfs balance start -dusage=50 /", "destructive.machine-state"),
    ("posix", 'partprobe -s "$DEVICE"', "destructive.machine-state"),
    ("posix", "partx -u /dev/sdb", "destructive.machine-state"),
    ("posix", "blockdev --rereadpt /dev/sda", "destructive.machine-state"),
    ("posix", "ykman openpgp reset", "destructive.machine-state"),
    ("posix", "ykman config usb -d OTP", "destructive.machine-state"),
    ("posix", "ykman openpgp access set-retries 5 5 5 -f -a $ADMIN_PIN", "destructive.machine-state"),
    ("posix", "ykman oath accounts code github", "env.credential-store"),
]

ALLOWED = [
    ("posix", "gdrive --help"),
    ("posix", "btrfs filesystem show"),
    ("posix", "btrfs subvolume list /"),
    ("posix", "partprobe -d -s /dev/sda"),  # a dry run
    ("posix", "partx --show /dev/sda"),
    ("posix", "blockdev --getsize64 /dev/sda"),
    ("posix", "ykman info"),
    ("posix", "ykman oath accounts list"),
]


def test_uploaders_disk_layout_and_key_changes_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_showing_them_stays_allowed() -> None:
    every_case(ALLOWED, guard_allows)
