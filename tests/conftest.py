"""Shared fixtures: real temporary projects, a scripted planner, and the real executor parts.

The whole session runs with a private home: `pytest_configure` points HOME, every XDG base directory and
glmagent's own folders at a fresh temporary directory before any test module is imported, and drops the
provider keys and `GLMAGENT_*` settings of the developer's shell, so no test reads or writes the real ones
(subprocesses inherit all of it). At the end of the session the real home is compared with a snapshot taken
at the start: any file or folder created, removed or changed there fails the run. Hypothesis runs
derandomized unless `GLMAGENT_HYPOTHESIS=long` asks for a longer random search (README "Development").
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from glmagent.guard import Decision

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus"

#: Set once per session (and inherited by xdist workers and subprocesses): the private home in use.
_SESSION_HOME = "GLMAGENT_TEST_SESSION_HOME"
#: Paths under the real home (relative, `os.pathsep`-separated) that other programs running beside the suite
#: change (a browser, an editor): left out of the end-of-session check.
HOME_IGNORE = "GLMAGENT_TEST_HOME_IGNORE"
#: Variables of the developer's shell that would change what glmagent does; none of them leaks into a test.
_PROVIDER_VARIABLES = (
    "ZAI_API_KEY",
    "ZHIPUAI_API_KEY",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OLLAMA_HOST",
    "NO_COLOR",
    "FORCE_COLOR",
)
_XDG_DIRS = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_STATE_HOME": ".local/state",
    "XDG_DATA_HOME": ".local/share",
    "XDG_CACHE_HOME": ".cache",
    "XDG_RUNTIME_DIR": "run",
}
_real_home: Path | None = None
_home_before: dict[str, tuple[int, int | None, int | None]] | None = None


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _private_home() -> Path:
    """Create the session's home: XDG folders, glmagent's folders and a git identity of its own."""
    home = Path(tempfile.mkdtemp(prefix="glmagent-tests-home-"))
    for relative in _XDG_DIRS.values():
        (home / relative).mkdir(parents=True, mode=0o700, exist_ok=True)
    (home / ".gitconfig").write_text(
        "[user]\n\tname = glmagent tests\n\temail = tests@example.invalid\n"
        "[commit]\n\tgpgsign = false\n[init]\n\tdefaultBranch = main\n",
        encoding="utf-8",
    )
    return home


def pytest_configure(config: pytest.Config) -> None:
    """Point every per-user directory at a private home before any test module is imported."""
    global _real_home
    config.addinivalue_line("markers", "own_policy_cache: the test starts with an empty policy cache")
    import hypothesis_profiles

    hypothesis_profiles.load()
    _hear_ctrl_c()
    if _is_worker(config) or not getattr(config.option, "numprocesses", None):
        _bare_inner_pytest()
    if _is_worker(config) and os.environ.get(_SESSION_HOME):
        _untimed_parsing()
        return  # the controller set it all up; its environment is inherited
    # Compiled modules are built artefacts like any other: with PYTHONDONTWRITEBYTECODE set (as on CI
    # machines) every `glmagent` a test starts would compile the whole package again.
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    _real_home = Path(os.path.expanduser("~")).resolve()
    _start_home_snapshot(_real_home)
    home = _private_home()
    os.environ[_SESSION_HOME] = str(home)
    os.environ["HOME"] = str(home)
    os.environ["USERPROFILE"] = str(home)  # Path.home() on Windows
    for variable, relative in _XDG_DIRS.items():
        os.environ[variable] = str(home / relative)
    for variable in [name for name in os.environ if name.startswith("GLMAGENT_")]:
        if variable not in (_SESSION_HOME, HOME_IGNORE, "GLMAGENT_HYPOTHESIS"):
            del os.environ[variable]
    for variable in _PROVIDER_VARIABLES:
        os.environ.pop(variable, None)
    os.environ["GLMAGENT_CONFIG_DIR"] = str(home / ".config" / "glmagent")
    os.environ["GLMAGENT_STATE_DIR"] = str(home / ".local" / "state" / "glmagent")
    _untimed_parsing()


_home_snapshot_thread: threading.Thread | None = None


def _start_home_snapshot(root: Path) -> None:
    """Walk the real home beside the workers' start-up (a developer's home holds toolchains of 100,000s of
    files: seconds of walking); `_home_snapshot_taken` waits for it before any test runs."""
    global _home_snapshot_thread

    def take() -> None:
        global _home_before
        _home_before = snapshot(root)

    _home_snapshot_thread = threading.Thread(target=take, name="real-home-snapshot", daemon=True)
    _home_snapshot_thread.start()


def _home_snapshot_taken() -> None:
    global _home_snapshot_thread
    if _home_snapshot_thread is not None:
        _home_snapshot_thread.join()
        _home_snapshot_thread = None


def pytest_collection_finish(session: pytest.Session) -> None:
    """Without workers: the home's first snapshot is complete before the first test runs."""
    _home_snapshot_taken()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: object, ids: list[str]) -> None:
    """With workers (on the controller): no test is handed out before the home's first snapshot is taken."""
    _home_snapshot_taken()


