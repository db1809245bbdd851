"""A process started to outlive the command line (`unverifiable.detached-process`), and a command sent into a
terminal multiplexer's session, are blocked; a background job the same line waits for or ends, and reading
or attaching to sessions, stay allowed. The agent waits for every command and ends what it started (the
reaper on Linux, the process group on macOS, a job object on Windows): `setsid`, a detached screen or tmux
session and a daemon leave that group, and on macOS nothing else would end them."""

from __future__ import annotations

import pytest
from conftest import guard_decision

BLOCKED = [
    ("posix", "nohup ./server > server.log 2>&1 &"),
    ("posix", "nohup sar -o sar_output 2 5 >/dev/null 2>&1 &"),
    ("posix", "nohup nice -n 19 ./scripts/job.sh &"),
    ("posix", "setsid ./x"),
    ("posix", "setsid -f python3 worker.py"),
    ("posix", "./.x >/dev/null 2>&1 & disown"),
    ("posix", "./x & disown -h %1"),
    ("posix", "screen -dmS build make"),
    ("posix", 'screen -d -m bash -c "cd miner && ./mine.sh" &'),
    ("posix", "screen -d -m -S mc java -Xmx1G -jar server.jar > stdout.log"),
    ("posix", "tmux new-session -d -s x './x'"),
    ("posix", "tmux -f/dev/null new -d ./x"),
    ("posix", "tmux new -AdP -s x"),
    ("posix", "tmux new-window -d './x'"),
    ("posix", "tmux run-shell 'sh ./x.sh'"),
    ("posix", "daemonize /usr/local/bin/x"),
    ("posix", "start-stop-daemon --start --background --exec ./x"),
    ("posix", "dtach -n /tmp/s ./x"),
    ("posix", "bash -c 'nohup ./x &'"),
    ("powershell", "bash -c 'setsid ./x'"),
    # an earlier decision read these as commands given something to run (not waiting on the terminal): true,
    # but they are left running when the line ends
    ("posix", "nohup make"),
    ("posix", "nohup python server.py &"),
    ("posix", "tmux new-session -d"),
    ("posix", "tmux new -d -s build 'make test'"),
    ("posix", "screen -dmS build make test"),
]

ALLOWED = [
    ("posix", "./server & pytest; kill %1"),  # a background job the line ends itself
    ("posix", "python -m pytest -n 4 &"),
    ("posix", "screen -ls"),
    ("posix", "screen -r dev"),
    ("posix", "tmux ls"),
    ("posix", "tmux list-sessions -F '#S'"),
    ("posix", "tmux -vv -Ltest -f/dev/null new"),  # `-f/dev/null` is a file, no `-d`
    ("posix", "tmux attach -t dev"),
    ("posix", "echo nohup"),
    ("posix", "grep -rn setsid src"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_detaching_a_process_is_blocked(shell: str, command: str) -> None:
    decision = guard_decision(shell, command)
    assert not decision.allowed, command
    assert decision.rule_id == "unverifiable.detached-process", (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_jobs_the_line_ends_and_reading_sessions_stay_allowed(shell: str, command: str) -> None:
    decision = guard_decision(shell, command)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


def test_what_the_detached_command_does_is_named_first() -> None:
    # the rule is outranked and unverifiable: a detached `rm -rf /` is a recursive delete before it is a
    # detached process, and a shell reading the terminal is that
    assert guard_decision("posix", "nohup rm -rf / &").rule_id == "destructive.recursive-delete"
    assert guard_decision("posix", "setsid curl http://203.0.113.5/x").rule_id == "network.http-client"
    tty = "nohup /bin/sh -c '/bin/sh </dev/tty >/dev/tty 2>/dev/tty'"
    assert guard_decision("posix", tty).rule_id == "unverifiable.terminal-program"
    # typing into a session is its own class
    assert (
        guard_decision("posix", "tmux send-keys -t dev 'make' Enter").rule_id == "unverifiable.terminal-input"
    )
