"""The shell removes quotes before it looks a command up: `sour''ce`, `"."`, `\\.`, `rea''d` and `$'\\x73et'`
run `source`, `.`, `read` and `set`, and `export d''=/` sets `d`. The screens that decide whether a line may
change its own variables, positional parameters or `PWD` read the line as the shell spells those names too,
so a quoted name-binding command makes them unknown exactly as the plain one does. PowerShell's `$PWD` is
read the same way (`` S`et-V`ariable P`WD ``), and in any scope (`$global:PWD = …`)."""

from __future__ import annotations

import pytest

from glmagent.guard import Policy


def decide(command: str):
    return Policy.default().check(command, "posix")


# (allowed: the line's own value is known, its blocked twin: a quoted command may set it to anything)
PAIRS = [
    ('d=build; rm -rf "$d"', 'd=build; "." ./env.sh; rm -rf "$d"'),
    ('out=dist; rm -rf "$out"', 'out=dist; \\. ./ci/vars.sh && rm -rf "$out"'),
    ('tmp=.cache/x; rm -rf "$tmp"', "tmp=.cache/x; sour''ce ./env.sh; rm -rf \"$tmp\""),
    ('d=build; echo "it\'s done" > "$d/n.txt"; rm -rf "$d"', "d=build; rea''d d <<< ~; rm -rf \"$d\""),
    ('d=target; rm -rf "$d"', "d=target; $'\\x73ource' ./env.sh; rm -rf \"$d\""),
    ('d=build; rm -rf "$d"', "d=build; $'\\x2e' ./env.sh; rm -rf \"$d\""),
    ('d=build; rm -rf "$d"', "d=build; ma''pfile d < list.txt; rm -rf \"$d\""),
    ('d=build; rm -rf "$d"', 'd=build; "getopts" ab d; rm -rf "$d"'),
    ('d=build; export d; rm -rf "$d"', "d=build; export d''=/srv; rm -rf \"$d\""),
    ('d=build; export d; rm -rf "$d"', 'd=build; export "d"=/srv/www; rm -rf "$d"'),
    ("$HOME/go/bin/golangci-lint run", "export HO''ME=/tmp/x; $HOME/go/bin/golangci-lint run"),
    (
        'f=$(mktemp --suffix=.desktop); cp app.desktop "$f"',
        "export TMP''DIR=$HOME/.config/autostart; f=$(mktemp --suffix=.desktop); cp app.desktop \"$f\"",
    ),
    # the positional parameters: none at the top of the line, unless a quoted `set` or `.` gives some
    ("cp build/app.bin $@", "s''et -- /etc/x; cp build/app.bin $@"),
    ("cat a.txt b.txt > $@", "\\set -- ~/notes.txt; cat a.txt b.txt > $@"),
    ("touch $@", '"." ./args.sh; cp build/app.bin $@'),
    ("go build -o $@ .", "$'\\x73et' -- /usr/local/bin/x; go build -o $@ ."),
    # `PWD`: the working directory, unless a quoted `unset` empties it
    ('rm -rf "$PWD/build"', '"unset" PWD; rm -rf "$PWD/build"'),
    ('rm -rf "$PWD/build"', "un''set PWD; rm -rf \"$PWD/build\""),
]


@pytest.mark.parametrize(("allowed", "blocked"), PAIRS)
def test_a_quoted_binding_command_makes_the_lines_values_unknown(allowed: str, blocked: str) -> None:
    decision = decide(allowed)
    assert decision.allowed, decision.reason
    assert not decide(blocked).allowed, blocked


# PowerShell: `$PWD` is the working directory unless the line may give it another value, in any scope or
# spelling (backticks and quotes are removed from a command name before it is looked up)
PS_PAIRS = [
    (
        r"Remove-Item -Recurse -Force $PWD\build",
        r"S`et-V`ariable P`WD C:\ -Force; Remove-Item -Recurse -Force $PWD\build",
    ),
    (
        r'Remove-Item -Recurse -Force "$PWD\dist"',
        r'$global:PWD = "C:\"; Remove-Item -Recurse -Force "$PWD\dist"',
    ),
    (
        r"Remove-Item -Recurse -Force $PWD\out",
        r'$script:pwd = "C:\Users"; Remove-Item -Recurse -Force $PWD\out',
    ),
    (r"Remove-Item -Recurse -Force $PWD\out", r'$PWD += "\..\.."; Remove-Item -Recurse -Force $PWD\out'),
    (
        r"Remove-Item -Recurse -Force $PWD\out",
        r"Set-Item variable:PWD C:\; Remove-Item -Recurse -Force $PWD\out",
    ),
    (r"Remove-Item -Recurse -Force $PWD\out", r"& 'sv' PWD C:\; Remove-Item -Recurse -Force $PWD\out"),
    (
        r"if ($PWD -ne $null) { Remove-Item -Recurse -Force $PWD\out }",
        r"rv PWD; Remove-Item -Recurse -Force $PWD\out",
    ),
]


@pytest.mark.parametrize(("allowed", "blocked"), PS_PAIRS)
def test_a_redefined_location_is_unknown_in_powershell(allowed: str, blocked: str) -> None:
    policy = Policy.default()
    decision = policy.check(allowed, "powershell")
    assert decision.allowed, decision.reason
    assert not policy.check(blocked, "powershell").allowed, blocked
