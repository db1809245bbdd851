"""A credential written out on a command line is handed to the program as the credential in use.

`tool --access-key AKIA…`, `--service-account-token eyJ….eyJ….…`, `gh auth login --with-token ghp_…`: the
program acts as whoever the key belongs to, and the line itself lands in logs and the model's context. A word
that is an AWS access key id, a signed JSON web token, or a GitHub or Slack token blocks. A search for such a
prefix, a key mentioned inside a longer quoted text, and look-alike words stay allowed.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "python3 x.py --access-key AKIAIOSFODNN7EXAMPLE --secret-key x", "env.credential-literal"),
    ("posix", "./sync.sh --key-id ASIAXXXXXXXXXXXXXXXX", "env.credential-literal"),
    ("posix", "jwt decode eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc", "env.credential-literal"),
    ("powershell", ".\\tool.exe -Token eyJ0eXAiOiJKV1QifQ.eyJhdWQiOiJ4In0.x", "env.credential-literal"),
    ("posix", "./release.py --token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "env.credential-literal"),
    ("posix", "slack-export --token xoxp-1234-5678-abcd", "env.credential-literal"),
    ("posix", "./check-identity.py -k 'AKIAIOSFODNN7EXAMPLE'", "env.credential-literal"),
]

ALLOWED = [
    ("posix", "grep -rn AKIA src"),
    ("posix", "rg 'ghp_[A-Za-z0-9]{36}' src"),
    ("posix", "git log --grep=eyJ"),
    ("posix", "echo AKIA_PREFIX"),
    ("posix", "python -m app --region asia-southeast1"),
    ("posix", "pytest -k test_jwt_decode"),
    ("posix", "echo 'export KEY=AKIAIOSFODNN7EXAMPLE'"),  # mentioned inside a longer text
]


def test_a_credential_on_the_command_line_is_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_searches_and_mentions_of_one_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
