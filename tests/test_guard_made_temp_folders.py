"""A temp folder or file the line makes itself is judged as the temp path it is.

A variable set once, at the line's top level, from `$(mktemp -d)` (`$(mktemp)`, `$(mktemp -d -t x.XXXXXX)`,
`$(mktemp -d "${TMPDIR:-/tmp}/x.XXXX")`) names a new folder in the temp directory: writing into it, entering
it, and deleting it whole (`rm -rf "$tmp"`, `rm -rf "${tmp:?}/x"`, also in a `trap` body, which sees the
line's constants) are fine. The variable set twice or in a branch, a folder made elsewhere (`-p ~`,
`--tmpdir=/etc`, a `TMPDIR` the line points), a path leaving it (`"$tmp"/..`), or a path below it that an
empty variable would move to the root (`"$tmp"/*`) stay blocked, as does a `trap` body's unknown variable.
"""

from __future__ import annotations

import pytest

from glmagent.guard import Policy

# (allowed, blocked twin)
TWINS = [
    ('tmp=$(mktemp -d) && cp -r dist "$tmp/" && rm -rf "$tmp"', 'tmp=$(mktemp -d -p ~) && rm -rf "$tmp"'),
    (
        'work=$(mktemp -d); trap \'rm -rf "$work"\' EXIT; cp -r build "$work/"',
        'work=$(mktemp -d -p "$HOME"); trap \'rm -rf "$work"\' EXIT',
    ),
    ("out=build; trap 'rm -rf \"$out\"' EXIT", "out=src; trap 'rm -rf \"$out\"' EXIT"),
    ("scratch=$(mktemp -d); trap 'rm -rf -- \"$scratch\"' EXIT INT TERM", "trap 'rm -rf \"$scratch\"' EXIT"),
    ('tmp=$(mktemp -d) && cd "$tmp" && tar xzf ../release.tgz', 'read tmp; cd "$tmp" && tar xzf ../x.tgz'),
    ('tmp=$(mktemp -d); rm -rf "${tmp:?}"', 'tmp=$(mktemp -d); rm -rf "$tmp"/..'),
    ('stage=$(mktemp -d); rm -rf "${stage:?}/cache"', 'stage=$(mktemp -d); rm -rf "$stage"/*'),
    (
        'd=$(mktemp -d -t ci.XXXXXX) && git archive HEAD | tar -x -C "$d" && rm -rf "$d"',
        'd=$(mktemp -d --tmpdir=/etc ci.XXXXXX) && rm -rf "$d"',
    ),
    (
        't="$(mktemp -d "${TMPDIR:-/tmp}/rel.XXXXXX")"; trap \'rm -rf "$t"\' EXIT; cp README.md "$t/"',
        'export TMPDIR=$HOME; t=$(mktemp -d); rm -rf "$t"',
    ),
    (
        'venv=$(mktemp -d); python -m venv "$venv"; rm -rf "$venv"',
        'TMPDIR=.git venv=$(mktemp -d); rm -rf "$venv"',
    ),
    ("tmp=`mktemp -d`; cp -r docs $tmp; rm -rf $tmp", "tmp=`mktemp -d`; tmp=$HOME; rm -rf $tmp"),
    (
        'b=$(mktemp -d /tmp/build.XXXXXX) && rm -rf "$b"',
        'if true; then b=$(mktemp -d); fi; rm -rf "$b"',
    ),
    (
        'cov=$(mktemp -d) && pytest --cov-report=xml:"$cov/c.xml" && rm -r "$cov"',
        'cov=$(mktemp -d x.XXXX) && rm -r "$cov"',
    ),
    (
        'pkg=$(mktemp -d); trap "rm -rf $pkg" EXIT; tar -xzf dist/app.tgz -C "$pkg"',
        'pkg=$(mktemp -d); trap "rm -rf $pkg $other" EXIT',
    ),
    ('f=$(mktemp); go list -json ./... > "$f"; rm -f "$f"', 'f=$(mktemp); cp id_rsa "$f/../../etc/cron.d/x"'),
    (
        'stage=$(mktemp -d --tmpdir pkg.XXXX); cp -R lib "$stage"; rm -rf "$stage"',
        'for i in 1 2; do stage=$(mktemp -d); done; rm -rf "$stage"',
    ),
    ('w=$(mktemp -d) && rm -rf "$w"', 'w=$(mktemp -d) && rm -rf "$w" ~/.ssh'),
]


@pytest.mark.parametrize(("allowed", "blocked"), TWINS)
def test_the_lines_own_temp_folder_is_a_temp_path(allowed: str, blocked: str) -> None:
    policy = Policy.default()
    decision = policy.check(allowed, "posix")
    assert decision.allowed, (allowed, decision.rule_id)
    assert not policy.check(blocked, "posix").allowed, blocked
