"""The loop-owned test run: runs the user's `--test` command and condenses its outcome into one line."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from pydantic import BaseModel

from glmagent.secrets import Redactor
from glmagent.tools.executor import format_process_output
from glmagent.tools.shell import ShellBackend

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
