"""Build and test runners: the folders and build files whose code a command line runs.

`make -C DIR`, `npm --prefix DIR test`, `cargo test --manifest-path F`, `pytest DIR`, `Invoke-Pester DIR`
run what DIR holds (its Makefile, package scripts, build script, tests) as surely as `bash DIR/x.sh` runs
that script; with no folder named they run the working directory's. The engine judges each place found
here as a program run from there (`PathScope.judge_program`)."""

from __future__ import annotations

from typing import NamedTuple

from ._paths import in_cmd_variable_folder
from ._syntax import DYN, Arg


class Runner(NamedTuple):
    """How one runner is told where the code it runs lies."""

    options: tuple[str, ...] = ()
    """Options whose value is a folder or build file it runs (`-C`, `--manifest-path`), lower case."""
    operands: int = 0
    """How many of its operands are test files or folders it runs (`pytest DIR`, `mocha DIR`; -1: all)."""
    runs: frozenset[str] | None = None
    """The subcommands that run the project's code (`npm test`, `cargo build`); None: every use runs it."""
    switches: bool = False
    """Its options may be Windows switches (`msbuild /t:Build /p:X=1`): a word starting with `/` is one."""
    flags: frozenset[str] = frozenset()
    """Long options and PowerShell switches that take no value, so a word after one is an operand (`pytest
    --lf /tmp/tests`, `Invoke-Pester -CI C:\\x`), lower case; any other option may take the next word."""


_NPM_RUNS = frozenset(
    {"test", "t", "run", "run-script", "start", "restart", "stop", "install", "i", "ci", "exec"}
)
_MAKE = Runner(("-c", "--directory", "-f", "--file", "--makefile"))
_GRADLE = Runner(("-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file"))
_MAVEN = Runner(("-f", "--file"))
_PYTEST_FLAGS = frozenset({
    "--lf", "--last-failed", "--ff", "--failed-first", "--nf", "--new-first", "--sw", "--stepwise",
    "--sw-skip", "--cache-clear", "--exitfirst", "--co", "--collect-only", "--verbose", "--quiet",
    "--showlocals", "--no-header", "--no-summary", "--strict-markers", "--strict-config",
    "--doctest-modules", "--runxfail", "--disable-warnings", "--disable-pytest-warnings", "--full-trace",
    "--setup-only", "--setup-show", "--setup-plan", "--fixtures", "--markers", "--cov-append", "--no-cov",
    "--no-cov-on-fail", "--forked",
})  # fmt: skip
_PYTEST = Runner(("--rootdir", "-c", "--config-file"), operands=-1, flags=_PYTEST_FLAGS)

RUNNERS: dict[str, Runner] = {
    "make": _MAKE,
    "gmake": _MAKE,
    "mingw32-make": _MAKE,
    "npm": Runner(("--prefix",), runs=_NPM_RUNS),
    "yarn": Runner(("--cwd",), runs=frozenset({"test", "run", "start", "build", "install", "exec", "node"})),
    "pnpm": Runner(("-c", "--dir"), runs=_NPM_RUNS | {"build", "dlx"}),
    "bun": Runner(("--cwd",), runs=frozenset({"test", "run", "install", "i", "x"})),
    "cargo": Runner(
        ("--manifest-path",),
        runs=frozenset({"build", "b", "test", "t", "run", "r", "bench", "check", "c", "clippy", "doc"}),
    ),
    "go": Runner(("-c",), runs=frozenset({"build", "test", "run", "generate", "vet", "install"})),
    "gradle": _GRADLE,
    "gradlew": _GRADLE,
    "mvn": _MAVEN,
    "mvnw": _MAVEN,
    "rake": Runner(("-f", "--rakefile", "-c", "--directory")),
    "ant": Runner(("-f", "-file", "-buildfile")),
    "just": Runner(("-f", "--justfile", "-d", "--working-directory")),
    "task": Runner(("-d", "--dir", "-t", "--taskfile")),
    "tox": Runner(("-c", "--conf")),
    "pytest": _PYTEST,
    "py.test": _PYTEST,
    "mocha": Runner(operands=-1),
    "invoke-pester": Runner(  # (its second position is -TestName)
        ("-path", "-script"),
        operands=1,
        flags=frozenset({"-ci", "-passthru", "-enableexit", "-strict", "-quiet", "-nonewpssession"}),
    ),
    "r": Runner(operands=-1, runs=frozenset({"build", "check"})),  # (`R CMD check x.tar.gz`)
    # a project file of any name is a build's code (`msbuild C:\\Users\\Public\\config` runs its tasks)
    "msbuild": Runner(operands=1, switches=True),
    "dotnet": Runner(
        ("--project",), operands=2, switches=True, runs=frozenset({"build", "msbuild", "test", "run", "pack"})
    ),
}
"""Runners by command name (lower case)."""

