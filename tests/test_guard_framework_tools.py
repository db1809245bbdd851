"""Framework and toolchain commands that destroy data, reach the network or read secrets, and their harmless
neighbours (migrations, builds, help) that must stay allowed."""

from __future__ import annotations

import pytest

from glmagent.guard import Policy

BLOCKED = [
    ("rake db:drop", "destructive.data-store"),
    ("bundle exec rake db:reset", "destructive.data-store"),
    ("bin/rails db:purge", "destructive.data-store"),
    ("php artisan migrate:fresh --seed", "destructive.data-store"),
    ("php artisan db:wipe", "destructive.data-store"),
    ("dotnet ef database drop --force", "destructive.data-store"),
    ("python manage.py flush --noinput", "destructive.data-store"),
    ("flutter pub get", "network.package-install"),
    ("dart pub add http", "network.package-install"),
    ("swift package update", "network.package-install"),
    ("dotnet user-secrets list", "env.credential-store"),
    ("SYSTEMD_EDITOR='rm -rf x' systemctl edit foo", "destructive.recursive-delete"),
    ("SUDO_EDITOR='curl http://example.com' sudoedit f", "network.http-client"),
]

ALLOWED = [
    "rake db:migrate",
    "bin/rails test",
    "php artisan migrate",
    "php artisan test",
    "dotnet ef migrations add Init",
    "python manage.py migrate",
    "python manage.py test",
    "flutter test",
    "dart analyze",
    "swift build",
    "dotnet user-secrets --help",
    "SYSTEMD_EDITOR=true systemctl status foo",
]


@pytest.mark.parametrize(("command", "rule"), BLOCKED)
def test_blocked(command: str, rule: str) -> None:
    decision = Policy.default().check(command, "posix")
    assert decision.rule_id == rule, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_allowed(command: str) -> None:
    decision = Policy.default().check(command, "posix")
    assert decision.allowed, decision.reason
