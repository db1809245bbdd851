"""A recursive delete of build output in the project is spared; every other recursive delete stays blocked.

`rm -rf build dist`, `rimraf coverage`, `Remove-Item .\\bin -Recurse` are how every clean step starts.
With the working directory known, a tree counts as build output when git ignores it and tracks nothing in
it, and it lies in a folder named as build output (`build/`, `dist/`, `bin/`, `obj/`, `coverage/`,
`*.egg-info`). Ignored alone is not enough (`data/`, `.env` hold what nobody can rebuild); tracked or
untracked work, globs, paths outside the project, `.git`, trees the same line moved or named first, and
deletes fed by a listing of anything but such trees stay blocked. A tree named as build output that is not
there yet loses nothing.
Without a working directory the line is judged as in a fresh checkout: a tree named as output is not
there yet, and every other recursive delete still blocks. These tests use real git repositories.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TEST_GIT, decide_in

if shutil.which("git") is None:
    pytest.skip("git is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git project with ignored build output, an ignored data folder, tracked and untracked work."""
    root = tmp_path_factory.mktemp("proj")
    git = TEST_GIT
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text(
        "build/\ndist/\nbin/\nobj/\ncoverage/\n*.egg-info/\noutput/\ndata/\n.env\n.nyc_output/\n"
    )
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("print('hi')\n")
    (root / "lib").mkdir()
    (root / "lib" / "util.rb").write_text("module Util; end\n")  # sources in a folder named like output
    (root / "output").mkdir()
    (root / "output" / "kept.txt").write_text("forced into git\n")
    (root / "CMakeLists.txt").write_text("project(x)\n")
    (root / "cmake").mkdir()
    (root / "cmake" / "deps.cmake").write_text("# helpers\n")
    subprocess.run([*git, "add", ".gitignore", "src", "lib", "CMakeLists.txt", "cmake"], cwd=root, check=True)
    # tracked despite the pattern
    subprocess.run([*git, "add", "-f", "output/kept.txt"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=root, check=True)
    for folder in ("build/lib", "bin/Debug", "obj", "coverage", "src/Tool/bin"):
        (root / folder).mkdir(parents=True)
        (root / folder / "out.txt").write_text("generated\n")
    (root / "data").mkdir()
    (root / "data" / "downloaded.csv").write_text("1,2\n")  # ignored, but no build output
    (root / ".env").write_text("TOKEN=x\n")
    for folder, name in (("build-tools", "x.sh"), ("app/sign-out", "page.tsx"), ("coverage-tools", "x.py")):
        (root / folder).mkdir(parents=True)
        (root / folder / name).write_text("the user's work\n")  # untracked, named like output
    (root / "notes").mkdir()
    (root / "notes" / "idea.txt").write_text("the user's unsaved notes\n")  # untracked, not ignored
    outside = tmp_path_factory.mktemp("outside")
    (outside / "build").mkdir()
    os.symlink(outside / "build", root / "dist")  # an ignored name that leads out of the project
    return root


SPARED = [
    ("posix", "rm -rf build"),
    ("posix", "rm -rf coverage coverage.json lcov.info hh-cache"),  # coverage reports and a tool's cache
    ("posix", "rm -rf mac-build/ linux_build"),  # one platform's build folder
    ("posix", "find test_results -name 'Test.xml' -type f -delete"),
    # a find searching only build output hands rm no more than `rm -rf build` deletes
    ("posix", "find build | xargs rm -rf"),
    ("posix", "find build -name incremental -exec rm -rf {} +"),
    ("posix", "find build/ bin \\( -name incremental -or -name out.txt \\) -exec rm -rf '{}' \\; || true"),
    ("posix", "find obj -name '*.txt' -print0 | xargs -0 rm -f"),
    ("posix", "rm -fr Module.symvers modules.order .tmp_versions"),  # a kernel module build's output
    ("posix", "rm -rf build coverage"),
    ("posix", "rm -rf CMakeFiles CMakeCache.txt"),  # what CMake configures in place; not there
    ("posix", "rm -rf __pypackages__ reports test-reports"),  # PDM's packages and test reports; not there
    ("posix", "rm -rf ffmpeg-tmp/extracted build_tmp"),  # scratch folders; not there
    ("posix", "rimraf compiled src/_esm src/_cjs"),  # a compiler's and a bundler's output; not there
    ("posix", "rm -r build || true"),
    ("posix", "rm -rf ./bin ./obj"),
    ("posix", "find . -name bin -exec rm -rf {} +"),  # every `bin` ignored, nothing tracked in one
    ("posix", "rm -rf build/lib"),
    ("posix", "rm -rf pkg.egg-info"),  # not there: a clean step run twice
    ("posix", "rm -rf htmlcov .pytest_cache docs/_build"),  # not there, and not ignored: nothing to lose
    ("posix", "rm -rf .pytest_cache .hypothesis .mypy_cache .ruff_cache"),  # test and tool caches
    ("powershell", "Remove-Item -Recurse -Path ./out -Force"),  # not there
    ("posix", "rimraf coverage && tsc"),
    ("posix", "rimraf .nyc_output coverage"),
    ("posix", "rimraf ./src/lib"),  # not there: a transpiler's output folder before the first build
    ("posix", "rm -rf tmp zig-out .zig-cache dist-newstyle .stack-work"),
    ("powershell", "if exist Temp rd /Q /S Temp"),  # a batch file's line, read as cmd runs it
    ("posix", "rimraf out-tsc test-results"),  # Angular's tsc output, Playwright's reports
    ("powershell", "Remove-Item -Path 'build-debug' -Recurse -Force"),  # one configuration's output
    ("posix", "rm -rf build_release out-x64 cmake-build-asan"),
    ("posix", "rm -rf build-asan build_clang build-ubsan build.coverage"),  # one sanitizer's or toolchain's
    ("posix", "rm -rf builddir"),  # Meson's conventional build folder
    ("posix", "rimraf --glob temp .eslintcache .stylelintcache"),  # linters' caches of their last run
    ("posix", "rm -rf rstan.Rcheck examples/.ipynb_checkpoints"),  # R CMD check's output, Jupyter's saves
    ("powershell", "RMDIR /S /Q .vs"),  # Visual Studio's per-solution caches and user options
    ("posix", "cmake -E remove_directory build"),  # CMake's own delete, as `cmake -E rm -rf build`
    ("posix", "rimraf .react-router .output .astro"),  # web frameworks' generated types and build output
    ("posix", "rm -rf ./test/js_out dashboards_out"),  # protoc's `--js_out=`, jsonnet's output folders
    ("posix", "rm -rf dbt/jaffle_shop/dbt_packages"),  # what `dbt deps` installs, as node_modules
    ("posix", "rm -rf .coverage coverage-unit.xml junit.xml junit-py312.xml"),  # test runs' reports
    ("powershell", "cmake -E remove_directory build/Release out"),
    ("powershell", "rimraf coverage/ .nyc_output/"),  # node's deleters read alike in every shell
    ("powershell", "npx rimraf coverage"),
    ("powershell", "rm -rf build"),  # Remove-Item knows no -rf: at worst nothing, judged as `rm -r -fo build`
    ("powershell", "del-cli .nyc_output"),
    # one wildcard folder, then literal names: what it names in each folder there now
    ("posix", "rm -rf src/*/bin"),  # src/Tool/bin: ignored build output
    ("posix", "rimraf packages/*/dist"),  # no such folder: nothing to lose
    ("posix", "rm -rf */lib"),  # build/lib, inside build output
    ("posix", "rimraf coverage tsconfig.tsbuildinfo"),  # TypeScript's incremental build state
    ("posix", "rm -rf docs/reference/generated .swc .docusaurus storybook-static"),  # generators' output
    ("posix", "rm -rf knitr-examples/cache .jekyll-cache .sass-cache"),  # caches, made again by the build
    ("posix", "rm -rf BenchmarkDotNet.Artifacts _install dev-dist .open-next .quarto"),
    ("posix", "rm -fr app.dSYM tests/unit.dSYM"),  # the debug symbols a macOS link writes
    ("posix", "rm -rf pkg-1.0-py3.egg .coverage .pytest_cache"),  # a built egg, coverage.py's data
    ("posix", "rm -rf .terraform packer_cache/*"),  # providers and images downloaded again by init and build
    ("posix", "rm -rf build .tox .coverage.*"),  # coverage.py's data files of parallel runs
    ("posix", "rm -rf .yardoc .phpunit.cache"),  # YARD's and PHPUnit's caches
    ("posix", "rm -fr .*_cache/ .parcel-cache"),  # tools' caches by their suffix
    ("posix", "rm -rf auto_examples/ gen_modules/ api/_autosummary"),  # Sphinx extensions' pages
    ("posix", "rm -rf build cover.out x.coverprofile default.profraw"),  # Go's and LLVM's coverage profiles
    ("posix", "rm -rf esm cjs umd pip-wheel-metadata"),  # a JavaScript library's builds, pip's metadata
    ("powershell", "Remove-Item publish/* -Recurse -Force"),  # `dotnet publish -o publish`
    ("posix", "mkdir -p build && rm -rf build/*"),  # making the folder puts nothing in it
    ("posix", "del-cli 'coverage/*.json' '!coverage/keep.json'"),  # a `!` pattern keeps, deletes nothing
    ("posix", "poetry run pip --version || rm -rf .venv"),  # a virtual environment, made again by install
    ("posix", "cd src && rm -rf ../build"),
    ("posix", "rm -rf src/Tool/bin"),
    ("posix", "make clean; rm -rf build; make"),
    ("posix", "rm -rf build && make && rm -rf build"),  # the same clean step twice
    ("powershell", "Remove-Item ./bin -Recurse -ErrorAction Ignore"),
    ("powershell", "Remove-Item -Path 'obj' -Recurse -Force"),
    ("powershell", "Remove-Item -LiteralPath build/lib -Force -Recurse"),
    ("powershell", "ri .\\bin -r -ea Ignore"),
    ("powershell", "Remove-Item -Recurse -Force coverage -Verbose:$false"),
    # what an output folder holds, a part of deleting the folder
    ("posix", "rm -rf build/*"),
    ("posix", "rm -f ./bin/*"),
    ("powershell", "Remove-Item .\\bin\\* -Recurse -Force"),
    # cmd's own spelling, also in a PowerShell line (where the extra words fail to bind: nothing goes)
    ("powershell", "rd /s /q build"),
    ("powershell", "rmdir /q /s build 2> nul"),
    ("powershell", "del /s /q build\\*.obj"),
    ("powershell", "cmd /c rmdir /s /q build"),
    # run through a wrapper or a shell, or in a folder of the project
    ("posix", "npx rimraf coverage"),
    ("posix", "env -C src rm -rf ../build"),
    ("powershell", "pwsh -NoProfile -Command Remove-Item build -Recurse"),
    # the items a listing of output trees prints, piped straight into Remove-Item
    ("powershell", "Get-Item .\\bin\\, .\\obj\\ -ErrorAction Ignore | Remove-Item -Recurse -Force"),
    ("powershell", "Get-ChildItem build -Recurse | Remove-Item"),
    ("powershell", "gci -Path coverage, bin -Directory -Force | ri -Recurse -Force"),
]

GLOBSTAR = [
    ("posix", "rm -rf **/bin"),  # what `find . -name bin` selects, or less: ignored build output
    ("posix", "rm -rf venv .pytest_cache ./**/__pycache__"),
    ("posix", "rm -rf tests/.pytest_cache tests/**/.pytest_cache"),
    ("posix", "rimraf src/**/bin"),
    ("posix", "rm -f **/*.pyc"),
]

BLOCKED = [
    ("posix", "rm -rf CMakeLists.txt cmake"),  # CMake's sources, not what it writes
    ("posix", "rm -rf src"),  # tracked
    ("posix", "rm -rf notes"),  # untracked work
    ("posix", "rm -rf newdir"),  # not there, but nothing says it is output (what the line meant)
    ("posix", "./gen.sh && rm -rf newdir"),  # not there now, but the script may put work there first
    ("posix", "git stash pop && rm -rf newdir"),  # the stash may hold untracked work for it
    ("posix", "tar xf notes.tgz; rm -rf newdir"),
    ("posix", "rm -rf newdir notes"),
    ("posix", "rm -rf **/lib"),  # lib/util.rb is tracked
    ("posix", "rm -rf **/src"),
    ("posix", "rm -rf src/**/*.py"),
    ("posix", "rm -rf **/.git"),
    ("posix", "rm -rf ../**/bin"),
    ("posix", "mv notes build && rm -rf **/build"),  # the notes moved in first
    ("posix", "cp -r notes src/bin; rm -rf src/**/bin"),
    # missing here, but named for the machine's folders, a home's or git's: the line meant another folder
    ("posix", "rm -rf ./usr"),
    ("posix", "rm -rf .zsh_history"),
    ("posix", "rm -rf .X11-unix"),
    ("posix", "rm -rf refs/original/ logs/"),
    ("posix", "rm -f ORIG_HEAD && rm -rf refs/original"),
    ("powershell", "rd /s /q SoftwareDistribution"),
    ("powershell", "rmdir /s /q Users"),
    # a run-time word in another syntax: cmd's arguments, loop variables and drives, a template's
    ("powershell", 'rmdir "%1" /s /q'),
    ("powershell", "rmdir /s /q %%d:\\ > nul"),
    ("posix", "rm -rf {{ gen_dir }}/api"),
    ("posix", "rm -rf newdir release_body.md build"),
    ("posix", "cd src && rm -rf scratch.log"),
    ("posix", "mkdir -p staging && rm -rf staging/notes.txt"),
    ("powershell", "Remove-Item release_notes.md -Recurse -Force"),
    ("posix", "rm -rf build-tools"),  # scripts, named after the build but no configuration's output
    ("posix", "rm -rf app/sign-out"),  # a web app's route, not `*_out`
    ("posix", "rm -rf coverage-tools"),  # no report's name
    ("posix", "rimraf lib"),  # named like output, but tracked sources
    ("powershell", "rimraf lib"),
    ("powershell", "npx rimraf src"),
    ("posix", "rm -rf htmlcov/../src"),  # Windows reads `..` by its text, whether htmlcov exists or not
    ("posix", "rm -rf htmlcov notes"),
    ("powershell", "Remove-Item htmlcov\\..\\src -Recurse"),
    ("posix", "rm -rf data"),  # ignored, but not build output
    ("posix", "rm -rf .env"),
    ("posix", "rm -rf output"),  # holds a tracked file
    ("posix", "rm -rf dist"),  # a link out of the project
    ("posix", "rm -rf build src"),
    ("posix", "rm -rf src/*"),
    ("posix", "rm -rf */Tool"),  # src/Tool: no build output's name
    ("posix", "rm -rf */*/bin"),  # more than one wildcard folder: not followed
    ("posix", "rm -rf s*/app.py"),  # src/app.py: tracked
    ("posix", "rm -f notes/*"),
    ("posix", "rm -rf output/*"),  # holds a tracked file
    ("posix", "rm -f ./*"),
    ("posix", "rm -rf build/*/lib/../../src"),
    ("posix", "rm -rf build ../elsewhere"),
    ("posix", "rm -rf ~/build"),
    ("posix", "rm -rf /tmp/build"),
    ("posix", "rm -rf .git"),
    ("posix", "rm -rf .git/build"),
    ("posix", "rm -rf ."),
    ("posix", "mv src build; rm -rf build"),  # the sources moved into the tree first
    ("posix", "mkdir -p build && mv src build/ && rm -rf build"),
    ("posix", "rm -rf build; mv notes build; rm -rf build"),  # a delete first does not clear the move
    ("posix", "mv notes bin/ && rm -rf bin"),
    ("posix", "mv notes/idea.txt build/lib/ && rm -rf build"),
    ("posix", "touch build/lib/x; cat notes/idea.txt > build/lib/y; rm -rf build"),
    ("posix", "cd .. && rm -rf build"),
    ("posix", 'rm -rf "$OUT"'),
    ("posix", "find build src -name x | xargs rm -rf"),
    ("posix", "find -L build -name lib -exec rm -rf {} +"),  # following links out of the tree
    ("posix", "find build/.. -name lib -exec rm -rf {} +"),
    ("posix", "find build -name lib -exec rm -rf {} src +"),  # rm names a tree of its own
    ("posix", "mv src build && find build -name '*.py' -exec rm -f {} +"),  # the sources moved in first
    ("posix", "find build | sed s/x/y/ | xargs rm -rf"),  # a filter may rewrite the names
    ("powershell", "Remove-Item ./src -Recurse"),
    ("powershell", "Remove-Item ./bin -Recurse -Include *.dll"),
    ("powershell", "Remove-Item ./bin -Recurse -f"),  # -Filter or -Force: ambiguous
    ("powershell", "Remove-Item $env:OUT -Recurse"),
    ("powershell", "Get-ChildItem -Recurse | Remove-Item -Recurse"),
    ("powershell", "rm -rf src"),  # Remove-Item knows no -rf; judged as `rm -r -fo src`
    ("powershell", "rd /s /q src"),
    ("powershell", "rd /s"),  # to PowerShell alone, `/s` is a path at the root of the drive
    ("powershell", "del /s /q src\\*.cs"),  # every .cs file in src's tree
    ("powershell", "cmd /c rd /s /q src"),
    ("posix", "npx rimraf src"),
    ("posix", "del-cli 'src/*.py' '!src/keep.py'"),
    ("posix", "mv src build; npx rimraf build"),  # the sources moved in first
    ("posix", "env -C / rm -rf bin"),  # run in another folder: /bin
    ("powershell", "pwsh -WorkingDirectory C:\\ -Command Remove-Item bin -Recurse"),
    ("powershell", "Get-Item bin, src | Remove-Item -Recurse -Force"),  # tracked sources among them
    ("powershell", "Get-ChildItem C:\\build -Recurse | Remove-Item -Recurse"),
    ("powershell", "Get-ChildItem C:\\Windows\\Logs -FollowSymlink | Remove-Item"),  # outside, whatever else
    ("powershell", "Get-ChildItem | Remove-Item -Recurse"),  # the working directory
    ("powershell", "Get-ChildItem bin -Name | Remove-Item -Recurse"),  # bare names, found from here
    ("powershell", "Get-ChildItem bin -FollowSymlink -Recurse | Remove-Item -Recurse"),
    ("powershell", "Get-Item bin | Where-Object { $_ } | Remove-Item -Recurse"),  # a filter between
    ("powershell", "Get-Item bin | Remove-Item src -Recurse"),  # names its own target
    ("powershell", "Get-Item build\\..\\src | Remove-Item -Recurse"),
    ("powershell", "Move-Item src bin; Get-Item bin | Remove-Item -Recurse"),  # the sources moved in first
]


@pytest.mark.parametrize(("shell", "command"), SPARED)
def test_deleting_build_output_is_allowed(repo: Path, shell: str, command: str) -> None:
    decision = decide_in(command, repo, shell)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_other_recursive_deletes_stay_blocked(repo: Path, shell: str, command: str) -> None:
    decision = decide_in(command, repo, shell)
    assert not decision.allowed, command
    assert decision.rule_id in (
        "destructive.recursive-delete",
        "destructive.forced-delete",
        "containment.write-outside-project",
    ), (
        command,
        decision.rule_id,
    )


ON_DISK = {"rimraf lib", "rm -rf output", "rm -rf dist", "rm -rf output/*", "rm -rf */*/bin", "rm -rf **/lib"}
"""Blocked in `repo` for what the trees hold or where they lead."""


@pytest.mark.parametrize(("shell", "command"), SPARED + [r for r in BLOCKED if r[1] in ON_DISK])
def test_without_a_working_directory_output_trees_are_not_there_yet(shell: str, command: str) -> None:
    decision = decide_in(command, None, shell)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("shell", "command"), GLOBSTAR)
