"""Globs that expand to credential files: `cat /home/*/.*hist*` names every user's shell history only once
the shell expands it, so a path rule reading the word literally would let it pass. A glob from the root or a
home folder is compared with the path rules' globs component by component; what it may reach is judged as
that path. So is a name in the project that starts with what it names (`.env*`, `apps/*/.en?`): the
secret file it reaches is read as if named. A glob that says nothing of the name (`/usr/lib/*`, `~/*`,
`src/*.py`, `*.json`) and one that cannot reach a hidden file (a shell's `*` skips names starting with `.`)
stay allowed.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks, guard_decision

BLOCKED = [
    ("posix", "cat /home/*/.*hist*"),
    ("posix", "cat /Users/*/.*history"),
    ("posix", "tail -n 20 ~/.*_hist*"),
    ("posix", "cat /root/.*"),
    ("posix", "cat /etc/shad*"),
    ("posix", "cat /etc/sh?dow"),
    ("posix", "ls /home/*/.ssh/*"),
    ("posix", "cat /home/*/.aws/cred*"),
    ("posix", "cat ~/.config/*/credentials*"),
    ("posix", "cat /etc/ssl/private/*"),
    ("posix", "grep -i pass /home/*/.config/gh/*"),
    ("powershell", "Get-Content C:\\Users\\*\\.ssh\\*"),
    ("posix", "grcov . --ignore /*/.cargo/*"),  # unquoted: the shell hands grcov the files themselves
    ("posix", "rsync -a --exclude-from '/home/*/.ssh/*' src/ out/"),  # a file of patterns, read
    ("posix", "prettier --check '/home/*/.aws/*'"),  # a pattern of files to read
    ("powershell", "gc C:\\Users\\*\\AppData\\Roaming\\Microsoft\\Windows\\PowerShell\\PSReadLine\\*"),
    # a project's secret files by a glob that starts with their name
    ("posix", "cat .env*"),
    ("posix", "grep -r ISAP apps/backend/.env*"),
    ("posix", "cat apps/backend/.en?"),
    ("posix", "head -n 5 config/secrets*"),
    ("powershell", "Get-Content .env*"),
]

ALLOWED = [
    ("posix", "ls /usr/lib/*"),
    ("posix", "ls /usr/lib/*.so"),
    ("posix", "cat /etc/*-release"),
    ("posix", "ls ~/*"),  # a shell's `*` skips the hidden files where the secrets are
    ("posix", "cat /home/*/*"),
    ("posix", "ls /opt/*/bin"),
    ("posix", "ls src/*.py"),
    ("posix", "cat *"),
    ("posix", 'prettier --write "**/*.{js,ts}"'),
    # a quoted pattern of files to leave out reads none of them
    ("posix", 'grcov . --ignore "target/*" --ignore "/*/.cargo/*" -o lcov.info'),
    ("posix", "tar czf dist/src.tgz --exclude '/*/.aws/*' src"),
    ("powershell", "Get-ChildItem C:\\Windows\\*.log"),
    ("powershell", "Get-ChildItem .\\src\\*.cs"),
    ("posix", "cat *.json"),  # says nothing of the names it reaches
    ("posix", "cat README*"),
    ("posix", "cat docs/*.md"),
    ("posix", "test -f .env*"),  # whether one is there
    ("posix", "cat .env?"),  # `.env` and `.env.x` are too short and too long for it
    ("posix", "./tools/deps.py -f -v src/platform/.* src/utils/.*"),  # any hidden name: nothing of which
    ("posix", "zip -r out.zip . -x .git\\* -x generated\\*"),  # escaped: zip's pattern, not the shell's
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_globs_that_may_expand_to_credential_files_are_read_as_them(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_globs_naming_no_credential_file_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


def test_the_reason_names_the_path_the_glob_may_reach() -> None:
    d = guard_decision("posix", "cat /home/*/.*hist*")
    assert d.rule_id == "env.secret-files"
    assert "which may expand to /home/*/.x_history" in d.reason


@pytest.mark.parametrize(
    "command",
    [
        "ls " + " ".join(f"/srv/d{i}/*.txt" for i in range(40)),  # more glob words than are compared
        "cat /" + "/".join(["*"] * 100),  # deeper than a glob is compared
        "cat /home/*/" + "*a" * 3000,  # longer than a path
        "cat /home/*/." + "*" * 300,  # a component longer than a file name
    ],
)
def test_globs_too_many_or_too_large_to_compare_are_blocked(command: str) -> None:
    d = guard_decision("posix", command)
    assert not d.allowed
    assert d.rule_id == "size.exceeded"


def test_globs_from_a_command_line_match_as_fnmatch_matches_them() -> None:
    """`glob_match` and `glob_regex_source` read a glob in one pass where fnmatch looks to the end for every
    `[` no `]` closes (20 kB of `A[` took seconds), and `glob_units` is the least length a matching name has:
    on every glob of up to five characters from letters, brackets, `!`, `-` and wildcards, against names of
    those characters, each agrees with fnmatch."""
    import itertools
    import re
    from fnmatch import fnmatchcase, translate

    from glmagent.guard._globbed import closed_sets, glob_match, glob_regex_source, glob_units

    names = ["".join(n) for size in range(5) for n in itertools.product("a[]!-", repeat=size)]
    matched = 0
    for size in range(6):
        for letters in itertools.product("ab[]!*?-", repeat=size):
            glob = "".join(letters)
            ours = re.compile(glob_regex_source(glob))
            theirs = re.compile(translate(glob))
            least = None
            for name in names[:: 1 if size <= 3 else 5 if size == 4 else 23]:
                expected = fnmatchcase(name, glob)
                assert glob_match(name, glob) == expected, (glob, name)
                assert (ours.match(name) is not None) == (theirs.match(name) is not None), (glob, name)
                if expected:
                    matched += 1
                    least = len(name) if least is None else min(least, len(name))
            if size <= 3 and least is not None:
                assert glob_units(glob) == least, glob
    assert matched > 10_000
    assert closed_sets("A[" * 3 + "b]" + "A[" * 2) == "A[A[A[b]A[[]A[[]"
    assert not glob_match("environ", "A[" * 50_000)  # more characters than the name has: no expression
    assert glob_units("[a-z][!]]x*" + "A[" * 10) == 3 + 20
