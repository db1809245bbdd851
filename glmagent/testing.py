"""The loop-owned test run: runs the user's `--test` command and condenses its outcome into one line; what
of its output a model needs (`trim_test_output`, `locations_in`); and which files are tests, so that a model
cannot pass a task by changing them (`TestFiles`, `task_allows_test_changes`)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from glmagent.secrets import Redactor
from glmagent.testpaths import is_test_path
from glmagent.tools.executor import format_process_output
from glmagent.tools.shell import ShellBackend
from glmagent.workspace import PathRejected, Workspace

DEFAULT_TEST_TIMEOUT = 900.0

_PYTEST_COUNTS = re.compile(
    r"^=*\s*((?:\d+ (?:failed|passed|errors?|skipped|xfailed|xpassed|warnings?)[, ]*)+)"
)
_PYTEST_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


class TestOutcome(BaseModel):
    """One run of the test command."""

    __test__ = False  # not a pytest test class

    command: str
    passed: bool
    exit_code: int | None
    summary: str
    """One line for the memory file, e.g. `pytest failed: 1 failed in tests/test_x.py::test_none`."""
    output: str
    duration_s: float


class ShellTestRunner:
    """Runs the test command through the same shell backend (and OS sandbox) as `run`.

    The command line comes from the user (or a trusted project config), not from the model, so it skips the
    command policy; the code it runs may have been edited by the model, so it runs inside the same sandbox.
    """

    __test__ = False

    def __init__(
        self,
        shell: ShellBackend,
        cwd: Path,
        command: str,
        timeout: float = DEFAULT_TEST_TIMEOUT,
        redactor: Redactor | None = None,
    ):
        self.shell = shell
        self.cwd = cwd
        self.command = command
        self.timeout = timeout
        self.redactor = redactor or Redactor()

    def run(self) -> TestOutcome:
        result = self.shell.run(self.command, self.cwd, self.timeout)
        # Test output reaches the model and the records like any observation: secrets are replaced first.
        result = result.model_copy(
            update={"stdout": self.redactor(result.stdout), "stderr": self.redactor(result.stderr)}
        )
        passed = result.ok
        outcome = f"timed out after {self.timeout:.0f}s" if result.timed_out else f"exit {result.exit_code}"
        return TestOutcome(
            command=self.command,
            passed=passed,
            exit_code=result.exit_code,
            summary=summarise_test_run(self.command, passed, result.combined(), result.timed_out),
            output=format_process_output(self.command, outcome, result.stdout, result.stderr),
            duration_s=result.duration_s,
        )


#: Test runners named by one word (`pytest`), also as `python -m NAME`.
_RUNNERS = frozenset(
    {
        "pytest",
        "py.test",
        "unittest",
        "tox",
        "nox",
        "nose2",
        "jest",
        "vitest",
        "mocha",
        "ava",
        "karma",
        "rspec",
        "phpunit",
        "pest",
        "ctest",
        "prove",
        "behave",
        "bats",
        "busted",
        "tap",
        "playwright",
    }
)
#: Tools whose first word after them names what runs (`npm test`, `go test`, `make check`).
_TOOLS = frozenset(
    {
        "npm",
        "yarn",
        "pnpm",
        "bun",
        "cargo",
        "go",
        "make",
        "gmake",
        "mvn",
        "mvnw",
        "gradle",
        "gradlew",
        "dotnet",
        "deno",
        "bazel",
        "swift",
        "mix",
        "hatch",
        "rake",
        "composer",
        "just",
        "task",
        "ninja",
        "zig",
    }
)


def command_label(command: str) -> str:
    """A short name for the test command: its test runner (`pytest`, `npm test`, `cargo test`, `make check`),
    wherever it sits in the line (`timeout 60 pytest`, `cd web && npm test`); `tests` when none is known.

    Never the first word of an arbitrary command: `sleep 5` or `env CI=1 ./check.sh` are just `tests`.
    """
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    names = [Path(word).name.removesuffix(".exe").removesuffix(".cmd").lower() for word in words]
    for index, name in enumerate(names):
        if name.startswith("python") and names[index + 1 : index + 2] == ["-m"] and index + 2 < len(words):
            module = names[index + 2]
            if module in _RUNNERS:
                return module
        if name in _RUNNERS:
            return name
        if name in _TOOLS:
            rest = [word for word in words[index + 1 :] if not word.startswith("-")]
            if rest[:1] == ["run"] and len(rest) > 1:
                return f"{name} run {rest[1]}"
            return f"{name} {rest[0]}" if rest and _plain_word(rest[0]) else name
    return "tests"


def _plain_word(word: str) -> bool:
    return bool(re.fullmatch(r"[\w.:/-]{1,40}", word)) and "=" not in word


def passed_count(output: str) -> int | None:
    """How many tests the run's closing line says passed (`3 failed, 2 passed in 0.1s`; 0 when it names no
    passes); None without such a line."""
    for line in reversed(output.splitlines()):
        match = _PYTEST_COUNTS.match(line.strip())
        if match:
            passed = re.search(r"(\d+) passed", match.group(1))
            return int(passed.group(1)) if passed else 0
    return None


def ran_count(output: str) -> int | None:
    """How many tests the run's closing line says ran (passed, failed or in error; skipped and deselected
    tests did not run); None without such a line."""
    for line in reversed(output.splitlines()):
        match = _PYTEST_COUNTS.match(line.strip())
        if match:
            counts = re.findall(r"(\d+) (passed|failed|errors?)\b", match.group(1))
            return sum(int(n) for n, _ in counts)
    return None


def fewer_tests_ran(baseline: TestOutcome, now: TestOutcome) -> TestOutcome:
    """`now`, marked failed when it passed with fewer tests run than the baseline ran.

    With the test files read-only, a model can still make a run pass by running less of it: a
    `-k`/`--deselect` or `addopts` in pyproject.toml or setup.cfg, a module-level skip in the code under
    test, a collection hook. A passing run that ran fewer tests than at the start is no proof of a fix.
    Only judged when both runs print pytest's closing line; a run that ran more tests is fine.
    """
    before, after = ran_count(baseline.output), ran_count(now.output)
    if not now.passed or before is None or after is None or after >= before:
        return now
    return now.model_copy(
        update={
            "passed": False,
            "summary": f"{now.summary}, but only {after} of the {before} tests that ran at the start ran "
            "(the others were skipped or deselected)",
        }
    )


def failing_tests(output: str) -> list[str]:
    """The ids of the tests a run reports as failed or in error (pytest's `FAILED x::y` lines)."""
    return list(dict.fromkeys(_PYTEST_FAILED.findall(output)))


def summarise_test_run(command: str, passed: bool, output: str, timed_out: bool = False) -> str:
    """`pytest passed`, `pytest failed: 1 failed in tests/t.py::test_x`, or a generic exit-code line."""
    label = command_label(command)
    if timed_out:
        return f"{label} timed out"
    if passed:
        return f"{label} passed"
    counts = None
    for line in reversed(output.splitlines()):
        match = _PYTEST_COUNTS.match(line.strip())
        if match:
            # Only the bad news belongs in the summary: "1 failed, 1 error", not the passes and skips.
            parts = [p.strip() for p in match.group(1).split(",")]
            counts = ", ".join(p for p in parts if re.match(r"\d+ (failed|errors?)$", p)) or None
            break
    failed = list(dict.fromkeys(_PYTEST_FAILED.findall(output)))
    if counts and failed:
        more = f" (+{len(failed) - 3} more)" if len(failed) > 3 else ""
        return f"{label} failed: {counts} in {', '.join(failed[:3])}{more}"
    if counts:
        return f"{label} failed: {counts}"
    last = next((line.strip() for line in reversed(output.splitlines()) if line.strip()), "")
    return f"{label} failed" + (f": {last[:160]}" if last else "")


# -- what of the test output a model needs --------------------------------------------------------------

#: Lines that only point at columns (`^^^^`, `~~~^~~~`): noise to a model, which copies them into diffs.
_MARKER_LINE = re.compile(r"^\s*[\^~]+[\s\^~]*$")
#: pytest's separators between the frames of one traceback.
_FRAME_SEPARATOR = re.compile(r"^(_ ){8,}_?\s*$")
#: `path/to/file.py:12` (pytest, compilers, linters) and `File "path/to/file.py", line 12` (Python).
_LOCATION = re.compile(
    r"""(?:File\s+"(?P<quoted>[^"\n]+)",\s+line\s+(?P<qline>\d+))"""
    r"""|(?:(?<![\w./-])(?P<path>[\w./-]*\w\.\w+):(?P<line>\d+)\b)"""
)


def trim_test_output(output: str) -> str:
    """Test output as a model should see it: without column-marker lines (`^^^^`), pytest's frame
    separators and runs of blank lines; and in pytest's failure reports, only each failure's title, the
    failing lines (`>`, unindented), its `E` lines (the error and the values compared) and its `file:line`
    locations, not the rest of the quoted source (the prompt shows the files themselves, numbered; models
    copy quoted lines, with pytest's indentation, into diffs). A closing line loses its run time (`1 failed
    in 0.92s`): it says nothing about the code, and a prompt that differs only in it made the same model,
    at temperature 0, write another fix."""
    kept: list[str] = []
    in_failures = False
    for line in output.splitlines():
        if _MARKER_LINE.match(line) or _FRAME_SEPARATOR.match(line):
            continue
        if _PYTEST_SECTION.match(line):
            in_failures = "FAILURES" in line or "ERRORS" in line
        elif in_failures and line.startswith(">"):
            line = "> " + line[1:].strip()  # the failing line, without pytest's indentation
        elif in_failures and not _PYTEST_KEPT.match(line):
            continue
        if not line.strip() and kept and not kept[-1].strip():
            continue
        timed = _RUN_TIME.match(line)
        if timed is not None:
            line = timed.group("head") + timed.group("tail")
        kept.append(line.rstrip())
    return "\n".join(kept).strip("\n")


#: A closing line's run time: pytest's `2 failed, 1 passed in 0.92s (0:00:01)`, unittest's `Ran 3 tests in
#: 0.002s`.
_RUN_TIME = re.compile(
    r"^(?P<head>(?:=+ )?(?:(?:\d+ (?:passed|failed|skipped|errors?|warnings?|xfailed|xpassed|deselected"
    r"|rerun)(?:, )?)+|no tests ran|Ran \d+ tests?))"
    r" in \d+(?:\.\d+)?\s?s(?: \(\d+:\d\d:\d\d\))?(?P<tail>(?: =+)?)\s*$"
)
#: `==== FAILURES ====`, `==== short test summary info ====` and the like.
_PYTEST_SECTION = re.compile(r"^={3,} .* ={3,}$")
#: What a pytest failure report keeps: titles, `E` lines, `path:line:` locations, captured-output headers.
_PYTEST_KEPT = re.compile(r"^(_{3,} .* _{3,}|E  |[\w./-]+:\d+:|-{3,} .* -{3,}|\s*$)")


def locations_in(output: str) -> list[tuple[str, int]]:
    """`(path, line)` for every file location the output names, first mention first, each path once
    (its first line). Paths are as written: relative, or absolute for tracebacks."""
    seen: dict[str, int] = {}
    for match in _LOCATION.finditer(output):
        path = match.group("quoted") or match.group("path")
        line = match.group("qline") or match.group("line")
        if path and path not in seen:
            seen[path] = int(line)
    return list(seen.items())


# -- test files: what the verdict rests on ---------------------------------------------------------------

_ASKS_FOR_TEST_CHANGES = re.compile(
    r"\b(add|write|update|change|edit|adjust|extend|rewrite|create|remove|delete|rename|correct|modify|"
    r"improve|refactor|move|split)\s+(?:(?:a|an|the|its|their|these|those|this|that|my|our|new|more|some|"
    r"all|any|failing|broken|existing|old|unit|integration|regression|missing|matching|related)\s+){0,3}"
    r"(?:tests?|specs?|test cases?|test files?|test suite|unit tests?)\b"
    r"|\b(?:tests?|specs?|test suite)\b[^.!?\n]{0,30}\b(?:is|are)\s+(?:wrong|outdated|incorrect|out of "
    r"date|obsolete)\b",
    re.IGNORECASE,
)


def task_allows_test_changes(description: str) -> bool:
    """Whether a task's description asks for changes to tests ("add a test for ...", "update the tests",
    "the test is wrong"). "Fix the failing test" or "make the tests pass" do not: they ask for the code to
    change, with the tests as the judge."""
    return bool(_ASKS_FOR_TEST_CHANGES.search(description))


#: Bounds of the snapshot of test files (beyond them, changes are still seen but cannot be undone).
SNAPSHOT_MAX_FILES = 5_000
SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024


class TestFiles:
    """The project's test files as they were when the task started, to see and undo changes to them.

    "The tests pass" decides a task, so a model must not be able to turn a failing run into a passing one by
    editing the tests (by mistake or on purpose). Unless the task asks for test changes, the loop refuses
    diffs to these files and puts back any that a command changed, created or deleted; every such file is
    named in the summary, the result and the audit log. Files are listed once, at the start (tracked and
    untracked, as the project map lists them), up to `SNAPSHOT_MAX_FILES` files and `SNAPSHOT_MAX_BYTES`;
    a test file created later is found by a second listing.
    """

    __test__ = False

    def __init__(self, workspace: Workspace, list_files: Callable[[], list[str]]) -> None:
        self.workspace = workspace
        self._list = list_files
        self._original: dict[str, bytes | None] = {}
        self._stats: dict[str, tuple[int, int] | None] = {}
        self.complete = True
        """False when the snapshot hit its bounds: changes beyond them cannot be put back."""
        for path in self._test_paths():
            self._stats[path] = self._stat(path)
            self._original[path] = self._read(path)

    def _test_paths(self) -> list[str]:
        return [p for p in self._list() if is_test_path(p)]

    def _read(self, path: str) -> bytes | None:
        if len(self._original) >= SNAPSHOT_MAX_FILES:
            self.complete = False
            return None
        target = self.workspace.root / path
        try:
            if target.is_symlink() or not target.is_file():
                return None
            size = target.stat().st_size
            if size + sum(len(v or b"") for v in self._original.values()) > SNAPSHOT_MAX_BYTES:
                self.complete = False
                return None
            return target.read_bytes()
        except OSError:
            return None

    def _stat(self, path: str) -> tuple[int, int] | None:
        try:
            info = (self.workspace.root / path).lstat()
        except OSError:
            return None
        return info.st_size, info.st_mtime_ns

    def is_test(self, path: str) -> bool:
        return is_test_path(path)

    def changed(self) -> list[str]:
        """Test files whose content differs from the start, or that were created or deleted since."""
        changed = []
        for path, data in self._original.items():
            if data is not None and self._stat(path) == self._stats[path]:
                continue  # same size and modification time: not rewritten (reading every file is slow)
            target = self.workspace.root / path
            try:
                now = target.read_bytes() if target.is_file() and not target.is_symlink() else None
            except OSError:
                now = None
            if now != data:
                changed.append(path)
        known = set(self._original)
        changed.extend(p for p in self._test_paths() if p not in known)
        return sorted(changed)

    def restore(self, paths: list[str]) -> list[str]:
        """Put `paths` back as they were at the start (written atomically; created ones deleted); returns
        those that could not be (beyond the snapshot's bounds, or an operating-system error)."""
        failed = []
        for path in paths:
            try:
                target = self.workspace.resolve(path, for_write=True)
                if path not in self._original:
                    if target.is_file() and not target.is_symlink():
                        self.workspace.delete(target)
                    continue
                data = self._original[path]
                if data is None:
                    failed.append(path)
                    continue
                self.workspace.write_atomic(target, data)
                self._stats[path] = self._stat(path)
            except (OSError, PathRejected):
                failed.append(path)
        return failed
