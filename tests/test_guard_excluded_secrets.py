"""A secret file a command is told to leave out is not read.

Deploy and release scripts leave `.env` out of what they pack or copy (`zip -r out.zip . -x .env`, `tar
--exclude=.env`, `rsync --exclude .env`, `grep -r --exclude=.env TODO .`): the safe spelling was blocked as
a read of the file while the same command without the exclusion was allowed. Naming the file to pack, or
an exclusion of something else beside it, still reads it.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

SECRET = "env.secret-files"

BLOCKED = [
    ("posix", "zip -r release.zip .env -x '*.log'", SECRET),
    ("posix", "tar --exclude .git -czf x.tgz .env", SECRET),
    ("posix", "tar --exclude=x -czf y.tgz config/.env", SECRET),
    ("posix", "rsync -a --exclude node_modules .env dist/", SECRET),
    ("posix", "cat .env", SECRET),
    ("posix", "cat --file=config/.env", SECRET),
]

ALLOWED = [
    ("posix", 'zip -r release.zip . -x ".env"'),
    ("posix", 'zip -r release.zip . -x .env "*.log" -q'),
    ("posix", "tar --exclude=.env -czf x.tgz ."),
    ("posix", "tar --exclude .env -czf x.tgz ."),
    ("posix", "rsync -a --exclude=.env ./ dist/"),
    ("posix", "rsync -a --exclude .env --exclude .git ./ dist/"),
    ("posix", "grep -r --exclude=.env TODO ."),
    ("posix", "grep -rn --exclude-dir=secrets --exclude=.env TODO src"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_secret_files_named_to_pack_still_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_secret_files_left_out_are_not_read(shell: str, command: str) -> None:
    guard_allows(shell, command)
