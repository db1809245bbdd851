"""Code found through a search path, a build tool's program variables, and git run on another repository.

A folder put first on a search path (`PATH`, `PYTHONPATH`, `LD_LIBRARY_PATH`, `PSModulePath`…), or every
folder of a value that replaces it, is where programs now find code: one outside the project and the program
folders is code nobody reviewed, as a program run from there is. A folder appended after the existing value
shadows nothing, and one only known at run time is the environment's own choice. A build tool's program
variable (`CC`, `RUSTC_WRAPPER`, `CARGO_TARGET_*_RUNNER`) is checked as the command it runs.

A git command that changes a repository (commit, stash, checkout, config, tag…) writes that repository's
files: run on one outside the working directory (`cd /usr/local && git stash -u`, `git -C ~/dotfiles
commit`), it writes there. Looking at one (`git -C ~/x log`, `branch`, `stash list`) changes nothing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import every_case, guard_allows, guard_blocks

from glmagent.guard import Policy

SEARCH_PATHS_BLOCKED = [
    ("posix", "PATH=/tmp:$PATH make", "unverifiable.outside-program"),
    # the home folder by its variable is the home folder (`~/Downloads` was blocked, `$HOME/Downloads` not)
    ("posix", "PATH=$HOME/Downloads:$PATH make", "unverifiable.outside-program"),
    ("posix", 'PATH="${HOME}/Downloads:$PATH" make', "unverifiable.outside-program"),
    ("posix", 'export PATH="$HOME/.evil:$PATH"', "unverifiable.outside-program"),
    ("powershell", '$env:Path = "$HOME\\Downloads;$env:Path"', "unverifiable.outside-program"),
    ("posix", "export PATH=/dev/shm/bin:$PATH; pytest", "unverifiable.outside-program"),
    ("posix", 'PATH="/home/user/.hidden:${PATH}" git status', "unverifiable.outside-program"),
    ("posix", "PATH=/var/tmp/x npm test", "unverifiable.outside-program"),  # replaces the whole value
    ("posix", "PATH=$TOOLS:/tmp/evil:$PATH make", "unverifiable.outside-program"),  # another variable first
    ("posix", "PATH=$PATHX:/tmp make", "unverifiable.outside-program"),  # not PATH's own value
    ("powershell", '$env:Path = "$env:X;C:\\Temp;$env:Path"', "unverifiable.outside-program"),
    ("posix", "PYTHONPATH=/tmp/x python -m pytest", "unverifiable.outside-program"),
    ("posix", "PYTHONPATH=../other/lib pytest", "unverifiable.outside-program"),
    ("posix", "LD_LIBRARY_PATH=/tmp/lib ./build/app", "unverifiable.outside-program"),
    ("posix", "DYLD_LIBRARY_PATH=/Users/Shared/x ./app", "unverifiable.outside-program"),
    ("posix", "PERL5LIB=/tmp/lib prove -r t", "unverifiable.outside-program"),
    ("posix", "NODE_PATH=/dev/shm node app.js", "unverifiable.outside-program"),
    ("posix", "CLASSPATH=/tmp/x.jar java Main", "unverifiable.outside-program"),
    ("posix", 'LUA_PATH="./?.lua;/tmp/?.lua" lua main.lua', "unverifiable.outside-program"),
    ("posix", "GIT_EXEC_PATH=/tmp/x git status", "unverifiable.outside-program"),
    ("posix", "env PATH=/tmp/evil:$PATH make", "unverifiable.outside-program"),
    ("powershell", '$env:Path = "C:\\Users\\Public\\x;$env:Path"; npm test', "unverifiable.outside-program"),
    ("powershell", "$env:PSModulePath = 'C:\\Temp;' + $env:PSModulePath", "unverifiable.outside-program"),
    ("powershell", '$env:PYTHONPATH = "C:\\Temp\\py"', "unverifiable.outside-program"),
    ("powershell", 'cmd /c "set PATH=C:\\Temp;%PATH% && make"', "unverifiable.outside-program"),
    # a build tool's program variable is the command it runs
    ("posix", "CC=/tmp/cc make", "unverifiable.outside-program"),
    ("posix", "RUSTC_WRAPPER=/tmp/x cargo build", "unverifiable.outside-program"),
    ("posix", 'CC="rm -rf /" make', "destructive.recursive-delete"),
    (
        "posix",
        "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER='sudo -E' cargo test",
        "containment.privilege-elevation",
    ),
    ("posix", "CMAKE_C_COMPILER_LAUNCHER=/tmp/x cmake -B build", "unverifiable.outside-program"),
    # any variable set to a program, library or script outside the project hands it to whatever reads it
    (
        "posix",
        "export MCP_TOOL_HANDLER_OVERRIDE=/var/tmp/.mcp-plugins/handlers.so",
        "unverifiable.outside-program",
    ),
    ("posix", "PYTHONSTARTUP=~/.pythonrc.py python -c 1", "unverifiable.outside-program"),
    ("powershell", '$env:PLUGIN = "C:\\Users\\Public\\x.dll"', "unverifiable.outside-program"),
]

SEARCH_PATHS_ALLOWED = [
    ("posix", 'export PATH="$HOME/.cargo/bin:$PATH"'),
    ("posix", "PATH=$HOME/go/bin:$PATH make test"),  # where a tool manager installs programs
    ("posix", 'export PATH="$HOME/.local/bin:$PATH"'),
    ("posix", "export PATH=$PATH:$HOME/x"),  # appended: shadows nothing
    ("powershell", '$env:Path = "$HOME\\.dotnet\\tools;$env:Path"'),
    ("powershell", '$env:Path += ";$HOME\\x"'),
    ("posix", 'export PATH="${PWD}/node_modules/.bin:${PATH}"'),
    ("posix", "PATH=./bats/bin:$PATH script/test"),
    ("posix", "PATH=$PATH:/tmp/tools make"),  # appended: shadows nothing
    ("posix", "PATH=$PATH:~/go/bin buf lint"),
    ("posix", 'PATH="$PATH:$(go env GOROOT)/lib/wasm" GOOS=js GOARCH=wasm go test ./...'),
    ("posix", "PATH=/usr/local/bin:/usr/bin:/bin make"),
    ("posix", "PATH=/mingw64/bin:$PATH cmake --build build"),
    ("posix", "PYTHONPATH=. pytest"),
    ("posix", "PYTHONPATH=src:tests python -m pytest"),
    ("posix", "LD_LIBRARY_PATH=/usr/local/lib ./build/app"),
    ("posix", "LD_LIBRARY_PATH=./build/lib ./build/test-runner"),
    ("posix", "PATH= make"),
    ("powershell", '$env:Path += ";C:\\Temp\\tools"'),
    ("powershell", '$env:Path = $env:Path + ";C:\\Temp\\tools"'),
    ("powershell", 'cmd /c "set PATH=%PATH%;C:\\Temp\\tools && make"'),
    ("powershell", '$env:Path = "$env:Path;C:\\Temp\\tools"'),
    ("powershell", '$env:Path = "C:\\Program Files\\Git\\bin;" + $env:Path'),
    ("powershell", '$env:Path = "C:\\MinGW\\bin;$env:Path"'),
    ("powershell", '$env:Path = "$PWD\\node_modules\\.bin;$env:Path"'),
    ("powershell", '$env:PYTHONPATH = "src"'),
    ("powershell", "C:\\Python311\\python.exe -m pytest"),
    ("posix", "CC=clang make"),
    ("posix", "CC=gcc CXX=g++ meson setup builddir"),
    ("posix", 'CXX="ccache g++" cmake -B build'),
    ("posix", "RUSTC_WRAPPER=sccache cargo build"),
    ("posix", "CC=$CROSS_CC make"),  # what the environment already chose
    ("powershell", 'cmd /c "if not defined PYTHON set PYTHON=py"'),  # a script's own variable, no tool's
    ("posix", "export LIBCLANG_PATH=/usr/lib/llvm-14/lib/libclang.so"),
    ("posix", "export PRE_COMMIT_HOOK=./scripts/hook.sh"),
    ("powershell", '$env:PYTHON = "C:\\Python311\\python.exe"'),
]

OUTSIDE_REPOSITORY_BLOCKED = [
    ("posix", "cd /usr/local && git stash --include-untracked", "containment.write-outside-project"),
    ("posix", "cd ~/dotfiles && git commit -am 'update'", "containment.write-outside-project"),
    ("posix", "cd /etc && git add -A", "containment.write-outside-project"),
    ("posix", "git -C ~/dotfiles commit -am x", "containment.write-outside-project"),
    ("posix", "git -C /srv/app tag v1", "containment.write-outside-project"),
    ("posix", "git -C ~/x config user.email a@b.c", "containment.write-outside-project"),
    ("posix", "git -C ~/x remote add origin https://example.com/x.git", "containment.write-outside-project"),
    ("posix", "git -C ~/x apply fix.patch", "containment.write-outside-project"),
    ("posix", "git -C .. stash", "containment.write-outside-project"),
    ("posix", "git --work-tree=/srv/www add .", "containment.write-outside-project"),
    (
        "powershell",
        "Set-Location C:\\Users\\dev\\notes; git commit -am x",
        "containment.write-outside-project",
    ),
]

OUTSIDE_REPOSITORY_ALLOWED = [
    ("posix", "cd /usr/local && git status"),
    ("posix", "git -C ~/src/other log --oneline -5"),
    ("posix", "git -C ~/x diff"),
    ("posix", "git -C ~/x branch"),
    ("posix", "git -C ~/x branch --show-current"),
    ("posix", "git -C ~/x tag -l"),
    ("posix", "git -C ~/x stash list"),
    ("posix", "git -C ~/x config user.name"),
    ("posix", "git -C ~/x config --get remote.origin.url"),
    ("posix", "git -C ~/x remote -v"),
    ("posix", "git -C ~/x apply --check fix.patch"),
    ("posix", "git -C ~/x worktree list"),
    ("posix", "git -C sub commit -am x"),
    ("posix", "cd docs && git add . && git commit -m docs"),
    ("posix", "git stash -u"),
    ("posix", 'cd "$REPO" && git add .'),  # a repository only known at run time: the sandbox's
    ("posix", "git -C /tmp/scratch init"),  # the temp folder is scratch space, as for other writes
]


def test_a_folder_put_first_on_a_search_path_is_judged_where_it_is() -> None:
    every_case(SEARCH_PATHS_BLOCKED, guard_blocks)


def test_project_program_folders_appended_and_run_time_folders_stay_allowed() -> None:
    every_case(SEARCH_PATHS_ALLOWED, guard_allows)


def test_git_changing_a_repository_outside_the_working_directory_writes_there() -> None:
    every_case(OUTSIDE_REPOSITORY_BLOCKED, guard_blocks)


def test_git_looking_at_another_repository_or_working_in_this_one_stays_allowed() -> None:
    every_case(OUTSIDE_REPOSITORY_ALLOWED, guard_allows)


def test_a_sibling_checkout_is_outside_a_real_project(tmp_path: Path) -> None:
    """With the working directory known, a sibling repository is outside it, and the project's own is not."""
    project, sibling = tmp_path / "project", tmp_path / "sibling"
    for folder in (project, sibling):
        folder.mkdir()
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
    policy = Policy.default()
    outside = policy.check("git -C ../sibling commit -am x", "posix", cwd=str(project))
    assert not outside.allowed and outside.rule_id == "containment.write-outside-project", outside.reason
    assert "../sibling" in outside.reason
    assert policy.check("git commit -am x", "posix", cwd=str(project)).allowed
    assert policy.check("git -C ../sibling log -1", "posix", cwd=str(project)).allowed
