"""PowerShell loops over a listing of the project's own files read the loop variable as the listing's glob.

`gci *.md | % { … Set-Content $_ }` and `foreach ($f in gci *.md) { … Set-Content $f }` write what `*.md`
names, as POSIX's `for f in *.md` does; `gci *.txt | Rename-Item -NewName { … }` renames within the folder.
Only a listing of literal paths inside the project with parameters whose meaning is known is read this way;
hidden items (`-Force`), names alone (`-Name`), a listing outside the project, a script that sets the loop
variable, or a block nested in the loop's block keep it unknown (blocked as before). These tests use a real
git repository in a temporary folder.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import committed_repo, decide_in

from glmagent.guard._listings import bound_reference, listing_patterns, rebinds
from glmagent.guard._syntax import Arg

if shutil.which("git") is None:
    pytest.skip("git is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git project: tracked sources and docs, ignored build output, and a link to a folder outside."""
    tracked = {
        "src/app.py": "print('hi')\n",
        "README.md": "# demo\n",
        "docs/guide.md": "# guide\n",
        ".gitignore": "build/\nbin/\nobj/\n",
    }
    root = committed_repo(tmp_path_factory.mktemp("proj"), tracked)
    (root / "build").mkdir()
    (root / "build" / "out.txt").write_text("ok\n")
    (root / "bin").mkdir()
    (root / "bin" / "x.dll").write_text("x\n")
    outside = tmp_path_factory.mktemp("outside")
    (outside / "precious.txt").write_text("keep me\n")
    os.symlink(outside, root / "elsewhere")
    return root


ALLOWED = [
    # a rewrite of each file from its own content, as `sed -i` makes
    "Get-ChildItem *.md | ForEach-Object { (Get-Content $_) -replace 'a','b' | Set-Content $_ }",
    "foreach ($f in Get-ChildItem *.md) { (Get-Content $f) -replace 'a','b' | Set-Content $f }",
    "foreach ($f in (gci docs -Filter *.md)) { (gc $f.FullName) -replace 'a','b' | sc $f.FullName }",
    "gci -Path src -Filter *.py -Recurse | % { (gc $_.FullName) -replace 'x','y' | sc $_.FullName }",
    # renaming within the folder listed
    "Get-ChildItem *.txt | Rename-Item -NewName { $_.Name -replace '.txt','.log' }",
    "Get-ChildItem build/*.nupkg | Rename-Item -NewName { $_.Name -replace '.nupkg', '.zip' }",
    # deleting build output found by name, as `Remove-Item bin, obj -Recurse` may
    "Get-ChildItem -Include 'bin', 'obj' -Recurse -Directory | ForEach-Object { Write-Host \"Removing $_\"; "
    "Remove-Item $_ -Recurse -Force }",
    "Get-ChildItem bin | ForEach-Object { Remove-Item $_ -Recurse -Force }",
    "foreach ($f in gci build) { Remove-Item $f.FullName -Recurse -Force }",
    "Get-ChildItem build -Recurse | ForEach-Object { Remove-Item $_ -Recurse }",
    "Get-ChildItem build | ForEach-Object { Set-Content $_ x }",  # ignored output
    "gci *.md | % { Get-Content $_ }",
]

BLOCKED = [
    # what the globs name is tracked work
    ("Get-ChildItem src | ForEach-Object { Set-Content $_ x }", "destructive.truncating-write"),
    ("gci docs/*.md | % { Set-Content \"$_\" '' }", "destructive.truncating-write"),
    ("Get-ChildItem src | ForEach-Object { Remove-Item $_ -Recurse -Force }", "destructive.recursive-delete"),
    (
        "Get-ChildItem src -Recurse | ForEach-Object { Remove-Item $_ -Recurse }",
        "destructive.recursive-delete",
    ),
    ("Get-ChildItem -Recurse | ForEach-Object { Remove-Item $_.FullName }", "destructive.forced-delete"),
    # a file listed yields itself
    ("Get-ChildItem src/app.py | ForEach-Object { Set-Content $_ x }", "destructive.truncating-write"),
    ("Get-ChildItem README.md | ForEach-Object { Set-Content $_ x }", "destructive.truncating-write"),
    # a folder reached through a link may be anywhere: judged as the file it may be
    ("Get-ChildItem elsewhere | ForEach-Object { Set-Content $_ x }", "destructive.truncating-write"),
    # hidden items (`.git`), a listing outside, a copy out
    ("Get-ChildItem . -Recurse -Force | ForEach-Object { Remove-Item $_ }", "destructive.recursive-delete"),
    ("Get-ChildItem ..\\other | ForEach-Object { Set-Content $_ x }", "destructive.truncating-write"),
    ("gci *.md | % { Copy-Item $_ ..\\x }", "containment.write-outside-project"),
    # the loop variable set by the script, or another object in a nested block
    (
        "foreach ($f in Get-ChildItem *.md) { $f = 'C:\\Windows\\x'; Set-Content $f x }",
        "destructive.truncating-write",
    ),
    (
        "Get-ChildItem *.md | ForEach-Object { $_ = 'C:\\x'; Set-Content $_ x }",
        "destructive.truncating-write",
    ),
    ("gci *.md | % { Set-Variable -Name _ -Value C:\\x; Set-Content $_ x }", "destructive.truncating-write"),
    ("gci build | % { gci src | % { Set-Content $_ x } }", "destructive.truncating-write"),
    # only the item itself is read as the glob: a member or a path built from it is not
    ('gci *.md | % { Set-Content "$($_.Directory)\\..\\..\\x" x }', "destructive.truncating-write"),
    ('gci *.md | % { Set-Content "$_.FullName" x }', "destructive.truncating-write"),
    # names only, relative to the folder listed, not to the working directory
    ("gci docs -Name | % { Set-Content $_ x }", "destructive.truncating-write"),
    ("gci *.txt | Rename-Item -NewName { '.git' + $_.Extension }", "containment.write-unknown-target"),
]