def test_a_sweep_of_build_output_at_any_depth_is_allowed(repo: Path, shell: str, command: str) -> None:
    decision = decide_in(command, repo, shell)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("shell", "command"), [r for r in BLOCKED if r[1] not in ON_DISK])
def test_without_a_working_directory_other_deletes_still_block(shell: str, command: str) -> None:
    assert not decide_in(command, None, shell).allowed, command


def test_deciding_deletes_nothing(repo: Path) -> None:
    before = sorted(str(p.relative_to(repo)) for p in repo.rglob("*") if ".git" not in p.parts)
    for shell, command in SPARED + BLOCKED:
        decide_in(command, repo, shell)
    after = sorted(str(p.relative_to(repo)) for p in repo.rglob("*") if ".git" not in p.parts)
    assert after == before


def test_a_project_that_is_no_git_repository_spares_nothing(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n")
    decision = decide_in("rm -rf build", tmp_path)
    assert not decision.allowed
    assert decision.rule_id == "destructive.recursive-delete"


def test_a_repository_config_runs_nothing_while_deciding(tmp_path: Path) -> None:
    """The policy's git calls read no program from the repository's config (fsmonitor, a pager)."""
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("build/\n")
    (tmp_path / "build").mkdir()
    marker = tmp_path / "ran.txt"
    hook = tmp_path / "hook.sh"
    hook.write_text(f"#!/bin/sh\necho ran > {marker}\n")
    hook.chmod(0o755)
    for key in ("core.fsmonitor", "core.pager"):
        subprocess.run(["git", "config", key, str(hook)], cwd=tmp_path, check=True)
    decision = decide_in("rm -rf build", tmp_path)
    assert decision.allowed, decision.reason
    assert not marker.exists()


def test_a_delete_of_more_targets_than_are_looked_up_stays_blocked(repo: Path) -> None:
    """Each target costs a path resolution and git's answer: past a clean step's few, none is spared."""
    few = "rm -rf " + " ".join(f"build/part{i}" for i in range(8))
    many = "rm -rf " + " ".join(f"build/part{i}" for i in range(200))
    assert decide_in(few, repo).allowed
    decision = decide_in(many, repo)
    assert not decision.allowed
    assert decision.rule_id == "destructive.recursive-delete"


def test_a_line_naming_a_path_deeper_than_is_listed_spares_no_delete(repo: Path) -> None:
    """Every folder above each path the line names is listed (a tree named earlier is not spared); a path
    hundreds of folders deep would make that list the square of the word, so nothing is spared then."""
    shallow = "touch out/" + "a/" * 10 + "x.txt && rm -rf build"
    deep = "touch out/" + "a/" * 300 + "x.txt && rm -rf build"
    assert decide_in(shallow, repo).allowed
    decision = decide_in(deep, repo)
    assert not decision.allowed
    assert decision.rule_id == "destructive.recursive-delete"


def test_engine_caches_are_build_output_too() -> None:
    # `.godot` (Godot's import cache) and `.cache` folders are made again by the next run.
    assert decide_in("rm -rf ./project/.godot", None).allowed
    assert decide_in("rm -rf node_modules/.cache", None).allowed


def test_coverage_data_files_are_output_but_not_the_coverage_configuration() -> None:
    # `.coverage.HOST.PID.X`: what parallel runs write for `coverage combine`; `.coverage*` also names
    # `.coveragerc`, which someone wrote.
    assert decide_in("rm -rf .coverage.*", None).allowed
    assert not decide_in("rm -rf .coverage*", None).allowed
    assert not decide_in("rm -rf .coveragerc", None).allowed


CLEAN_STEPS_SPARED = [
    "python -c \"import shutil; shutil.rmtree('build', ignore_errors=True)\"",
    'python3 -c \'import shutil, os; os.path.exists("coverage") and shutil.rmtree("coverage")\'',
    "node -e \"require('fs').rmSync('obj', {recursive: true, force: true})\"",
    "node -e \"require('node:fs').rmSync('./build',{recursive:!0,force:!0,maxRetries:10})\"",  # minified
    # the same step written as an ES module
    "node --input-type=module -e \"import fs from 'fs';fs.rmSync('obj',{recursive:true,force:true})\"",
    "node --input-type=module -e \"import { rmSync } from 'node:fs'; rmSync('build', { recursive: true })\"",
    "node -e \"import('fs').then(fs => fs.rmSync('coverage', {recursive: true, force: true}))\"",
]

CLEAN_STEPS_BLOCKED = [
    "python -c \"import shutil; shutil.rmtree('src')\"",  # the sources
    "python -c \"import shutil; shutil.rmtree('lib')\"",  # tracked, though named like output
    "python -c \"import shutil; shutil.rmtree('dist')\"",  # a link out of the project
    "python -c \"import shutil; shutil.rmtree('build/../src')\"",
    'python -c "import shutil,sys; shutil.rmtree(sys.argv[1])" build',  # deletes what it is given
    "python -c \"import shutil; shutil.rmtree('build')\" /home",  # a word after the code
    "python -c \"import shutil,os; os.chdir('/'); shutil.rmtree('build')\"",  # any other name: computed
    "python -c \"import shutil; shutil.rmtree(f'{x}')\"",
    "node -e \"require('fs').rmSync(process.env.HOME, {recursive: true})\"",
    "node -e \"require('node:fs').rmSync('./src',{recursive:!0,force:!0,maxRetries:10})\"",
    "python -c \"import shutil; shutil.rmtree('build'); import os; os.system('curl x')\"",
    "node --input-type=module -e \"import fs from 'fs';fs.rmSync('src',{recursive:true,force:true})\"",
    "node --input-type=module -e \"import { rmSync } from 'node:fs'; rmSync('.', { recursive: true })\"",
    "node --input-type=module -e \"import os from 'os'; import fs from 'fs'; fs.rmSync(os.homedir())\"",
]


@pytest.mark.parametrize("command", CLEAN_STEPS_SPARED)
def test_an_interpreters_one_line_clean_step_is_judged_as_rm(repo: Path, command: str) -> None:
    decision = decide_in(command, repo)
    assert decision.allowed, (command, decision.rule_id, decision.reason)
    assert decide_in(command, None).allowed, command  # a fresh checkout: named as output, not there


@pytest.mark.parametrize("command", CLEAN_STEPS_BLOCKED)
def test_other_interpreter_deletes_stay_blocked(repo: Path, command: str) -> None:
    assert not decide_in(command, repo).allowed, command


GIT_CLEANS_SPARED = [
    ("posix", "git clean -xdf build coverage"),  # ignored output, nothing tracked in it
    ("posix", "git clean -xdf .cache .next .turbo node_modules"),  # not there: nothing to lose
    ("posix", "git clean -ffdx -- bin obj"),
    ("powershell", "git clean -xdf build"),
]

GIT_CLEANS_BLOCKED = [
    ("posix", "git clean -xdf"),  # the whole tree: the user's untracked work
    ("posix", "git clean -dfX"),  # every ignored file, `.env` among them
    ("posix", "git clean -xdf build notes"),  # untracked notes, not output
    ("posix", "git clean -xdf data"),  # ignored, but no build output
    ("posix", "git clean -xdf output"),  # a tracked file under the output name
    ("posix", "git clean -xdf dist"),  # a link out of the project
    ("posix", "git clean -xdf 'build/*'"),  # git's globs match at any depth
    ("posix", "git clean -xdf ':(exclude)src' build"),  # pathspec magic
    ("posix", "git clean -xdf -e keep build"),  # an exclude: more than the words name
    ("posix", "git clean -xdf build/../src"),
]


@pytest.mark.parametrize(("shell", "command"), GIT_CLEANS_SPARED)
def test_a_git_clean_of_output_pathspecs_is_spared_like_rm(repo: Path, shell: str, command: str) -> None:
    # `git clean -xdf node_modules dist` deletes what `rm -rf` of those trees would (and never a tracked
    # file): judged the same way, in the project and in a fresh checkout.
    decision = decide_in(command, repo, shell)
    assert decision.allowed, (command, decision.rule_id, decision.reason)
    assert decide_in(command, None, shell).allowed, command


@pytest.mark.parametrize(("shell", "command"), GIT_CLEANS_BLOCKED)
def test_other_git_cleans_stay_blocked(repo: Path, shell: str, command: str) -> None:
    decision = decide_in(command, repo, shell)
    assert decision.rule_id == "destructive.git-clean", (command, decision.rule_id)


@pytest.fixture(scope="module")
def monorepo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Packages with ignored `dist` and `.next` output, one package that commits its `dist`, sources in a
    `lib` folder, and an untracked `build` folder nobody ignores (the user's work, whatever it is called)."""
    root = tmp_path_factory.mktemp("mono")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("dist/\n.next/\n!shipped/dist/\n")
    for folder, name in (
        ("packages/a/dist", "index.js"),
        ("packages/b/.next", "cache"),
        ("web/dist", "x.js"),
    ):
        (root / folder).mkdir(parents=True)
        (root / folder / name).write_text("generated\n")
    (root / "packages/a/lib").mkdir()
    (root / "packages/a/lib/index.ts").write_text("export {}\n")
    (root / "shipped/dist").mkdir(parents=True)
    (root / "shipped/dist/action.js").write_text("committed bundle\n")
    subprocess.run([*TEST_GIT, "add", ".gitignore", "packages/a/lib", "shipped"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=root, check=True)
    (root / "tools/build").mkdir(parents=True)
    (root / "tools/build/notes.txt").write_text("unsaved\n")
    return root


# A `find` sweep of trees named as build output deletes each as `rm -rf` would: spared when git tracks
# nothing under any of them and keeps nothing untracked there.
OUTPUT_SWEEPS_SPARED = [
    "find packages -name dist -type d -prune -exec rm -rf {} +",
    "find . -name .next -type d -exec rm -rf {} +",
    "find packages web -name dist -o -name .next | xargs rm -rf",
    "rm -rf $(find packages -type d -name dist)",
    "cd packages && find . -iname DIST -type d -exec rm -rf {} +",
]
OUTPUT_SWEEPS_BLOCKED = [
    "find . -name dist -type d -exec rm -rf {} +",  # shipped/dist is committed
    "find packages -name lib -type d -exec rm -rf {} +",  # lib holds tracked sources
    "find . -name build -type d -exec rm -rf {} +",  # untracked, not ignored: the user's
    "find . -name src -type d -exec rm -rf {} +",  # not an output name
    "find .. -name dist -exec rm -rf {} +",  # outside the project
    "mv packages/a/lib packages/a/dist; find packages -name dist -exec rm -rf {} +",  # the sources moved in
]


# PowerShell's recursive listing of such names piped into Remove-Item is the same sweep (names without case).
LISTED_OUTPUT_SPARED = [
    "Get-ChildItem -Path packages -Include dist,.next -Recurse | Remove-Item -Recurse -Force",
    "Get-ChildItem .\\web -Recurse -Directory -Filter DIST | Remove-Item -Recurse -Force",
]
LISTED_OUTPUT_BLOCKED = [
    "Get-ChildItem -Path . -Include dist -Recurse | Remove-Item -Recurse -Force",  # shipped/dist is committed
    "Get-ChildItem -Path packages -Include lib,dist -Recurse | Remove-Item -Recurse -Force",  # sources
    "Get-ChildItem -Path .. -Include dist -Recurse | Remove-Item -Recurse -Force",
]


@pytest.mark.parametrize(
    ("shell", "command"),
    [("posix", c) for c in OUTPUT_SWEEPS_SPARED] + [("powershell", c) for c in LISTED_OUTPUT_SPARED],
)
def test_a_find_sweep_of_output_trees_git_keeps_nothing_in_is_spared(
    monorepo: Path, shell: str, command: str
) -> None:
    decision = decide_in(command, monorepo, shell)
    assert decision.allowed, (command, decision.rule_id, decision.reason)
    assert decide_in(command, None, shell).allowed, command  # a fresh checkout holds no output yet


@pytest.mark.parametrize(
    ("shell", "command"),
    [("posix", c) for c in OUTPUT_SWEEPS_BLOCKED] + [("powershell", c) for c in LISTED_OUTPUT_BLOCKED],
)
def test_a_find_sweep_reaching_kept_files_stays_blocked(monorepo: Path, shell: str, command: str) -> None:
    decision = decide_in(command, monorepo, shell)
    assert not decision.allowed, command
    assert decision.rule_id in ("destructive.recursive-delete", "containment.write-outside-project"), (
        command,
        decision.rule_id,
    )


@pytest.mark.parametrize("command", ['del-cli "lib/**/*.d.ts" "lib/**/*.d.ts.map"', "rm -rf dist/**/*.map"])
def test_without_a_working_directory_a_deep_glob_of_output_files_is_judged_as_any_glob(command: str) -> None:
    """Not every `**` path is a sweep of one name; the rest are globs of output, as before the sweep."""
    decision = decide_in(command, None, "posix")
    assert decision.allowed, (command, decision.rule_id, decision.reason)
