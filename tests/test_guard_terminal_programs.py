"""Programs that run what is typed at the terminal: a shell or interpreter with no script, file or piped
text (`bash`, `sudo -i`, `nice /bin/sh`, `find -exec /bin/sh`, `python`, `pwsh`), one fed `/dev/tty`, and
editors, debuggers and consoles. An unattended agent has nobody to type, and what would be typed is
unknown. The same programs given their script, a batch flag or asked for their version stay allowed.

The class is wider than shells: a terminal multiplexer or a distribution given no command (`tmux`,
`screen`, `wsl`), a database console given no query (`psql`, `mysql`, `sqlite3 DB`, `redis-cli`), a
subcommand that opens a console (`dotnet fsi`, `rails console`, `poetry shell`, `ansible-test shell`), an
interpreter told to stay interactive (`python -i`), a shell handed to any program by its path (`agetty -l
/bin/sh`), and what `xargs -o` runs (it reads the terminal)."""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "bash"),
    ("posix", "/bin/sh"),
    ("posix", "sudo /bin/sh"),
    ("posix", "sudo -i"),
    ("posix", "su"),
    ("posix", "nice -n 5 /bin/sh"),
    ("posix", "aa-exec /bin/sh"),
    ("posix", "stdbuf -i0 /bin/sh"),
    ("posix", "find . -exec /bin/sh \\; -quit"),
    ("posix", "watch 'reset; exec /bin/sh 1>&0 2>&0'"),
    ("posix", "nohup /bin/sh -c '/bin/sh </dev/tty >/dev/tty 2>/dev/tty'"),
    ("posix", "python3"),
    ("posix", "bash --rcfile ./dev.rc -i"),
    ("posix", "script -q /dev/null"),
    ("posix", "vim"),
    ("posix", "vi notes.txt"),
    ("posix", "emacs notes.txt"),
    ("posix", "nano /etc/hosts"),
    ("posix", "ed"),
    ("posix", "gdb ./a.out"),
    ("posix", "irb"),
    ("posix", "minicom -D /dev/ttyUSB0"),
    ("powershell", "pwsh"),
    ("powershell", "powershell -NoProfile"),
    ("powershell", "cmd"),
    ("powershell", "Invoke-Expression"),
    ("posix", "git-cz"),  # commit-message wizards ask at the terminal
    ("posix", "cz commit"),
]

ALLOWED = [
    ("posix", "bash build.sh"),
    ("posix", "sh -c 'make test'"),
    ("posix", "echo 'make test' | sh"),
    ("posix", "sh < setup.sh"),
    ("posix", "bash --version"),
    ("posix", "python --version"),
    ("posix", "python3 -V"),
    ("posix", "python -m pytest -q"),
    ("posix", "node --help"),
    ("posix", "node -v"),
    ("posix", "ruby script.rb"),
    ("posix", "nice -n 5 make test"),
    ("posix", "gdb -batch -ex run --args ./a.out"),
    ("posix", "vim --version"),
    ("posix", "less README.md"),
    ("powershell", "pwsh -File build.ps1"),
    ("powershell", "pwsh --version"),
    ("powershell", "cmd /c dir"),
    ("posix", "cz bump --yes"),
    ("posix", "git-cz --non-interactive --type=fix --subject='x'"),
]


