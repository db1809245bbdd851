"""Programs and scripts from outside the project: a program named by a path outside the working directory
and the folders programs are installed in (`/tmp/x`, `C:\\Users\\Public\\x.exe`, `../other/run.sh`,
`./x` after `cd /tmp`), a script given to an interpreter or module loader from there, is code nobody reviewed
for this task. The project's own programs, installed tools by name or by their install path stay allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from glmagent.guard import Policy

BLOCKED = [
    ("posix", "/tmp/payload"),
    # a desktop entry's `Exec=` line is what a launcher runs
    ("posix", "gio launch /tmp/x.desktop"),
    ("posix", "kioclient exec /tmp/x.desktop"),
    ("posix", "dex ~/.config/autostart/x.desktop"),
    # macOS workflows and compiled AppleScript are programs Automator and the script runners run
    ("posix", "/usr/bin/automator /tmp/.mdwork.wflow"),
    ("posix", "automator ~/Library/Services/x.workflow"),
    ("posix", "automator -i in.txt /Users/Shared/x.workflow"),
    ("posix", "osacompile -o /tmp/y.app /tmp/x.scpt"),
    ("posix", "/path/to/command --flag"),
    ("posix", "bash /tmp/x.sh"),
    ("posix", "python /opt/AtomicRedTeam/x.py"),
    ("posix", "cd /tmp && ./x"),
    ("posix", "source /tmp/env.sh"),
    ("posix", "../other-project/run.sh"),
    ("posix", "systemd-run --scope /path/to/command"),  # (without --scope: containment.service-unit)
    ("posix", "psql -U root -f /home/dev/streams/dump_remote.sql"),  # SQL from outside: it may drop anything
    ("powershell", "sqlcmd -S . -i C:\\Temp\\drop.sql"),
    ("posix", "cd $DIR && ./run.sh"),
    ("powershell", "C:\\Users\\Public\\payload.exe"),
    ("powershell", "& 'C:\\AtomicRedTeam\\atomics\\T1055\\bin\\T1055.exe'"),
    ("powershell", "Start-Process C:\\Users\\Public\\x.exe"),
    ("powershell", "Import-Module C:\\AtomicRedTeam\\PowerDump.ps1"),
    ("powershell", "pwsh -File C:\\Temp\\x.ps1"),
    ("powershell", ". C:\\Users\\Public\\x.ps1"),
    # cmd's way to run a program whose path holds spaces: a line that is only the quoted path.
    ("powershell", '"C:\\AtomicRedTeam\\Payloads Dir\\23 tool.exe"'),
    ("powershell", "'C:\\Users\\Public\\run.bat'"),
    ("powershell", '"C:\\Users\\Public\\x.js"'),
    ("powershell", 'cd C:\\src; "C:\\Temp\\dropper.exe"'),
    # Named through an environment variable's folder, another drive's current folder, or a Windows URI.
    ("powershell", '"%PROGRAMFILES(x86)%/Radmin Viewer 3/Radmin.exe"'),
    ("powershell", "%PROGRAMFILES%\\dcrypt\\dcrypt.exe"),
    ("powershell", 'elixir %ELS_ELIXIR_OPTS% "%~dp0launch.exs"'),  # a script by a variable's name
    ("powershell", "'%APPDATA%\\x\\run.bat'"),
    ("powershell", 'Start-Process -FilePath "C:Program Files (x86)\\SupRemo\\SRServer.exe"'),
    ("powershell", 'Start-Process "shell:AppsFolder\\Microsoft.WindowsCalculator_8wekyb3d8bbwe!App"'),
    ("powershell", "start shell:startup"),
    ("powershell", 'Start-Process "ms-settings:"'),
    ("posix", '"%PROGRAMFILES(x86)%/Radmin Viewer 3/Radmin.exe"'),
    # a one-letter option written together with the script it loads
    ("posix", "ruby -r/tmp/x.rb -e 1"),
    ("posix", "node -r/tmp/hook.js app.js"),
    ("posix", "ruby -r../other/x.rb spec.rb"),
    # the program read on standard input from a file, as `sh FILE` reads it
    ("posix", "sh < /opt/evil.sh"),
    ("posix", "bash -s < /opt/evil.sh"),
    ("posix", "python3 < /opt/x.py"),
    ("posix", "psql app < ../other/drop.sql"),
    # a file named with `@`, whose commands or options the program reads (sqlplus's scripts, response files)
    ("posix", "sqlplus -s user/pass @/opt/x.sql"),
    ("posix", "sqlplus -s / as sysdba @../other/drop.sql"),
    ("posix", "gcc @/tmp/args.rsp x.c"),
    # a script an interpreter opens by a bare name is a file in the working directory a `cd` moved to
    ("posix", "cd /tmp && python x.py"),
    ("posix", "cd /testbed && python reproduce_issue.py"),
    ("posix", "cd /tmp && bash x.sh"),
    ("posix", "cd /tmp && node x.js"),
    ("posix", "cd /tmp && pytest test_x.py"),
    ("posix", "cd /tmp && python3 -m pytest test_x.py"),
    ("posix", "cd ~/other && source env.sh"),
    ("posix", "cd /tmp && pwsh -File x.ps1"),
    ("powershell", "cd C:\\Temp; python x.py"),
    # `/x.ps1` on Windows is the current drive's root, not a switch
    ("powershell", "pwsh -File /x.ps1"),
    ("powershell", "python /x.py"),
    ("powershell", "Invoke-Pester -Path /x.Tests.ps1"),
    ("powershell", "Invoke-Build -File /x.build.ps1"),
]

ALLOWED = [
    ("posix", "./build.sh"),
    ("posix", "ruby -r./lib/setup.rb -e 1"),
    ("posix", "gcc -I/usr/include -L/usr/lib -o out x.c"),
    ("posix", "desktop-file-validate data/org.example.App.desktop"),
    ("posix", "automator workflows/Resize.workflow"),
    ("posix", "automator -v ./Export.wflow"),
    ("posix", "osacompile -o build/x.scpt src/x.applescript"),
    ("posix", "gio launch /usr/share/applications/firefox.desktop"),
    ("posix", "bin/tool --check"),
    ("posix", "cd build && ./app --self-test"),
    ("posix", "/usr/bin/python3 -m pytest"),
    ("posix", "/bin/ls"),
    ("posix", "~/.cargo/bin/cargo test"),
    ("posix", "~/.local/bin/ruff check ."),
    ("posix", "bash scripts/ci.sh"),
    ("posix", "python tools/gen.py"),
    ("posix", "psql -f db/schema.sql app_test"),
    # an installed program run by its interpreter, doing everyday work
    ("posix", "node /usr/local/bin/npm test"),
    ("posix", "python3 /usr/bin/pytest -q"),
    ("posix", "python3 ~/.local/bin/ruff check ."),
    ("posix", "python bin/manage.py test"),
    ("posix", "node ./bin/cli.js --help"),
    ("posix", "cat /usr/share/doc/app/example.sql"),
    ("posix", ". /etc/os-release"),
    ("posix", ". .venv/bin/activate"),
    ("powershell", ".\\build.ps1"),
    ("powershell", "C:\\Windows\\System32\\where.exe git"),
    ("powershell", "& 'C:\\Program Files\\Git\\bin\\git.exe' status"),
    ("powershell", "Import-Module ./build/Pester.psd1"),
    ("powershell", "Import-Module Pester"),
    ("powershell", '"C:\\Program Files\\Git\\bin\\git.exe"'),
    ("powershell", '".\\tools\\gen.exe"'),
    ("powershell", '& "C:\\Program Files\\dotnet\\dotnet.exe" build'),
    ("powershell", "./build.ps1 -Configuration:Release"),
    ("powershell", "Microsoft.PowerShell.Management\\Get-ChildItem"),
    ("powershell", "C:"),
    ("posix", "./configure --prefix=%PREFIX%"),
    ("posix", "sh < scripts/ci.sh"),
    ("posix", "mysql -u root app < db/schema.sql"),
    ("posix", "psql < /dev/null"),
    ("posix", "while read -r l; do echo $l; done < /opt/list.txt"),  # data for `read`, not a program
    ("posix", "cat < /opt/x.sh"),
    ("posix", "sqlplus -s user/pass@db @scripts/migrate.sql"),
    ("posix", "gcc @build/args.rsp x.c"),
    ("posix", "pnpm --filter @scope/pkg build"),
    ("posix", "git log @{u}..HEAD"),
    ("posix", "python x.py"),
    ("posix", "cd src && python x.py"),
    ("posix", "cd tests && pytest test_x.py"),
    ("posix", "cd /tmp && python -c 'print(1)'"),
    ("posix", "cd /tmp && sed -n 1,20p x.py"),  # text it reads
    ("posix", "cd /tmp && cat x.py"),
    ("posix", "source activate myenv"),  # conda's script, found on PATH
    ("powershell", "pwsh -File ./build.ps1"),
    ("powershell", "cmd /c /?"),
    ("powershell", "cl.exe /D_USRDLL /I. example.cpp /LD /FeImGui.dll /link"),  # switches, not root paths
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_a_program_from_outside_the_project_is_unverifiable(shell: str, command: str, tmp_path: Path) -> None:
    decision = Policy.default().check(command, shell, cwd=tmp_path / "project")  # type: ignore[arg-type]
    assert not decision.allowed, command
    assert decision.rule_id == "unverifiable.outside-program", (command, decision.reason)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_project_programs_and_installed_tools_stay_allowed(shell: str, command: str, tmp_path: Path) -> None:
    decision = Policy.default().check(command, shell, cwd=tmp_path / "project")  # type: ignore[arg-type]
    assert decision.allowed, (command, decision.rule_id, decision.reason)


def test_a_project_in_the_temp_directory_runs_its_own_programs(tmp_path: Path) -> None:
    project = tmp_path / "work"
    assert Policy.default().check(f"{project}/build.sh", "posix", cwd=project).allowed
    assert not Policy.default().check(f"{tmp_path}/other/x.sh", "posix", cwd=project).allowed


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("posix", "/tmp/venvs/proj/bin/python check.py"),
        ("posix", "~/.virtualenvs/proj/bin/pytest -q"),
        ("posix", "/home/dev/.cache/pypoetry/virtualenvs/x-py3.12/bin/python -m pytest"),
        ("powershell", "C:\\Users\\dev\\envs\\proj\\Scripts\\python.exe check.py"),
    ],
)
def test_an_environment_interpreter_outside_the_project_is_an_installed_tool(
    shell: str, command: str, tmp_path: Path
) -> None:
    assert Policy.default().check(command, shell, cwd=tmp_path / "p").allowed, command  # type: ignore[arg-type]


def test_any_other_program_in_such_a_folder_is_not() -> None:
    assert not Policy.default().check("/tmp/venvs/proj/bin/payload", "posix", cwd="/work/p").allowed


@pytest.mark.parametrize(
    "command",
    [
        # A block's value, text that is more than a path, a path handed to a command: PowerShell prints them.
        'if ($IsWindows) { "C:\\Temp\\x.exe" } else { "/opt/x" }',
        '$exe = "C:\\Temp\\x.exe"',
        '"Built C:\\Temp\\x.exe"',
        'Write-Output "C:\\Temp\\x.exe"',
        '"C:\\Temp\\notes.txt"',
    ],
)
def test_a_quoted_path_that_is_only_printed_stays_allowed(command: str, tmp_path: Path) -> None:
    decision = Policy.default().check(command, "powershell", cwd=tmp_path / "project")
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("python3 /usr/bin/pip install requests", "network.package-install"),
        ("node /usr/bin/npm install --unsafe-perm", "network.package-install"),
        ("python3 ~/.local/bin/poetry publish", "network.publish"),
        ("ruby /usr/bin/gem install rails", "network.package-install"),
        ("python3 /usr/local/bin/pip3 install --user x", "network.package-install"),
        # a shell given an installed program's own script, in any folder outside the project
        ("sh /usr/local/qcloud/stargate/admin/uninstall.sh", "destructive.machine-state"),
        ("bash /opt/homebrew/share/agent/uninstall.sh", "destructive.machine-state"),
    ],
)
def test_an_interpreter_running_an_installed_program_runs_that_program(
    command: str, expected: str, tmp_path: Path
) -> None:
    # The script in a program folder is the program itself: it does what running it by its path does.
    decision = Policy.default().check(command, "posix", cwd=tmp_path / "project")
    assert decision.rule_id == expected, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(
    "command", ["bash ./uninstall.sh", "sh scripts/uninstall.sh", "sh /usr/local/bin/setup-env.sh"]
)
def test_a_script_s_own_name_decides_only_outside_the_project(command: str, tmp_path: Path) -> None:
    # the project's script merely named like an installed program's uninstaller stays the project's
    decision = Policy.default().check(command, "posix", cwd=tmp_path / "project")
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize("command", ['sh < "$F"', 'mysql app < "$SQL_FILE"', 'sqlite3 app.db < "$F"'])
def test_a_program_read_from_a_file_only_known_at_run_time_is_unknown(command: str, tmp_path: Path) -> None:
    decision = Policy.default().check(command, "posix", cwd=tmp_path / "project")
    assert not decision.allowed and decision.rule_id == "dynamic.script", (command, decision.rule_id)
