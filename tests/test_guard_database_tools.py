"""Database and migration tools, and the credential hunts of Windows privilege-escalation notes.

- A schema dropped or every migration rolled back under other tools' words: `mvn flyway:clean`,
  `kong migrations reset`, `graphile-migrate reset`, `sqitch revert` without `--to`, `piccolo migrations
  backwards all` (migrating up and one step back stay allowed).
- Django's account commands wait for a password at the terminal unless told `--noinput`.
- Sqitch's user and system settings are the user's files, as `git config --global` is.
- Block's goose agent shares its name with pressly's goose migrator: only the agent's own commands are the
  agent; `goose create x sql` and `goose -dir migrations sqlite3 ./app.db up` migrate.
- cmd's recursive search for saved remote-desktop and VPN connections (`dir /s /b
  "%USERPROFILE%\\*.rdp"`) is a credential hunt, as one for `*.kdbx` is.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "mvn flyway:clean", "destructive.data-store"),
    ("posix", "./gradlew flywayClean", "destructive.data-store"),
    ("posix", "mvn liquibase:dropAll", "destructive.data-store"),
    ("posix", "kong migrations reset --config kong.yml", "destructive.data-store"),
    ("posix", "graphile-migrate reset", "destructive.data-store"),
    ("posix", "sqitch revert -y", "destructive.data-store"),
    ("posix", "piccolo migrations backwards all", "destructive.data-store"),
    ("posix", "python manage.py createsuperuser", "unverifiable.terminal-program"),
    ("posix", "./manage.py changepassword bob", "unverifiable.terminal-program"),
    ("posix", 'sqitch config --user user.name "Marge"', "containment.write-outside-project"),
    ("posix", "sqitch config --global engine.pg.client /usr/bin/psql", "containment.write-outside-project"),
    ("powershell", 'dir /s /b "%USERPROFILE%\\*.rdp" 2>nul', "env.credential-dump"),
    ("powershell", "dir /s /b C:\\Users\\*.ovpn", "env.credential-dump"),
]

ALLOWED = [
    ("posix", "mvn flyway:migrate"),
    ("posix", "kong migrations up"),
    ("posix", "graphile-migrate migrate"),
    ("posix", "sqitch deploy"),
    ("posix", "sqitch revert --to @HEAD^ -y"),
    ("posix", "piccolo migrations forwards all"),
    ("posix", "python manage.py createsuperuser --noinput"),
    ("posix", "python manage.py migrate"),
    ("posix", "sqitch config core.engine pg"),
    ("posix", "sqitch config --user --list"),
    ("posix", "goose create add_users sql"),
    ("posix", "goose -dir migrations sqlite3 ./app.db up"),
    ("posix", "goose --version"),
    ("powershell", "dir /s /b *.csproj"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_resets_prompts_user_settings_and_hunts_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_migrating_and_project_settings_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