NOTHING_TO_RUN = [
    ("posix", "tmux"),
    ("posix", "tmux -S /tmp/socket"),
    ("posix", "screen"),
    ("posix", "screen -r"),
    ("powershell", "wsl"),
    ("powershell", "wsl.exe -d Ubuntu -u root"),
    ("posix", "psql"),
    ("posix", "psql -U app mydb"),
    ("posix", "mysql -u root -h db"),
    ("posix", "mariadb app"),
    ("posix", "sqlite3 app.db"),
    ("posix", "redis-cli -h 127.0.0.1"),
    ("powershell", "dotnet fsi"),
    ("posix", "rails console"),
    ("posix", "bundle console"),
    ("posix", "gem open rake"),
    ("posix", "cabal repl"),
    ("posix", "deno"),
    ("posix", "poetry shell"),
    ("posix", "pipenv shell"),
    ("posix", "ansible-test shell"),
    ("posix", "flask shell"),
    ("posix", "python -i tools/setup_db.py"),
    ("posix", "python -im pdb_helpers"),  # `-i` in a cluster before `-m`
    ("posix", "python -Bi tools/setup_db.py"),
    ("posix", "node -i"),
    ("posix", "node -e 'init()' -i"),  # node reads its options on both sides of -e
    ("posix", "m4"),
    ("posix", "crash"),
    ("posix", "bashbug"),
    ("posix", "sash"),
    ("posix", "agetty -l /bin/sh -o -p -a root tty"),
    ("posix", "multitime /bin/sh"),
    ("posix", "tool //bin/sh"),  # a shell by a path written with two slashes, given to any other program
    ("posix", "logsave /dev/null /bin/sh -i"),
    ("posix", "choom -n 0 /bin/sh"),
    ("posix", "tmux -c /bin/sh"),
    ("posix", "echo x | xargs -o -a /dev/null /bin/sh"),
    ("posix", "xargs -a /dev/null /bin/sh"),
    ("posix", "sudo ip netns exec foo /bin/sh"),
]

GIVEN_SOMETHING_TO_RUN = [
    ("posix", "bin/rails -T db"),  # lists the tasks whose names hold `db`
    ("posix", "rails --describe db:migrate"),
    ("posix", "tmux ls"),
    ("posix", "tmux -V"),
    ("posix", "tmux attach -t main"),
    ("posix", "screen -ls"),
    ("powershell", "wsl -l -v"),
    ("powershell", "wsl make test"),
    ("posix", "psql -c 'select 1'"),
    ("posix", "psql -d app -f schema.sql"),
    ("posix", "psql -l"),
    ("posix", "psql app < schema.sql"),
    ("posix", "echo 'select 1;' | psql app"),
    ("posix", "mysql -e 'select 1' app"),
    ("posix", "mysql app < dump.sql"),
    ("posix", "sqlite3 app.db 'select count(*) from t'"),
    ("posix", "sqlite3 app.db < schema.sql"),
    ("posix", "redis-cli ping"),
    ("powershell", "dotnet fsi build.fsx"),
    ("posix", "rails test"),
    ("posix", "gem build app.gemspec"),
    ("posix", "deno test"),
    ("posix", "poetry run pytest"),
    ("posix", "python tools/setup_db.py"),
    # build labels name targets, not files: `//cmd` is a Go `cmd` package, not cmd.exe at the root
    ("posix", "bazel build --platforms=@io_bazel_rules_go//go/toolchain:linux_amd64 //cmd"),
    ("posix", "bazel build //cli:bazel-diff_deploy.jar -c opt"),
    ("posix", "plz build //src/sh:main"),
    # an `-i` after the program is the program's own (coverage's "ignore errors")
    ("posix", "python -Im coverage xml -i"),
    ("posix", "python -m coverage html -i"),
    ("posix", "python tools/setup_db.py -i"),
    ("posix", "python -c 'import sys; print(sys.argv)' -i"),
    ("posix", "python -Wi -m pytest"),  # `i` is -W's value (ignore warnings)
    ("posix", "node tools/gen.js -i"),
    ("posix", "m4 macros.m4"),
    ("posix", "file /bin/sh"),
    ("posix", "ls -l /bin/bash"),
    ("posix", "uv venv -p /usr/bin/python3"),
    ("posix", "shellcheck -s bash scripts/ci.sh"),
    ("posix", "find . -name '*.py' | xargs grep TODO"),
    ("posix", "git ls-files | xargs sh -c 'wc -l \"$@\"' _"),
    ("posix", "ip netns list"),
    ("posix", "hx --health"),
]


def test_programs_that_start_a_console_with_nothing_to_run_are_unverifiable() -> None:
    every_case(
        NOTHING_TO_RUN, lambda shell, command: guard_blocks(shell, command, "unverifiable.terminal-program")
    )


def test_the_same_programs_given_something_to_run_stay_allowed() -> None:
    every_case(GIVEN_SOMETHING_TO_RUN, guard_allows)


def test_a_program_reading_the_terminal_is_unverifiable() -> None:
    every_case(BLOCKED, lambda shell, command: guard_blocks(shell, command, "unverifiable.terminal-program"))


def test_given_a_script_or_asked_for_its_version_it_is_allowed() -> None:
    every_case(ALLOWED, guard_allows)
