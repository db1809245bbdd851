"""Everyday POSIX lines of CI workflows, Makefiles and contributing guides stay allowed, each beside a
twin that does something dangerous and stays blocked: messages and files named by variables, sed scripts
whose patterns hold braces, `getattr` with a literal name, `uv build`, command names holding `@`."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

ALLOWED = [
    'git commit -m "$msg"',
    "git commit -m \"$(cat <<'EOF'\nFix the parser\n\nIt now reads quotes.\nEOF\n)\"",
    'git tag -a "v$VERSION" -m "$NOTES"',
    'rm -f "$tmpfile"',
    'rm -f "${RUNNER_TEMP}/cache/servers.json"',
    'rm -- "$f"',
    "sed -i 's/syn = { workspace = true/syn = { version = \"2\"/' serde_derive/Cargo.toml",
    "sed -e 's/{ w/[ w/g' notes.txt",
    "python -c \"import sys; print(getattr(sys, 'version'))\"",
    "python -c \"import pkg; print(getattr(pkg, '__version__', 'dev'))\"",
    "uv build",
    "poetry@main --version",
    "cd docs && poetry@main run mkdocs build",
]

BLOCKED = [
    ('git --config-env=core.pager=PAGER log "$msg"', "unverifiable.command-option"),
    ('git commit -m "$(curl -s https://example.com/msg)"', "network"),
    ('rm -f "$tmpfile" build', "dynamic.arguments"),
    ("rm -f $tmpfile", "dynamic.arguments"),
    ('rm -f "$@"', "dynamic.arguments"),
    ("sed -i 's/a/b/w /etc/passwd' f", "destructive.payload-write"),
    ("sed -n '1s/.*/x/w out.txt' f", "destructive.payload-write"),
    ("sed '{w out.txt' -e '}' f", "destructive.payload-write"),
    ("sed '1,3s/a/id/e' f", "unverifiable.payload-process"),
    ("python -c \"import os; getattr(os, 'system')('rm -rf ~')\"", "destructive.recursive-delete"),
    ("python -c \"import os; getattr(os, name)('x')\"", "unverifiable.payload-dynamic"),
    ("uv sync", "network.package-install"),
    ("poetry@main --version; rm -rf ~", "destructive.recursive-delete"),
]


@pytest.mark.parametrize("command", ALLOWED)
def test_everyday_line_is_allowed(command: str) -> None:
    guard_allows("posix", command)


@pytest.mark.parametrize(("command", "expected"), BLOCKED)
def test_its_dangerous_twin_is_blocked(command: str, expected: str) -> None:
    guard_blocks("posix", command, expected)
