"""A variable a script sets once, at its top level, to a plain literal is that literal wherever the script
uses it later: CI steps name their output once (`out=report.html`, then `>> $out` in a loop), and the policy
judges the file they write instead of refusing a name "only known at run time". Anything that could change
the value between the assignment and the use keeps the variable unknown, which blocks as before: a second
assignment, one inside a branch, loop, function or subshell, a command that binds names (`read`, `.`,
`eval`, `IFS=`), a value that word splitting or globbing would change, a use before the assignment."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

KNOWN = [
    "output=issue-body.html\ntouch $output\nfor f in ./output/*; do\n  echo '## result' >> $output\ndone",
    "BIN_NAME=pnpr-code-target\nmv target/release/pnpr.exe $BIN_NAME.exe",
    'export DIST=dist; mkdir -p "$DIST/wheels"; cp build/app.whl "${DIST}/wheels/"',
    "log=build/test.log; make test >> $log 2>&1",
]

STILL_UNKNOWN = [
    'if [ -n "$CI" ]; then out=/etc/motd; else out=build/motd; fi\necho x >> $out',
    "out=build/x; out=~/.bashrc; echo x >> $out",
    "out=build/x; read out; echo x >> $out",
    "out=build/x; . ./env.sh; echo x >> $out",
    "f() { echo x >> $out; }\nout=build/x\nf",
    "(out=build/x); echo x >> $out",
    'out="build/a b"; echo x >> $out',
    "IFS=/; out=build/x; echo x >> $out",
    "out=build/x; : ${out:=/etc/x}; echo x >> $out",
    "true && out=build/x; echo x >> $out",
    "out=build/x; for out in /etc/x; do :; done; echo x >> $out",
]

REVEALED = [
    ("out=~/.bashrc; echo 'alias ls=rm' >> $out", "containment.write-outside-project"),
    ("d=/; rm -rf $d", "destructive.recursive-delete"),
    ("f=/proc/self/environ; cat $f", "env.proc-environ"),
    ('hooks=.git/hooks; cp tools/pre-commit "$hooks/pre-commit"', "containment"),
]


@pytest.mark.parametrize("command", KNOWN)
def test_a_script_constant_is_its_value(command: str) -> None:
    guard_allows("posix", command)


@pytest.mark.parametrize("command", STILL_UNKNOWN)
def test_a_variable_that_may_change_stays_unknown(command: str) -> None:
    guard_blocks("posix", command, "unverifiable")


@pytest.mark.parametrize(("command", "expected"), REVEALED)
def test_a_constant_is_judged_by_what_it_names(command: str, expected: str) -> None:
    guard_blocks("posix", command, expected)
