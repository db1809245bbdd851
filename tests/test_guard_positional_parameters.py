"""The agent runs a line as `sh -c LINE` with no arguments, so at the line's top level all the positional
parameters (`$@`, `"$@"`, `$*`, `${@}`) are none: `pytest "$@"` runs `pytest`, and a Makefile recipe's
`cc -o $@ x.c` or `sed … > $@` names no file (the shell refuses `> $@` and writes nothing). They stay
unknown where something may give the script some: a `set` with operands, `eval`, `source`, `.`, a function's
body, a nested `sh -c '…' _ x`, and in a command name (`c$@at`, written to hide a name). `$1` stays unknown
everywhere: command references write it for an operand the reader fills in."""

from __future__ import annotations

import pytest

from glmagent.guard import Policy


def decide(command: str, cwd: str | None = None):
    return Policy.default().check(command, "posix", cwd=cwd)


# (allowed with no positional parameters, its blocked twin where the line gives them a value or reads them
# somewhere else)
PAIRS = [
    ('pytest -q "$@"', 'set -- /etc; pytest -q "$@" && rm -rf "$@"'),
    ("touch $@", "f() { touch $@; }; f /etc/x"),
    ("cp build/app.bin $@", "set -- ~/.bashrc; cp build/app.bin $@"),
    ("sed -e 's/@VERSION@/1.0/' config.h.in > $@", "sh -c 'sed -e s/a/b/ x > $1' _ /etc/profile"),
    ("cat docs/header.md docs/body.md > $@.tmp && mv $@.tmp docs/all.md", "cat docs/*.md > ~/.profile"),
    ("go build -o $@ ./cmd/server", "eval 'set -- /usr/bin/ls'; go build -o $@ ./cmd/server"),
    ("coverage run -m pytest ${@}", ". ./env.sh; coverage run -m pytest ${@} && rm -rf ${@}"),
    ("mypy $* src", "source ./args.sh && chmod -R 777 $*"),
    ("go build -o $@ .", ". ./args.sh; go build -o $@ ."),  # `.` as an operand sources nothing
    ("python gen.py >> $@", "x() { python gen.py >> $@; }; x ~/.bashrc"),
    ('set -euo pipefail; ruff check "$@"', 'set -e /etc; ruff check "$@" > $@'),
]


@pytest.mark.parametrize(("allowed", "blocked"), PAIRS)
def test_all_positional_parameters_are_none_at_the_top_of_the_line(allowed: str, blocked: str) -> None:
    decision = decide(allowed)
    assert decision.allowed, decision.reason
    assert not decide(blocked).allowed


@pytest.mark.parametrize(
    "command",
    [
        "c$@at /etc/passwd",  # a name hidden by an empty expansion
        '"$@"',  # the program is whatever the caller hands
        "xattr -d com.apple.macl $1",  # `$1`: an operand left to fill in
        "rm -rf $1/",
        'unshare -UrmC ./escape.sh "$1" "$2"',
        "sh -c 'rm -rf \"$@\"' _ /",
        'rm -rf "$@"',  # nothing to delete, but a recursive delete is asked for
    ],
)
def test_names_and_single_parameters_stay_unknown(command: str) -> None:
    assert not decide(command).allowed


def test_no_word_at_all_where_they_are_none() -> None:
    # `find "$@" -delete` is `find -delete`: it sweeps the working directory, as the shell runs it.
    decision = decide('find "$@" -delete')
    assert not decision.allowed
    assert decision.rule_id == "destructive.find-delete"
    assert decide('find "$@" -name "*.pyc" -delete').allowed


@pytest.mark.parametrize(
    "command",
    [
        'git -c gc.reflogExpire=0 -c gc.reflogExpireUnreachable=0 gc "$@"',
        "git -c gc.pruneExpire=now gc",
        "git -c gc.pruneExpire=1.hour.ago gc --quiet",
    ],
)
def test_gc_grace_periods_given_as_settings_destroy_history(command: str) -> None:
    decision = decide(command)
    assert not decision.allowed
    assert decision.rule_id == "destructive.git-history"


@pytest.mark.parametrize("command", ["git -c gc.pruneExpire=never gc", "git -c gc.auto=0 gc", 'git gc "$@"'])
def test_gc_keeping_history_stays_allowed(command: str) -> None:
    assert decide(command).allowed