def _hear_ctrl_c() -> None:
    """Tests press Ctrl-C (SIGINT) at glmagent, in this process and in the ones it starts. A shell that starts
    the suite in the background (`cmd &` in a script) has every process ignore SIGINT, and ignoring is
    inherited: take it back, so what those tests see does not depend on how pytest was started (the
    processes a test starts then begin with SIGINT at its default, as from a terminal)."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _bare_inner_pytest() -> None:
    """The small projects tests make run their own pytest (the test command of a task). Those runs see
    only pytest itself, not the plugins installed for this suite (hypothesis, pyfakefs, xdist, whatever
    the developer has): what they report cannot depend on the machine, and each starts in about half the
    time. Set once this process has loaded its own plugins (an xdist controller starts its workers after
    configuring, so only workers and a run without workers set it)."""
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"


def _untimed_parsing() -> None:
    """A check gives up parsing a long line after `PARSE_BUDGET_S` of wall time (`size.exceeded`): on a busy
    machine that would change what a test sees. In this process parsing is untimed; the tests of the budget
    set it themselves (`glmagent` processes a test starts keep the real budget)."""
    from glmagent.guard import _syntax

    _syntax.PARSE_BUDGET_S = 600.0


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when anything under the real home changed while it ran."""
    _home_snapshot_taken()
    if _is_worker(session.config) or _real_home is None or _home_before is None:
        return
    cache = getattr(session.config, "cache", None)
    if cache is not None and _file_seconds:
        # Merged, so a run of a few files updates theirs and keeps the others'.
        stored = dict(cache.get(_FILE_SECONDS, {}) or {})
        stored.update({name: round(seconds, 2) for name, seconds in _file_seconds.items()})
        cache.set(_FILE_SECONDS, stored)
    changed = home_changes(_home_before, snapshot(_real_home), _real_home)
    private = os.environ.get(_SESSION_HOME)
    if private:
        shutil.rmtree(private, ignore_errors=True)
    if not changed:
        return
    shown = "\n".join(f"  {line}" for line in changed[:40])
    more = f"\n  ... and {len(changed) - 40} more" if len(changed) > 40 else ""
    message = (
        f"the test session changed the real home {_real_home} (tests must use the private home):\n"
        f"{shown}{more}\n(a path another program changes while the suite runs can be left out with "
        f"{HOME_IGNORE}=relative/path)"
    )
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "real home changed", red=True)
        reporter.write_line(message)
    else:
        print(message, file=sys.stderr)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def snapshot(root: Path) -> dict[str, tuple[int, int | None, int | None]]:
    """Every entry under `root`: its type and permission bits, and for files their size and mtime.

    A folder's own times are left out (reading it changes nothing; adding to it shows as a new entry).
    """
    ignored = {str(root / part) for part in os.environ.get(HOME_IGNORE, "").split(os.pathsep) if part.strip()}
    found: dict[str, tuple[int, int | None, int | None]] = {}
    pending = [str(root)]
    while pending:
        folder = pending.pop()
        try:
            entries = os.scandir(folder)
        except OSError:
            continue
        with entries:
            for entry in entries:
                if entry.path in ignored:
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    found[entry.path] = (info.st_mode, None, None)
                    pending.append(entry.path)
                else:
                    found[entry.path] = (info.st_mode, info.st_size, info.st_mtime_ns)
    return found


