"""What a search's options say about the files it reads, and a git LFS command that stays local.

- ripgrep's `-g`/`--glob`/`--iglob` take a glob: a glob naming a secret file (`rg -g '.env' KEY`) makes the
  search read it, so it is a secret read like `rg KEY .env`; the pattern is the first operand after the
  option's value, not the glob. A glob negated with `!` (`rg -g '!.env' TODO`, `--glob=!*.pem`) leaves the
  files out, as `grep --exclude=.env` does. A file named as an operand is read whatever the globs say.
- Other valued options of the searchers (`-t py`, `--type-not`, `--max-count 3`, `--include '*.c'`) take the
  next word as their value, so the pattern after them is still the pattern (`rg -t py .env src` looks for the
  text `.env`).
- `git lfs checkout` fills the working copy from LFS objects already fetched; `git lfs pull` and `fetch`
  download them.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

SECRET = "env.secret-files"
REMOTE = "network.git-remote"

BLOCKED = [
    ("posix", "rg -g '.env' API_KEY", SECRET),
    ("posix", "rg -g '*.env' TOKEN", "env"),
    ("posix", "rg --glob .env.production SECRET", SECRET),
    ("posix", "rg --iglob 'prod.env' -n password", SECRET),
    ("posix", "rg -g '!.env' KEY .env", SECRET),
    ("posix", "rg --glob '!*.md' TOKEN .env.local", SECRET),
    ("posix", "rg -g '!.env' password ~/.ssh", "env"),
    ("posix", "rg -t py -i token .env", SECRET),
    ("posix", "rg -C 3 password .env", SECRET),
    ("posix", "grep --include .env -rn KEY .", SECRET),
    ("posix", "git lfs pull", REMOTE),
    ("posix", "git lfs fetch --all", REMOTE),
    ("posix", "git lfs push origin main", REMOTE),
]

ALLOWED = [
    ("posix", "rg -g '!.env' TODO"),
    ("posix", "rg -g '!*.env' -n FIXME src"),
    ("posix", "rg --iglob '!.env' console.log"),
    ("posix", "rg --glob='!.env*' -l import"),
    ("posix", "rg -g!.env deprecated"),
    ("posix", "rg -g '!prod.env' -g '!id_rsa' -g '*.py' TODO"),
    ("posix", "rg --glob '!*.pem' key src"),
    ("posix", "rg -g '*.py' TODO"),
    ("posix", "rg -t py .env src"),
    ("posix", "rg --type-not md .env"),
    ("posix", "rg -m 3 .env docs"),
    ("posix", "rg -n .env .gitignore"),
    ("posix", "grep --include '*.py' -rn .env src"),
    ("posix", "git lfs checkout"),
    ("posix", "git lfs checkout assets/logo.png"),
    ("posix", "git lfs ls-files"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
