"""A real model fixing real code: glmagent and mini-swe-agent side by side on the same local model.

    python bench/live_bench.py --model PATH.gguf [--tasks a,b,...] [--agents glmagent,mini,oneshot]
                               [--max-iterations 6] [--mini-steps 12] [--base-url URL --alias NAME]

Starts llama.cpp's `llama-server` on a free loopback port with the given GGUF (or uses a running server given
with `--base-url`), and runs every task of `bench/live_tasks/` (or those named) through

- glmagent: `glmagent task DESCRIPTION --test "python -m pytest -q" --provider openai-compatible`, at most
  `--max-iterations` iterations (one planner call each, two when a reply is invalid);
- mini-swe-agent 2.4.6 (`mini`, text-based config `mini_textbased.yaml` with `litellm_textbased`, yolo mode,
  model `openai/ALIAS` on the same server, temperature 0 like glmagent), at most `--mini-steps` steps (one
  model call each). Its default of 12 steps is twice glmagent's default of 6 iterations because mini runs
  one shell command per call, while glmagent may batch a few actions per call; both columns print their
  model calls and tokens, so the budgets can be compared;
- `oneshot` (only when asked for in `--agents`): no agent at all, one plain chat request (temperature 0)
  holding the task, every Python file of the project and the failing test output, asking for the complete
  fixed files in Markdown blocks, which are written as they come. What a loop adds (or costs) over the model
  alone is the difference to this column.

A task is SOLVED when the bench itself finds its tests passing afterwards: the task's original test files
are laid over the agent's result (so editing or deleting a test cannot pass it) and `python -m pytest -q`
runs there. What either agent says about its own success is not consulted.

Per task and agent it prints: solved, exit code, iterations (glmagent), model calls, prompt/completion
tokens, invalid replies, refused diffs by reason (glmagent), seconds; then totals, and prompt tokens and
seconds per model call.

Where things come from:
- `llama-server`: `$LLMSERVER_DIR/bin/llama-server` (default `/tmp/llmserver`), built by the setup script
  beside this project (`../shared/llmserver/setup.sh`); GGUF files from its `fetch_models.sh`
  (`/tmp/llmserver/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf`). Missing binary or model: the bench says
  so and measures nothing (exit 0).
- mini-swe-agent: `--mini PATH` (its `mini` executable), else a virtualenv the bench makes once under
  `$GLMAGENT_BENCH_CACHE` (default `~/.cache/glmagent-bench`)`/mini-swe-agent-2.4.6` with
  `pip install mini-swe-agent==2.4.6`. When neither works, that column is skipped with the reason. Its
  configuration and trajectories stay in the run's temporary folder, never in the home directory.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TASKS_DIR = Path(__file__).resolve().parent / "live_tasks"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from llm_server_bench import LlamaServer, server_binary, server_dir  # noqa: E402

MINI_VERSION = "2.4.6"
DEFAULT_MAX_ITERATIONS = 6
DEFAULT_MINI_STEPS = 12
TEST_COMMAND = "python -m pytest -q -p no:cacheprovider"
#: Seconds one agent may take on one task before the bench stops it (a hung run is a failed run).
TASK_TIMEOUT = 3600.0


@dataclass(frozen=True)
class LiveTask:
    """One small project with failing tests and what a user would type to get it fixed."""

    name: str
    kind: str
    description: str
    project: Path
    solution: Path

    @property
    def test_files(self) -> list[str]:
        """The project's test files (relative paths): they decide the verdict, as they were at the start."""
        return sorted(
            p.relative_to(self.project).as_posix()
            for p in self.project.rglob("*")
            if p.is_file() and is_test(p)
        )


def is_test(path: Path) -> bool:
    """Test files and what steers pytest: the bench restores these before judging."""
    name = path.name
    if "__pycache__" in path.parts or name.endswith(".pyc"):
        return False
    return (
        name.startswith("test_")
        or name.endswith("_test.py")
        or name in ("conftest.py", "pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml")
        or "tests" in path.parts
    )