def home_changes(
    before: dict[str, tuple[int, int | None, int | None]],
    after: dict[str, tuple[int, int | None, int | None]],
    root: Path,
) -> list[str]:
    """What differs between two snapshots, one line per path, relative to `root`."""
    if before == after:
        return []
    differing = (before.keys() ^ after.keys()) | {
        p for p in before.keys() & after.keys() if before[p] != after[p]
    }
    changes = []
    for path in sorted(differing):
        verb = "created" if path not in before else "removed" if path not in after else "changed"
        changes.append(f"{verb}  ~/{os.path.relpath(path, root)}")
    return changes


_PLAIN = (str, bytes, int, float, bool, type(None))


def _plain(value: object) -> bool:
    """A value whose `repr` says all there is to it (so equal reprs are the same case)."""
    if isinstance(value, _PLAIN):
        return True
    return isinstance(value, (tuple, list)) and all(_plain(item) for item in value)


#: On a parametrized case listed twice: the node id of its first listing.
_DUPLICATE_OF = pytest.StashKey[str]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A parametrized case listed twice checks nothing new: every exact repeat fails, naming the first.
    (Failing the repeats, rather than stopping collection, keeps the reason visible under xdist, whose
    workers collect on their own and would only report a crashed worker.)"""
    seen: dict[tuple[str, str, str], str] = {}
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None or not all(_plain(value) for value in callspec.params.values()):
            continue
        key = (
            str(item.path),
            getattr(item, "originalname", item.name),
            repr(sorted(callspec.params.items())),
        )
        if key in seen:
            item.stash[_DUPLICATE_OF] = seen[key]
        else:
            seen[key] = item.nodeid
    _heaviest_files_first(config, items)


#: Where the controller keeps each test file's run time (summed over its tests) for the next session.
_FILE_SECONDS = "glmagent/file-seconds"
_file_seconds: dict[str, float] = {}


def _heaviest_files_first(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Order whole files, longest first, each file's tests kept in order (`--dist loadfile` hands files out
    in this order, `--no-loadscope-reorder` in pyproject). xdist's own order, most tests first, left
    the few-test end-to-end files (a real model server, a wheel build) for last, where one of them ran
    alone on one core while the other cores sat idle. Times come from the previous session when the
    pytest cache has them; otherwise a file counts as its number of tests, as xdist would order it."""
    cache = getattr(config, "cache", None)
    known: dict[str, float] = (cache.get(_FILE_SECONDS, {}) if cache is not None else {}) or {}
    counts: dict[str, int] = {}
    for item in items:
        name = item.nodeid.split("::", 1)[0]
        counts[name] = counts.get(name, 0) + 1
    typical = sorted(known.values())[len(known) // 2] if known else 0.0

    def weight(name: str) -> float:
        if known:
            return float(known.get(name, typical))
        return float(counts[name])

    rank = {name: position for position, name in enumerate(sorted(counts, key=weight, reverse=True))}
    items.sort(key=lambda item: rank[item.nodeid.split("::", 1)[0]])  # stable: a file keeps its order


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the machine has CPUs. Many tests wait (on a child process, a local
    server, a backoff), and with one worker per CPU a CPU sat idle while they did; one more keeps the
    CPUs busy. Nothing in the suite depends on the timing this changes."""
    return (os.cpu_count() or 1) + 1


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add up each file's run time (on the controller, workers' reports included) for the next order."""
    name = report.nodeid.split("::", 1)[0]
    _file_seconds[name] = _file_seconds.get(name, 0.0) + report.duration


@pytest.fixture(autouse=True)
def _private_user_dirs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test gets its own user config and state folders, apart from other tests' (the session's
    private home stays beneath, should a test undo its monkeypatches).

    The compiled-policy cache in it is the session's, shared: every `glmagent` a test starts would
    otherwise compile and prove the policy again. Tests of the cache itself mark their module
    `own_policy_cache` and get an empty one.
    """
    if _DUPLICATE_OF in request.node.stash:
        pytest.fail(f"duplicate parametrized case: it repeats {request.node.stash[_DUPLICATE_OF]}")
    base = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("GLMAGENT_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("GLMAGENT_STATE_DIR", str(base / "state"))
    if request.node.get_closest_marker("own_policy_cache") is None and os.environ.get(_SESSION_HOME):
        shared = Path(os.environ[_SESSION_HOME]) / ".local" / "state" / "glmagent" / "policy-cache"
        shared.mkdir(parents=True, exist_ok=True)
        (base / "state").mkdir()
        (base / "state" / "policy-cache").symlink_to(shared, target_is_directory=True)


def plan(*actions: dict, thought: str = "working on it", steps: list[str] | None = None) -> dict:
    """A planner reply document."""
    return {"thought": thought, "plan": steps or [], "actions": list(actions)}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small real project directory with a module and a state-driven test command."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text("def greet(name):\n    return 'hello ' + name\n", encoding="utf-8")
    return root


@pytest.fixture
def git_project(project: Path) -> Path:
    """`project` as a git repository with one commit."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)
    subprocess.run(["git", *env_args, "commit", "-qm", "init"], cwd=project, check=True)
    return project