_ONLY_ASKS = frozenset({"--version", "-v", "--help", "-h", "version", "help", "-?", "/?"})


def run_places(name: str, args: list[Arg]) -> list[Arg] | None:
    """The folders and build files `name ARGS` runs the code of, as written, when they may lie outside the
    working directory (a path from the root, the home, a drive or a share, or one with `..`); empty when
    it names none of them; None when `name` is no runner or this use of it runs no project (`npm
    --version`, `cargo fmt`)."""
    runner = RUNNERS.get(name)
    if runner is None:
        return None
    if len(args) == 1 and args[0].text.lower() in _ONLY_ASKS:
        return None
    if runner.runs is not None and not any(a.text.lower() in runner.runs for a in args):
        return None
    found: list[Arg] = []
    options = runner.options
    after_value = False
    taken = 0  # operands read as test paths so far
    for i, a in enumerate(args):
        text = a.text
        if text == "--":
            break  # what follows is the test program's own (`dotnet test -- --treenode-filter '/*/x'`)
        if after_value:
            after_value = False
            continue
        lowered = text.lower()
        if lowered in options and i + 1 < len(args):
            found.append(args[i + 1])
            after_value = True
            continue
        key, eq, value = text.partition("=")
        if eq and key.lower() in options:
            found.append(Arg(value, a.raw.partition("=")[2] or value))
            continue
        short = lowered[:2]
        if len(text) > 2 and text[:1] == "-" and text[1:2] != "-" and short in options:
            found.append(Arg(text[2:], a.raw[len(a.raw) - len(text) + 2 :]))  # `-C../x`, `-f/tmp/Makefile`
            continue
        if runner.switches and text[:1] in "-/" and ":" in text:
            continue  # `--collect:"XPlat Code Coverage"`, `-p:X=1`: its value is attached
        if ((text[:2] == "--" and not eq) or a.param) and lowered not in runner.flags:
            # `--junitxml /tmp/x.xml`, `-OutputFile x.xml`: an option's value, not a test path
            after_value = True
            continue
        if runner.switches and text[:1] == "/" and (":" in text[1:] or text[1:].isalpha()):
            continue  # `/t:Build`, `/restore`: a switch (a path has more than letters, and no colon)
        if text[:1] != "-" and (runner.operands < 0 or taken < runner.operands):
            found.append(a)
            taken += 1
    return [a for a in found if _may_lie_outside(a)]


def _may_lie_outside(word: Arg) -> bool:
    """A path from the root, the home, a drive or a share, or one with `..`: written so it may leave the
    working directory. A word holding a variable is only known at run time: the sandbox's to contain, but
    one under a folder cmd names by a variable (`%APPDATA%\\x\\config`) is judged where it lies."""
    text = word.text.partition("::")[0]  # (`pytest x.py::test_a`)
    if in_cmd_variable_folder(word.raw):
        return True
    if not text or DYN in text or "$" in word.raw or text.startswith(("/dev/", "/proc/")):
        return False  # (`make -f /dev/stdin`: a program read on standard input, the engine's own case)
    return text[0] in "/\\~" or ".." in text or (len(text) > 1 and text[1] == ":")
