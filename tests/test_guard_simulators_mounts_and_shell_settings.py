"""Simulators, emulators, cloud buckets and the shell's start-up settings belong to the machine.

Every project shares the machine's iOS simulators and Android virtual devices: erasing, deleting or shutting
them all down, or wiping one, is machine state, while listing them and booting one for a test run stay
allowed. A cloud bucket mounted as a folder sends every read and write over the network. fish's universal
variables and `pyenv init --install` write settings every later session runs with. Appium's drivers and
GNU Guix's packages are downloads.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "xcrun simctl erase all", "destructive.machine-state"),
    ("posix", "xcrun simctl delete unavailable", "destructive.machine-state"),
    ("posix", "xcrun -v simctl shutdown all", "destructive.machine-state"),
    ("posix", "xcrun simctl privacy booted grant photos com.example.app", "destructive.machine-state"),
    ("posix", "xcrun simctl keychain booted add-root-cert ca.pem", "destructive.machine-state"),
    ("posix", "avdmanager delete avd -n Pixel_7_API_34", "destructive.machine-state"),
    ("posix", "avdmanager create avd --force -n ci -k 'system-images;android-34;x86_64'", "destructive"),
    ("posix", "emulator -avd Pixel_7_API_34 -wipe-data -no-window", "destructive.machine-state"),
    ("posix", "set -Ux EDITOR nvim", "destructive.machine-state"),
    ("posix", "fish_add_path -U ~/.cargo/bin", "destructive.machine-state"),
    ("posix", "funcsave ll", "destructive.machine-state"),
    ("posix", "pyenv init --install", "destructive.machine-state"),
    ("posix", "fusermount -u ~/mnt/bucket", "destructive.machine-state"),
    ("posix", "s3fs assets /mnt/assets -o passwd_file=${HOME}/.passwd-s3fs", "network.remote-sync"),
    ("posix", "mount-s3 logs-bucket ~/mnt/logs --read-only", "network.remote-sync"),
    ("posix", "gcsfuse --implicit-dirs data-bucket /mnt/data", "network.remote-sync"),
    ("posix", "blobfuse2 mount ~/mnt/blob --config-file=config.yaml", "network.remote-sync"),
    ("posix", "appium driver install uiautomator2", "network.package-install"),
    ("posix", "appium plugin update images", "network.package-install"),
    ("posix", "guix install ripgrep", "network.package-install"),
    ("posix", "guix package -i hello -r cowsay", "network.package-install"),
    ("posix", "guix pull", "network.package-install"),
]

ALLOWED = [
    ("posix", "xcrun simctl list devices available"),
    ("posix", 'xcrun simctl boot "$SIMULATOR_UDID"'),
    ("posix", 'xcrun simctl shutdown "$SIMULATOR_UDID"'),  # the one the test run booted
    ("posix", "xcrun simctl io booted screenshot build/screen.png"),
    ("posix", "avdmanager list avd"),
    ("posix", "avdmanager create avd -n ci -k 'system-images;android-34;default;x86_64'"),
    ("posix", "emulator -list-avds"),
    ("posix", "set -euo pipefail"),
    ("posix", "set -u"),  # bash's nounset, not fish's universal scope
    ("posix", "fish_add_path --path ./node_modules/.bin"),  # this session only
    ("posix", "pyenv init -"),
    ("posix", "pyenv version"),
    ("posix", "gcsfuse --version"),
    ("posix", "appium driver list --installed"),
    ("posix", "guix package --list-installed"),
    ("posix", "guix describe"),
]


def test_simulators_bucket_mounts_shell_settings_and_package_fetches_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_listing_booting_and_session_only_settings_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
