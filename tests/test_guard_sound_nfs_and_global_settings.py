"""Sound settings, Windows' NFS server and client, and Bundler's and Composer's user-wide settings.

A sound server's default devices, card profiles, volumes and modules belong to the user's session, not the
project (`pactl set-default-sink x`, `pulseaudio -k`). Windows' NFS shares and client settings are the
machine's (`nfsadmin client stop`, `New-NfsShare`). `bundle config set --global` and `composer config
--global` change every project of the user, and Composer's keeps tokens there. Reading each of them, and the
project's own settings, stay allowed.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "pactl set-card-profile 0 output:hdmi-stereo", "destructive.machine-state"),
    ("posix", "pactl load-module module-null-sink sink_name=v", "destructive.machine-state"),
    (
        "posix",
        'pacmd set-default-sink "alsa_output.pci-0000_00_03.0.hdmi-stereo"',
        "destructive.machine-state",
    ),
    ("posix", "pulseaudio -k", "destructive.machine-state"),
    ("posix", "wpctl set-volume @DEFAULT_AUDIO_SINK@ 0.5", "destructive.machine-state"),
    ("posix", "amixer -q sset Master 5%+", "destructive.machine-state"),
    ("posix", "alsactl restore", "destructive.machine-state"),
    ("powershell", "nfsadmin client stop", "destructive.network-configuration"),
    ("powershell", "nfsadmin client localhost config fileaccess=755", "destructive.network-configuration"),
    ("powershell", "New-NfsShare -Name src -Path C:\\src", "destructive.network-configuration"),
    (
        "powershell",
        "Set-NfsClientConfiguration -DefaultNumberOfRetries 3",
        "destructive.network-configuration",
    ),
    ("powershell", "nfsshare data=C:\\data", "destructive.network-configuration"),
    (
        "posix",
        "bundle config set --global jobs $((number_of_cores - 1))",
        "containment.write-outside-project",
    ),
    ("posix", "bundle config --global path vendor", "containment.write-outside-project"),
    ("posix", "composer config --global github-oauth.github.com abc123", "containment.write-outside-project"),
    ("posix", "composer config -g process-timeout 0", "containment.write-outside-project"),
]

ALLOWED = [
    ("posix", "pactl list short sinks"),
    ("posix", "pactl info"),
    ("posix", "wpctl status"),
    ("posix", "amixer get Master"),
    ("posix", "pulseaudio --check"),
    ("powershell", "nfsadmin server"),
    ("powershell", "Get-NfsShare"),
    ("powershell", "New-NfsShare -Name src -Path C:\\src -WhatIf"),
    ("posix", "bundle config get path"),
    ("posix", "bundle config set --local path vendor/bundle"),
    ("posix", "composer config --global --list"),
    ("posix", "composer config process-timeout 0"),  # the project's composer.json
    ("posix", "composer config repositories.0 path $GITHUB_WORKSPACE"),  # a run-time value, not a scope
]


def test_sound_nfs_and_user_wide_settings_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_reading_them_and_the_projects_own_settings_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
