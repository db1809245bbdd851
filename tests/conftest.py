"""Shared fixtures: real temporary projects, a scripted planner, and the real executor parts.

The whole session runs with a private home: `pytest_configure` points HOME, every XDG base directory and
glmagent's own folders at a fresh temporary directory before any test module is imported, and drops the
provider keys and `GLMAGENT_*` settings of the developer's shell, so no test reads or writes the real ones
(subprocesses inherit all of it). At the end of the session anything under the real home whose change time
is later than the session's start (a file or folder created, removed or changed there) fails the run.
Hypothesis runs derandomized unless `GLMAGENT_HYPOTHESIS=long` asks for a longer random search (README
"Development").
"""

from __future__ import annotations

import itertools
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from glmagent.guard import Decision

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus"
WORDS_MODULE = (REPO_ROOT / "bench" / "live_tasks" / "word_case" / "project" / "words.py").read_bytes()
"""The live bench's word_case module: tests replay what its model sent for it."""

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
#: In the session's private home, written as the session starts: what changed in the real home since is newer.
_SESSION_MARK = ".gitconfig"


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _private_home() -> Path:
    """Create the session's home: XDG folders, glmagent's folders and a git identity of its own."""
    home = Path(tempfile.mkdtemp(prefix="glmagent-tests-home-"))
    for relative in _XDG_DIRS.values():
        (home / relative).mkdir(parents=True, mode=0o700, exist_ok=True)
    (home / _SESSION_MARK).write_text(
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
        _policy_cache_warmed()
        return  # the controller set it all up; its environment is inherited
    # Compiled modules are built artefacts like any other: with PYTHONDONTWRITEBYTECODE set (as on CI
    # machines) every `glmagent` a test starts would compile the whole package again.
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    _real_home = Path(os.path.expanduser("~")).resolve()
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
    if getattr(config.option, "numprocesses", None):
        _warm_policy_cache(home)


def _hear_ctrl_c() -> None:
    """Tests press Ctrl-C (SIGINT) at glmagent, in this process and in the ones it starts. A shell that starts
    the suite in the background (`cmd &` in a script) has every process ignore SIGINT, and ignoring is
    inherited: take it back, so what those tests see does not depend on how pytest was started (the
    processes a test starts then begin with SIGINT at its default, as from a terminal)."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


#: In the session's home: held locked by the process building the session's policy cache until it is done.
_POLICY_WARMING = "policy-cache-warming.lock"
_policy_warming: subprocess.Popen[bytes] | None = None


def _warm_policy_cache(home: Path) -> None:
    """Build the session's compiled-policy cache once, beside the workers' start-up. The session's home is
    new, so its cache starts empty, and every worker (whose collection loads the policy) would otherwise
    compile and prove it on its own at the same moment: seconds of CPU each. POSIX only (a lock the
    builder holds until it exits, dead or alive); elsewhere each worker builds it as before."""
    try:
        import fcntl
    except ImportError:
        return
    with open(home / _POLICY_WARMING, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # taken here, so no worker can look before the builder holds it
        code = "from glmagent.guard import Policy\nPolicy.default()"
        global _policy_warming
        _policy_warming = subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=[lock.fileno()],  # the child's copy keeps the lock after this one closes
        )


def _policy_cache_warmed() -> None:
    """In a worker: wait until the controller's build of the policy cache is over (it may have failed: then
    this worker builds it, and reports what is wrong, as without the warm-up)."""
    try:
        import fcntl
    except ImportError:
        return
    lock_path = Path(os.environ[_SESSION_HOME]) / _POLICY_WARMING
    if not lock_path.exists():
        return  # no warm-up was started
    with open(lock_path) as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)


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
    if _is_worker(session.config) or _real_home is None:
        return
    if _policy_warming is not None:
        _policy_warming.wait()  # long done by now: collect its exit status
    cache = getattr(session.config, "cache", None)
    if cache is not None and _file_seconds:
        # Merged, so a run of a few files updates theirs and keeps the others'.
        stored = dict(cache.get(_FILE_SECONDS, {}) or {})
        stored.update({name: round(seconds, 2) for name, seconds in _file_seconds.items()})
        cache.set(_FILE_SECONDS, stored)
    since_ns = (Path(os.environ[_SESSION_HOME]) / _SESSION_MARK).stat().st_mtime_ns
    changed = home_changes(_real_home, since_ns)
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


def home_changes(root: Path, since_ns: int) -> list[str]:
    """What under `root` changed at or after `since_ns`, one line per path, relative to `root`.

    Read from each entry's change time (ctime), which every write, creation, rename, permission change or
    link updates and no program can set back; a removal shows as a change of the folder that held it.
    So one walk at the end is enough, with no snapshot at the start. `find` walks a home of 100,000s of
    entries in a fraction of the time Python does; without it (Windows) Python walks.
    """
    ignored = [str(root / part) for part in os.environ.get(HOME_IGNORE, "").split(os.pathsep) if part.strip()]
    found = _changed_by_find(root, since_ns, ignored)
    if found is None:
        found = _changed_by_walk(root, since_ns, ignored)
    changes = []
    for path in sorted(found):
        relative = os.path.relpath(path, root)
        is_dir = os.path.isdir(path) and not os.path.islink(path)
        what = "entries added or removed in, or folder changed" if is_dir else "created or changed"
        changes.append(f"{what}  ~/{relative}")
    return changes


def _changed_by_find(root: Path, since_ns: int, ignored: list[str]) -> set[str] | None:
    find = shutil.which("find")
    if find is None or os.name == "nt":
        return None
    with tempfile.TemporaryDirectory() as folder:
        mark = Path(folder) / "since"
        mark.touch()
        # `-cnewer` is strictly newer: one nanosecond earlier, so a change at `since_ns` itself counts too.
        os.utime(mark, ns=(since_ns - 1, since_ns - 1))
        prune: list[str] = []
        for path in ignored:
            prune += ["-path", path, "-o"] if prune else ["-path", path]
        expression = ["(", *prune, ")", "-prune", "-o"] if prune else []
        try:
            done = subprocess.run(
                [find, str(root), *expression, "-cnewer", str(mark), "-print0"],
                capture_output=True,
                timeout=600,
            )
        except (OSError, subprocess.SubprocessError):
            return None
    return {os.fsdecode(p) for p in done.stdout.split(b"\0") if p}


def _changed_by_walk(root: Path, since_ns: int, ignored: list[str]) -> set[str]:
    skip = set(ignored)
    found: set[str] = set()
    pending = [str(root)]
    while pending:
        folder = pending.pop()
        try:
            entries = os.scandir(folder)
        except OSError:
            continue
        with entries:
            for entry in entries:
                if entry.path in skip:
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                # On Windows st_ctime is the creation time: a folder's mtime shows its removals there.
                if max(info.st_ctime_ns, info.st_mtime_ns) >= since_ns:
                    found.add(entry.path)
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
    return found


_PLAIN = (str, bytes, int, float, bool, type(None))


def _plain(value: object) -> bool:
    """A value whose `repr` says all there is to it (so equal reprs are the same case)."""
    if isinstance(value, _PLAIN):
        return True
    return isinstance(value, (tuple, list)) and all(_plain(item) for item in value)


def every_case(cases: Iterable[Any], check: Callable[..., None], *, limit: int = 40) -> None:
    """Run `check(*case)` on every case (a tuple, or one value) and fail once, listing each case that failed
    and why, and any case listed twice.

    A table test: as parametrized items, thousands of one-line policy checks cost the suite far more in
    pytest's per-item bookkeeping (fixtures, reports sent between processes) than in the checking itself.
    """
    cases = [case if isinstance(case, tuple) else (case,) for case in cases]
    assert cases, "no cases: the table is empty"
    repeats = sorted(text for text, n in Counter(map(repr, cases)).items() if n > 1)
    assert not repeats, f"cases listed twice check nothing new: {repeats[:limit]}"
    failures: list[str] = []
    for case in cases:
        try:
            check(*case)
        except AssertionError as failed:
            failures.append(f"{case!r}: {failed}".replace("\n", " "))
    shown = "\n".join(failures[:limit]) + (
        f"\n... and {len(failures) - limit} more" if len(failures) > limit else ""
    )
    assert not failures, f"{len(failures)} of {len(cases)} cases failed:\n{shown}"


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


_user_folders = itertools.count()


def _fresh_user_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new, empty folder for one test's user folders. Not `mktemp`: that lists every folder made so far
    to number the next one, which costs more with each of a worker's thousands of tests."""
    base = tmp_path_factory.getbasetemp() / "users" / str(next(_user_folders))
    base.mkdir(parents=True)
    return base


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
    base = _fresh_user_folder(tmp_path_factory)
    monkeypatch.setenv("GLMAGENT_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("GLMAGENT_STATE_DIR", str(base / "state"))
    if request.node.get_closest_marker("own_policy_cache") is None and os.environ.get(_SESSION_HOME):
        shared = Path(os.environ[_SESSION_HOME]) / ".local" / "state" / "glmagent" / "policy-cache"
        shared.mkdir(parents=True, exist_ok=True)
        (base / "state").mkdir()
        (base / "state" / "policy-cache").symlink_to(shared, target_is_directory=True)


def run_outcome(output: str, passed: bool) -> Any:
    """A `TestOutcome` of a pytest run that printed `output` (only what the judging of runs reads)."""
    from glmagent.testing import TestOutcome

    return TestOutcome(
        command="pytest",
        passed=passed,
        exit_code=0 if passed else 1,
        summary="pytest",
        output=output,
        duration_s=0.1,
    )


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


TEST_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
"""git as the tests run it to commit: a fixed identity, no signing (the machine's own git config aside)."""


def committed_repo(root: Path, files: dict[str, str]) -> Path:
    """`root` made a git repository whose one commit holds `files` (a `/`-separated path -> its text)."""
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    subprocess.run([*TEST_GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=root, check=True)
    return root


@pytest.fixture
def git_project(project: Path) -> Path:
    """`project` as a git repository with one commit."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=project, check=True)
    return project


def python_check(expression: str) -> str:
    """A test command that passes when `expression` (Python, run in the project) is true."""
    code = f"import sys; sys.exit(0 if ({expression}) else 1)"
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def decide_in(command: str, root: Path | None, shell: str = "posix") -> Decision:
    """The built-in policy's decision on `command` run in the working directory `root` (None: unknown)."""
    from glmagent.guard import Policy

    return Policy.default().check(command, shell, cwd=root)  # type: ignore[arg-type]


def decided_fresh_and_in(command: str, root: Path, rule_id: str | None) -> None:
    """Assert `command` is blocked by `rule_id` (None: allowed) both with the working directory unknown and
    run in `root`."""
    for where in (None, root):
        decision = decide_in(command, where)
        assert decision.rule_id == rule_id and decision.allowed == (rule_id is None), (
            f"{command!r} in {where}: {decision.rule_id} ({decision.reason})"
        )


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


def mock_planner(handler: Callable[[Any], Any], **kwargs: Any) -> Any:
    """An `OpenAICompatiblePlanner` whose requests `handler` (an `httpx.MockTransport` handler) answers,
    retrying without waiting; `kwargs` override its options."""
    import httpx

    from glmagent.planners.openai_compat import OpenAICompatiblePlanner
    from glmagent.planners.retry import RetryPolicy

    options: dict[str, Any] = {
        "base_url": "http://127.0.0.1:9/v1",
        "model": "m",
        "api_key": None,
        "retry": RetryPolicy(max_retries=3, backoff_s=0.0, jitter=lambda low, high: 0.0),
        "sleep": lambda seconds: None,
    }
    options.update(kwargs)
    return OpenAICompatiblePlanner(transport=httpx.MockTransport(handler), **options)


def run_scripted(
    project: Path,
    replies: list[dict],
    *,
    test_command: str,
    description: str,
    max_iterations: int = 3,
    planner: Any = None,
) -> tuple[Any, Any, list[dict]]:
    """Run one task in `project` on the POSIX backend with a scripted planner answering `replies` (or with
    `planner`): the task's result, the planner (its `requests` are the prompts) and the audit records
    (task id `t`)."""
    from glmagent.agent import CodingAgent
    from glmagent.config import Settings
    from glmagent.planners.scripted import ScriptedPlanner

    planner = planner if planner is not None else ScriptedPlanner(replies)
    agent = CodingAgent(planner=planner, settings=Settings(provider="replay", shell="posix", sandbox="none"))
    task = CodingAgent.create_task(
        description=description,
        working_directory=project,
        test_command=test_command,
        task_id="t",
        max_iterations=max_iterations,
    )
    result = agent.run(task)
    audit = project / ".hazina" / "agent-memory" / "t.jsonl"
    return result, planner, [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()]