@pytest.mark.parametrize("command", ALLOWED)
def test_loops_over_the_projects_files_are_allowed(repo: Path, command: str) -> None:
    decision = decide_in(command, repo, "powershell")
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("command", "rule"), BLOCKED)
def test_loops_that_reach_work_or_leave_the_project_stay_blocked(repo: Path, command: str, rule: str) -> None:
    decision = decide_in(command, repo, "powershell")
    assert not decision.allowed, command
    assert decision.rule_id == rule, (command, decision.reason)


def test_a_fresh_checkout_keeps_a_listed_path_as_a_possible_file() -> None:
    # without a working directory nothing says `build` is a folder: it may be a file, and one with work
    assert decide_in("Get-ChildItem build | ForEach-Object { Set-Content $_ x }", None, "powershell").allowed
    assert not decide_in(
        "Get-ChildItem src | ForEach-Object { Set-Content $_ x }", None, "powershell"
    ).allowed


def _words(line: str) -> list[Arg]:
    out = []
    for w in line.split():
        out.append(Arg(w, w, param=w.startswith("-"), follows=False))
    return out


@pytest.mark.parametrize(
    ("line", "patterns"),
    [
        ("gci *.md", ["*.md"]),
        ("gci", ["*"]),
        ("dir src", ["src/*", "src"]),
        ("Get-ChildItem -Path src -Filter *.cs -Recurse", ["src/**/*.cs", "src"]),
        ("gci .\\src\\ -s", ["src/**/*", "src"]),
        ("gci src *.py", ["src/*.py", "src"]),
        ("Get-Item docs/*.md", ["docs/*.md"]),
        ("gci -File -Depth 2 -ErrorAction SilentlyContinue", ["**/*"]),
    ],
)
def test_listing_patterns(line: str, patterns: list[str]) -> None:
    assert listing_patterns(_words(line), lambda path: False) == patterns


@pytest.mark.parametrize(
    "line",
    [
        "gci -Force",
        "gci -Hidden src",
        "gci -Name src",
        "gci -FollowSymlink src",
        "gci ../x",
        "gci C:\\Users",
        "gci ~/.ssh",
        "gci env:",
        "gci /etc",
        "gci src/*.py -Recurse",
        "gci -Filter ../*",
        "Get-Item src -Filter *.py",
        "ls src",
        "gci a b c",
    ],
)
def test_listings_not_read(line: str) -> None:
    assert listing_patterns(_words(line), lambda path: False) is None


def test_a_known_folder_yields_only_what_it_holds() -> None:
    assert listing_patterns(_words("gci build"), lambda path: path == "build") == ["build/*"]


@pytest.mark.parametrize(
    ("raw", "name"),
    [("$_", "_"), ("$PSItem.FullName", "psitem"), ('"$f"', "f"), ('"$($f.FullName)"', "f"), ("${F}", "f")],
)
def test_bound_reference(raw: str, name: str) -> None:
    assert bound_reference(raw) == name


@pytest.mark.parametrize("raw", ['"$_.FullName"', "$_.Name", "'$_'", '"x$_"', "$($_)", "$f.Directory"])
def test_not_the_whole_item(raw: str) -> None:
    assert bound_reference(raw) is None


@pytest.mark.parametrize(
    "text",
    ["$f = 'x'", "$f+='x'", "$f++", "${f} = 1", "sv f 1", "New-Variable f", "gci -OutVariable f", "[ref]$f"],
)
def test_rebinds(text: str) -> None:
    assert rebinds(text, "f")


@pytest.mark.parametrize("text", ["Set-Content $f x", "$f -eq 'x'", "$fx = 1", "$f.Name == 'a'"])
def test_does_not_rebind(text: str) -> None:
    assert not rebinds(text, "f")