def load_tasks(names: list[str] | None = None, root: Path = TASKS_DIR) -> list[LiveTask]:
    """The task set (sorted by name), or the named tasks; an unknown name is a clear error."""
    found = {}
    for folder in sorted(p for p in root.iterdir() if (p / "task.toml").is_file()):
        meta = tomllib.loads((folder / "task.toml").read_text(encoding="utf-8"))
        found[folder.name] = LiveTask(
            name=folder.name,
            kind=str(meta.get("kind", "")),
            description=str(meta["description"]).strip(),
            project=folder / "project",
            solution=folder / "solution",
        )
    if not names:
        return list(found.values())
    unknown = [n for n in names if n not in found]
    if unknown:
        raise SystemExit(f"unknown task(s): {', '.join(unknown)}; known: {', '.join(found)}")
    return [found[n] for n in names]


def lay_out(task: LiveTask, into: Path) -> Path:
    """A fresh copy of the task's project in `into`, committed in a new git repository."""
    shutil.copytree(task.project, into)
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
    subprocess.run(["git", "init", "-q"], cwd=into, check=True)
    subprocess.run([*git, "add", "-A"], cwd=into, check=True)
    subprocess.run([*git, "commit", "-qm", "start"], cwd=into, check=True)
    return into


def judge(
    task: LiveTask, result: Path, scratch: Path, python: str = sys.executable
) -> tuple[bool, list[str]]:
    """Whether the task's original tests pass on the agent's result; and which test files the agent changed.

    The judged tree is the agent's tree with every original test file restored and every test file the agent
    added removed, so only changes to the code under test count."""
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(result, scratch, ignore=shutil.ignore_patterns(".git", ".hazina", "__pycache__", ".venv"))
    changed = []
    for path in sorted(scratch.rglob("*")):
        if path.is_file() and is_test(path.relative_to(scratch)):
            relative = path.relative_to(scratch).as_posix()
            original = task.project / relative
            if not original.is_file():
                changed.append(relative)
                path.unlink()
            elif original.read_bytes() != path.read_bytes():
                changed.append(relative)
    for relative in task.test_files:
        target = scratch / relative
        if not target.is_file() or target.read_bytes() != (task.project / relative).read_bytes():
            if not target.is_file():
                changed.append(relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(task.project / relative, target)
    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x"]
    try:
        done = subprocess.run(
            command, cwd=scratch, capture_output=True, text=True, timeout=300, check=False, env=_plain_env()
        )
    except subprocess.TimeoutExpired:
        return False, sorted(set(changed))
    return done.returncode == 0, sorted(set(changed))


def tests_cannot_run(python: str) -> str | None:
    """Why the tasks' test command (`python -m pytest`, with `python` first on the agents' PATH) cannot run,
    or None. Checked before anything else: without pytest every task "fails", and an hour of model calls
    measures nothing (the agents are told `No module named pytest` and try to install it)."""
    try:
        command = [python, "-m", "pytest", "--version"]
        done = subprocess.run(command, capture_output=True, text=True, env=_plain_env(), timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"the tasks' tests cannot run with {python}: {error}"
    if done.returncode == 0:
        return None
    said = (done.stderr or done.stdout).strip().splitlines()
    return (
        f"the tasks' tests run as `python -m pytest` with {python}, which fails "
        f"({said[-1] if said else f'exit {done.returncode}'}): install pytest there (pip install pytest)"
    )


def _plain_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower() and not k.startswith("PYTEST")}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.pop("PYTHONPATH", None)
    return env


@dataclass
class Outcome:
    """One agent on one task."""

    solved: bool = False
    exit_code: int | None = None
    iterations: int | None = None
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    invalid: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    traceback: bool = False
    tests_changed: list[str] = field(default_factory=list)
    note: str = ""


# -- glmagent --------------------------------------------------------------------------------------------


def run_glmagent(
    task: LiveTask, workdir: Path, base_url: str, alias: str, args: argparse.Namespace
) -> Outcome:
    project = lay_out(task, workdir / "project")
    command = [sys.executable, "-m", "glmagent", "task", task.description, "-C", str(project)]
    command += ["--test", TEST_COMMAND, "--max-iterations", str(args.max_iterations), "--json"]
    command += ["--provider", "openai-compatible", "--base-url", base_url, "--model", alias]
    command += [*args.glmagent_arg]
    env = _plain_env()
    env["GLMAGENT_CONFIG_DIR"] = str(workdir / "user-config")  # no personal settings
    env["PYTHONPATH"] = str(ROOT)
    output, outcome = _run_agent(command, env, cwd=workdir)
    outcome.traceback = "Traceback (most recent call last)" in output
    (workdir / "glmagent-output.txt").write_text(output, encoding="utf-8")
    _read_audit(project, outcome)
    outcome.solved, outcome.tests_changed = judge(task, project, workdir / "judged")
    if outcome.exit_code not in (0, 1, 2, 3):
        outcome.note = f"exit {outcome.exit_code}: " + output.strip()[-300:]
    return outcome


def _run_agent(command: list[str], env: dict[str, str], cwd: Path) -> tuple[str, Outcome]:
    """Run one agent on one task: its output (stdout then stderr) and an outcome with exit code and time
    (exit code None when it ran out of `TASK_TIMEOUT`)."""
    started = time.monotonic()
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=TASK_TIMEOUT, check=False, cwd=cwd
        )
        output, exit_code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as late:
        output, exit_code = str(late.stdout or "") + str(late.stderr or ""), None
    return output, Outcome(exit_code=exit_code, seconds=time.monotonic() - started)


