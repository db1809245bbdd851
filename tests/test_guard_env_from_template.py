"""An env file made from its template only when it is not there (Laravel's composer scripts: `php -r
"file_exists('.env') || copy('.env.example', '.env');"`) reads and replaces nothing, like `cp -n .env.example
.env`; a copy that may replace it, or any read of it, still blocks."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

ALLOWED = [
    "php -r \"file_exists('.env') || copy('.env.example', '.env');\"",
    "php -r \"if (!file_exists('.env')) copy('.env.example', '.env');\"",
    "php -r \"if (!file_exists('.env')) { copy('.env.example', '.env'); }\"",
    "php -r \"file_exists('.env.testing') or copy('.env.example', '.env.testing');\"",
    "cp -n .env.example .env",
]

BLOCKED = [
    "php -r \"copy('.env.example', '.env');\"",  # replaces the user's keys when they are there
    "php -r \"file_exists('.env') && copy('.env.example', '.env');\"",  # only when they are there
    "php -r \"file_exists('.env') || copy('.env.example', '.env.local');\"",  # a test of another file
    "php -r \"file_exists('.env') || copy('.env.example', '.env'); echo file_get_contents('.env');\"",
    "php -r \"echo file_get_contents('.env');\"",
]


@pytest.mark.parametrize("command", ALLOWED)
def test_an_env_file_made_from_its_template_when_absent_is_allowed(command: str) -> None:
    guard_allows("posix", command)


@pytest.mark.parametrize("command", BLOCKED)
def test_reading_or_replacing_the_env_file_stays_blocked(command: str) -> None:
    guard_blocks("posix", command, "env.secret-files")
