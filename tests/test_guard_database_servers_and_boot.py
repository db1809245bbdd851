"""Database servers reached by name, services of the machine stopped or enabled, and boot images written.

A database client's `-h` names the server it connects to: another machine when it can be nothing but a host
(an address, a name with a top-level domain), never a CI service container (`-h postgres`) or `localhost`.
Cassandra's node tool, the machine's web and NFS servers and macOS's content cache act on running services;
their status checks only read. Boot loaders, initramfs images and Secure Boot variables are machine state
whatever the verbosity (`dracut -v -f`), and a read flag beside a write (`grubby --info=ALL --set-default`)
spares nothing. systemctl's options that take a value are read before its verb (`systemctl -M box@ --user
enable x`), and Raspberry Pi OS's `raspi-config nonint do_*` changes the machine.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "psql -h db.example.com -U admin -d postgres -c 'CREATE DATABASE appdb;'", "network.locator"),
    ("posix", "PGPASSWORD=x pg_dump -h db.example.com -U admin -d appdb > backup.sql", "network.locator"),
    ("posix", "mysqldump -h 10.0.0.5 -u root app", "network.locator"),
    ("posix", "redis-cli -h cache.corp.net INFO", "network.locator"),
    ("posix", "mongodump -h db1.example.org --db app --out dump", "network.locator"),
    ("posix", "nodetool clearsnapshot", "destructive.machine-state"),
    ("posix", "nodetool invalidatekeycache", "destructive.machine-state"),
    ("posix", "apachectl stop", "destructive.machine-state"),
    ("posix", "sudo nfsd disable", "containment.privilege-elevation"),
    ("posix", "nfsd disable", "destructive.machine-state"),
    ("posix", "/usr/bin/AssetCacheManagerUtil deactivate", "destructive.machine-state"),
    ("posix", "dracut -v -f", "destructive.machine-state"),
    ("posix", "update-initramfs -u -v", "destructive.machine-state"),
    ("posix", "mkinitcpio -P -v", "destructive.machine-state"),
    ("posix", "grubby --info=ALL --set-default /boot/vmlinuz-6.8", "destructive.machine-state"),
    ("posix", "mokutil --sb-state --import mok.der", "destructive.machine-state"),
    ("posix", "efi-updatevar -f PK.auth PK", "destructive.machine-state"),
    ("posix", "sbctl sign -s /boot/vmlinuz-linux", "destructive.machine-state"),
    # systemctl's value options before the verb, and Raspberry Pi OS's configuration tool run unattended
    ("posix", "systemctl --machine containers@ --user enable podman.socket", "destructive.machine-state"),
    ("posix", "systemctl -M box@ --user enable app.service", "destructive.machine-state"),
    ("posix", "raspi-config nonint do_ssh 0", "destructive.machine-state"),
]

ALLOWED = [
    ("posix", "psql -h postgres -U postgres -c 'create database test'"),  # a CI service container
    ("posix", "psql -h localhost -U postgres -d test -f schema.sql"),
    ("posix", "pg_isready -h 127.0.0.1 -p 5432"),
    ("posix", "redis-cli -h redis ping"),
    ("posix", "nodetool status"),
    ("posix", "apachectl configtest"),
    ("posix", "nfsd status"),
    ("posix", "AssetCacheManagerUtil status"),
    ("posix", "dracut --list-modules"),
    ("posix", "grubby --info=ALL"),
    ("posix", "mokutil --sb-state"),
    ("posix", "sbctl status"),
    ("posix", "systemctl -t service list-units"),
    ("posix", "systemctl --user status app.service"),
    ("posix", "raspi-config nonint get_ssh"),
]


def test_remote_database_servers_services_and_boot_images_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_local_databases_and_status_checks_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