def python_check(expression: str) -> str:
    """A test command that passes when `expression` (Python, run in the project) is true."""
    code = f"import sys; sys.exit(0 if ({expression}) else 1)"
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def guard_decision(shell: str, command: str) -> Decision:
    """The built-in policy's decision on `command` (imported here lazily: conftest loads for every test)."""
    from glmagent.guard import Policy

    return Policy.default().check(command, shell)  # type: ignore[arg-type]


def guard_example(command: str) -> Decision:
    """The built-in policy's decision on a command written like a rule example: `PS> ` runs it on the
    PowerShell backend, anything else on POSIX."""
    if command.startswith("PS> "):
        return guard_decision("powershell", command[4:])
    return guard_decision("posix", command)


ELEVATION = "containment.privilege-elevation"
"""The rule that decides any line that elevates or switches user (`sudo X`), whatever X is."""


def guard_findings(shell: str, command: str) -> set[str]:
    """Every rule id and category the whole walk finds in `command` (not only the deciding one)."""
    from glmagent.guard import Policy

    explained = Policy.default().explain(command, shell)  # type: ignore[arg-type]
    found = [f for c in explained.commands for f in c.findings] + list(explained.line_findings)
    return {f.rule_id for f in found} | {f.category for f in found}


def assert_decided_as(shell: str, command: str, decision: Decision, expected: str) -> None:
    """`decision` blocks `command` as `expected` (a rule id with a dot, or a category). A line that elevates
    (`sudo X`) is decided by the privilege rule; what it wraps must still be found as `expected` inside it."""
    assert not decision.allowed, f"allowed: {command!r}"
    got = decision.rule_id if "." in expected else decision.category
    if got != expected and decision.rule_id == ELEVATION:
        assert expected in guard_findings(shell, command), f"{command!r}: {expected} not found inside"
        return
    assert got == expected, f"{command!r}: {decision.rule_id} ({decision.reason})"


def guard_blocks(shell: str, command: str, expected: str) -> None:
    """`command` is blocked by `expected`: a rule id (with a dot) or a category (see `assert_decided_as`)."""
    assert_decided_as(shell, command, guard_decision(shell, command), expected)


def guard_allows(shell: str, command: str, *, clean_parse: bool = False) -> None:
    """`command` is allowed (and, with `clean_parse`, read without a parse problem)."""
    d = guard_decision(shell, command)
    assert d.allowed, f"blocked: {command!r}: {d.rule_id} ({d.reason})"
    if clean_parse:
        assert d.parse_status == "ok"