def _read_audit(project: Path, outcome: Outcome) -> None:
    for log in sorted((project / ".hazina" / "agent-memory").glob("*.jsonl")):
        for line in log.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            event = record.get("event")
            if event == "planner_reply":
                outcome.calls += 1
                usage = record.get("usage") or {}
                outcome.prompt_tokens += int(usage.get("prompt_tokens") or 0)
                outcome.completion_tokens += int(usage.get("completion_tokens") or 0)
            elif event == "validation" and record.get("valid") is False:
                outcome.invalid += 1
            elif event == "action" and (record.get("action") or {}).get("tool") == "apply_diff":
                reason = (record.get("details") or {}).get("reason")
                if record.get("status") != "ok":
                    outcome.refused[str(reason or record.get("status"))] += 1
            elif event == "task_end":
                outcome.iterations = (outcome.iterations or 0) + int(record.get("iterations") or 0)


# -- mini-swe-agent --------------------------------------------------------------------------------------


def cache_dir() -> Path:
    return Path(os.environ.get("GLMAGENT_BENCH_CACHE") or Path.home() / ".cache" / "glmagent-bench")


def find_mini(explicit: str | None) -> tuple[Path | None, str]:
    """The `mini` executable and how it was found, or None and why not."""
    if explicit:
        path = Path(explicit)
        return (path, f"given: {path}") if path.is_file() else (None, f"--mini {path} does not exist")
    venv = cache_dir() / f"mini-swe-agent-{MINI_VERSION}"
    mini = venv / "bin" / "mini"
    if mini.is_file():
        return mini, f"cached in {venv}"
    try:
        subprocess.run(
            [sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300
        )
        done = subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", f"mini-swe-agent=={MINI_VERSION}"],
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return None, f"could not make a virtualenv in {venv}: {error}"
    if done.returncode != 0 or not mini.is_file():
        shutil.rmtree(venv, ignore_errors=True)
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return None, f"pip install mini-swe-agent=={MINI_VERSION} failed: {last}"
    return mini, f"installed into {venv}"


def run_mini(
    mini: Path, task: LiveTask, workdir: Path, base_url: str, alias: str, args: argparse.Namespace
) -> Outcome:
    project = lay_out(task, workdir / "project")
    config_home = workdir / "mini-config"
    config_home.mkdir()
    trajectory = workdir / "mini.traj.json"
    text = f"{task.description}\n\nThe project's tests run with `{TEST_COMMAND}`."
    command = [str(mini), "-m", f"openai/{alias}", "-t", text, "-y", "--exit-immediately", "-l", "0"]
    command += ["-c", "mini_textbased.yaml", "-c", "model.model_class=litellm_textbased"]
    command += ["-c", f"agent.step_limit={args.mini_steps}", "-c", "agent.cost_limit=0"]
    command += ["-c", f"model.model_kwargs.api_base={base_url}", "-c", "model.model_kwargs.api_key=none"]
    command += [
        "-c",
        "model.model_kwargs.temperature=0",
        "-c",
        f"model.model_kwargs.max_tokens={args.max_tokens}",
    ]
    command += ["-c", f"environment.cwd={project}", "-o", str(trajectory)]
    env = _plain_env()
    env.update(
        MSWEA_GLOBAL_CONFIG_DIR=str(config_home),
        MSWEA_COST_TRACKING="ignore_errors",
        MSWEA_SILENT_STARTUP="1",
        MSWEA_CONFIGURED="true",
        HOME=str(config_home),
        OPENAI_API_KEY="none",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
    )
    output, outcome = _run_agent(command, env, cwd=project)
    (workdir / "mini-output.txt").write_text(output, encoding="utf-8")
    if trajectory.is_file():
        _read_trajectory(trajectory, outcome)
    else:
        outcome.note = "no trajectory: " + output.strip()[-300:]
    outcome.solved, outcome.tests_changed = judge(task, project, workdir / "judged")
    return outcome


def _read_trajectory(path: Path, outcome: Outcome) -> None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        outcome.note = f"unreadable trajectory: {error}"
        return
    info = data.get("info") or {}
    outcome.calls = int((info.get("model_stats") or {}).get("api_calls") or 0)
    status = str(info.get("exit_status") or "")
    for message in data.get("messages") or []:
        extra = message.get("extra") or {}
        response = extra.get("response")
        usage = response.get("usage") if isinstance(response, dict) else None
        if isinstance(usage, dict):
            outcome.prompt_tokens += int(usage.get("prompt_tokens") or 0)
            outcome.completion_tokens += int(usage.get("completion_tokens") or 0)
        if message.get("role") == "user" and "Format error" in str(message.get("content", ""))[:200]:
            outcome.invalid += 1
    outcome.note = status


# -- one request, no loop -----------------------------------------------------------------------------------

ONESHOT_ASK = (
    "Fix the code so the tests pass; do not change the tests. Reply with the complete new contents of each "
    "file you change: a line `### path`, then the whole file in one ```python block."
)
ONESHOT_MAX_TOKENS = 1500
_FILE_BLOCK = re.compile(r"^###\s*`?([\w./-]+)`?[ \t]*\n```[\w-]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def oneshot_prompt(task: LiveTask, project: Path) -> str:
    """The one request of the `oneshot` column: the task, every file of the project, the failing tests."""
    parts = [f"Task: {task.description}\n\nThe project's files:\n"]
    for path in sorted(p for p in project.rglob("*.py") if ".git" not in p.parts):
        relative = path.relative_to(project).as_posix()
        parts.append(f"### {relative}\n```python\n{path.read_text(encoding='utf-8', errors='replace')}```\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=short"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=_plain_env(),
    )
    parts.append(f"Running `pytest -q` fails:\n```\n{done.stdout[-2500:]}```\n")
    parts.append(ONESHOT_ASK)
    return "\n".join(parts)


def write_files(reply: str, project: Path) -> list[str]:
    """The `### path` + fenced blocks of a reply written into `project` (paths inside it only)."""
    written = []
    root = project.resolve()
    for match in _FILE_BLOCK.finditer(reply):
        target = (project / match.group(1)).resolve()
        if not target.is_relative_to(root) or ".git" in target.relative_to(root).parts:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(match.group(2), encoding="utf-8")
        written.append(target.relative_to(root).as_posix())
    return written


def run_oneshot(task: LiveTask, workdir: Path, base_url: str, alias: str) -> Outcome:
    """The model with no agent around it: one plain chat request (temperature 0) for the fixed files,
    written as it sends them. What the loop adds, or costs, is the difference to this column."""
    import httpx  # lazy: only this column needs it

    project = lay_out(task, workdir / "project")
    prompt = oneshot_prompt(task, project)
    body = {
        "model": alias,
        "temperature": 0,
        "max_tokens": ONESHOT_MAX_TOKENS,
        "messages": [
            {"role": "system", "content": "You are an expert Python programmer."},
            {"role": "user", "content": prompt},
        ],
    }
    outcome = Outcome(calls=1, iterations=1)
    started = time.monotonic()
    try:
        response = httpx.post(f"{base_url}/chat/completions", json=body, timeout=TASK_TIMEOUT)
        response.raise_for_status()
        data = response.json()
        reply = str(data["choices"][0]["message"]["content"] or "")
    except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as error:
        outcome.note = f"request failed: {error}"
        outcome.exit_code = 1
        return outcome
    outcome.seconds = time.monotonic() - started
    usage = data.get("usage") or {}
    outcome.prompt_tokens = int(usage.get("prompt_tokens") or 0)
    outcome.completion_tokens = int(usage.get("completion_tokens") or 0)
    (workdir / "reply.md").write_text(reply, encoding="utf-8")
    written = write_files(reply, project)
    outcome.exit_code = 0
    outcome.note = f"wrote {', '.join(written)}" if written else "no file in the reply"
    outcome.solved, outcome.tests_changed = judge(task, project, workdir / "judged")
    return outcome


# -- the table -------------------------------------------------------------------------------------------


def row(name: str, agent: str, o: Outcome | None) -> str:
    if o is None:
        return f"{name:<22} {agent:<9} {'-':>6}"
    refused = ",".join(f"{k}:{v}" for k, v in sorted(o.refused.items())) or "-"
    iters = "-" if o.iterations is None else str(o.iterations)
    changed = f" tests changed: {','.join(o.tests_changed)}" if o.tests_changed else ""
    note = f" [{o.note}]" if o.note and agent == "mini" else (f" [{o.note}]" if o.note else "")
    return (
        f"{name:<22} {agent:<9} {'yes' if o.solved else 'no':>6} {o.exit_code!s:>4} {iters:>5} {o.calls:>5} "
        f"{o.prompt_tokens:>8} {o.completion_tokens:>6} {o.invalid:>7} {refused:<26} {o.seconds:>7.0f}"
        f"{changed}{note}"
    )


HEADER = (
    f"{'task':<22} {'agent':<9} {'solved':>6} {'exit':>4} {'iters':>5} {'calls':>5} {'prompt':>8} "
    f"{'compl':>6} {'invalid':>7} {'refused diffs':<26} {'seconds':>7}"
)


def totals(agent: str, outcomes: list[Outcome]) -> str:
    if not outcomes:
        return f"{agent}: not run"
    solved = sum(o.solved for o in outcomes)
    calls = sum(o.calls for o in outcomes)
    prompt = sum(o.prompt_tokens for o in outcomes)
    seconds = sum(o.seconds for o in outcomes)
    bad = sum(1 for o in outcomes if o.exit_code not in (0, 1, 2, 3) or o.traceback)
    refused: Counter[str] = Counter()
    for o in outcomes:
        refused.update(o.refused)
    per_call = (
        f"{prompt / calls:,.0f} prompt tokens and {seconds / calls:.1f} s per call" if calls else "no calls"
    )
    extra = f"; refused diffs {dict(refused)}" if agent == "glmagent" else ""
    return (
        f"{agent}: solved {solved}/{len(outcomes)} ({100 * solved / len(outcomes):.0f}%); "
        f"{calls} model calls, {prompt:,} prompt + {sum(o.completion_tokens for o in outcomes):,} "
        f"completion tokens, {seconds:.0f} s; "
        f"{per_call}; invalid replies {sum(o.invalid for o in outcomes)}; exits outside 0-3 or tracebacks: "
        f"{bad}{extra}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="the GGUF file to serve (needed unless --base-url is given)")
    parser.add_argument(
        "--alias", default=None, help="model name on the server (default: from the file name)"
    )
    parser.add_argument(
        "--base-url", help="use this running OpenAI-compatible server instead of starting one"
    )
    parser.add_argument("--tasks", help="comma-separated task names (default: all of bench/live_tasks)")
    parser.add_argument("--tasks-dir", type=Path, default=TASKS_DIR, help="where the tasks are")
    parser.add_argument(
        "--agents",
        default="glmagent,mini",
        help="comma-separated: glmagent, mini, oneshot (one plain request, no loop); default glmagent,mini",
    )
    parser.add_argument("--max-iterations", type=int, default=DEFAULT_MAX_ITERATIONS)
    parser.add_argument("--mini-steps", type=int, default=DEFAULT_MINI_STEPS)
    parser.add_argument(
        "--max-tokens", type=int, default=1024, help="mini's max_tokens (glmagent: its default)"
    )
    parser.add_argument("--mini", help="path of mini-swe-agent's `mini` executable")
    parser.add_argument("--context", type=int, default=16384, help="llama-server context (16384)")
    parser.add_argument("--threads", type=int, default=2, help="llama-server threads (2)")
    parser.add_argument("--keep", type=Path, help="keep every task's folder (projects, audit logs) here")
    parser.add_argument(
        "--glmagent-arg",
        action="append",
        default=[],
        help="an extra argument for `glmagent task` (repeatable)",
    )
    args = parser.parse_args(argv)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    tasks = load_tasks([t.strip() for t in args.tasks.split(",")] if args.tasks else None, args.tasks_dir)
    missing = tests_cannot_run(sys.executable)
    if missing is not None:
        print(missing)
        print("nothing measured")
        return 2
    signal.signal(signal.SIGTERM, _stop)

    mini: Path | None = None
    if "mini" in agents:
        mini, how = find_mini(args.mini)
        print(f"mini-swe-agent {MINI_VERSION}: {how}" if mini else f"mini-swe-agent column skipped: {how}")

    if args.base_url:
        alias = args.alias or "model"
        return _bench(tasks, agents, mini, args.base_url.rstrip("/"), alias, args)
    if not args.model:
        parser.error("--model PATH.gguf (or --base-url of a running server) is required")
    binary, model = server_binary(), Path(args.model)
    if binary is None:
        print(f"llama-server not found under {server_dir()}: build it with ../shared/llmserver/setup.sh")
        print("nothing measured")
        return 0
    if not model.is_file():
        print(f"model {model} not found (../shared/llmserver/fetch_models.sh makes the Qwen2.5-Coder files)")
        print("nothing measured")
        return 0
    alias = args.alias or re.sub(r"-q\d.*$", "", model.stem)
    with LlamaServer(binary, model, alias=alias, context=args.context, threads=args.threads) as server:
        return _bench(tasks, agents, mini, server.base_url, alias, args)


def _bench(
    tasks: list[LiveTask],
    agents: list[str],
    mini: Path | None,
    base_url: str,
    alias: str,
    args: argparse.Namespace,
) -> int:
    print(
        f"{len(tasks)} tasks; model {alias} at {base_url}; glmagent --max-iterations {args.max_iterations}; "
        f"mini step limit {args.mini_steps}"
    )
    print(HEADER, flush=True)
    results: dict[str, list[Outcome]] = {"glmagent": [], "mini": [], "oneshot": []}
    keep = args.keep
    tmp = tempfile.mkdtemp(prefix="glmagent-live-bench-")
    try:
        for task in tasks:
            for agent in agents:
                workdir = (keep or Path(tmp)) / task.name / agent
                if workdir.exists():
                    shutil.rmtree(workdir)
                workdir.mkdir(parents=True)
                outcome: Outcome | None
                if agent == "glmagent":
                    outcome = run_glmagent(task, workdir, base_url, alias, args)
                elif agent == "oneshot":
                    outcome = run_oneshot(task, workdir, base_url, alias)
                elif agent == "mini" and mini is not None:
                    outcome = run_mini(mini, task, workdir, base_url, alias, args)
                else:
                    outcome = None
                if outcome is not None:
                    results[agent].append(outcome)
                print(row(task.name, agent, outcome), flush=True)
    finally:
        if keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    print()
    for agent in agents:
        print(totals(agent, results[agent]))
    bad = sum(1 for o in results["glmagent"] if o.exit_code not in (0, 1, 2, 3) or o.traceback)
    return 1 if bad else 0


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt as stopped:
        print(f"\n{stopped or 'interrupted'}: nothing more measured (a server the bench started is stopped)")
        sys.exit(130)
