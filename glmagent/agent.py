"""`CodingAgent`: wires the planner, the policy, the tools, the memory and the loop for one task."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from glmagent._log import get_logger
from glmagent.audit import DEFAULT_LOCK_WAIT, software_facts, utc_now
from glmagent.config import Settings, resolve_settings, split_policy_files
from glmagent.errors import ConfigError
from glmagent.focus import FileView, WorkingSet
from glmagent.limits import Limits
from glmagent.loop import AgentLoop, LoopObserver, Task, TaskResult
from glmagent.memory import AgentSummaryStore, act_store, validate_task_id
from glmagent.observation import Observation
from glmagent.planners.base import Planner
from glmagent.project_map import project_files, project_map
from glmagent.prompt import ContextBuilder
from glmagent.secrets import Redactor, declare_secret_variable
from glmagent.stopping import StopControl
from glmagent.testing import ShellTestRunner, TestFiles
from glmagent.tools import git
from glmagent.tools.executor import ToolExecutor
from glmagent.tools.sandbox import NO_SANDBOX_NOTICE, Sandbox, resolve_sandbox
from glmagent.tools.shell import ShellBackend, make_shell
from glmagent.workspace import Workspace

if TYPE_CHECKING:
    from glmagent.contract import Action
    from glmagent.guard import Policy

log = get_logger(__name__)


class CodingAgent:
    """The library entry point.

    >>> agent = CodingAgent(planner=ScriptedPlanner([...]))          # or CodingAgent() for the GLM API
    >>> task = CodingAgent.create_task(description="fix the None crash", working_directory=".",
    ...                                test_command="pytest")
    >>> result = agent.run(task)

    Without a planner, one is built from the settings (flags > `GLMAGENT_*` > `.hazina/config.toml`), which
    needs the provider's API key in the environment.
    """

    def __init__(
        self,
        planner: Planner | None = None,
        settings: Settings | None = None,
        *,
        observer: LoopObserver | None = None,
        shell: ShellBackend | None = None,
        policy: Policy | None = None,
        context: ContextBuilder | None = None,
        lock_wait: float = DEFAULT_LOCK_WAIT,
        stop: StopControl | None = None,
    ) -> None:
        self.planner = planner
        self.settings = settings
        self.observer = observer
        self.shell = shell
        self.policy = policy
        self.context = context
        """How prompts are built (caps on memory, observations, the whole prompt); the default if None."""
        self.lock_wait = lock_wait
        """Seconds a run waits for another run of the same task id before failing with `TaskBusyError`."""
        self.stop = stop
        """Lets a signal handler (the CLI's) ask for a stop after the running action."""

    @staticmethod
    def create_task(
        description: str,
        working_directory: Path | str = ".",
        max_iterations: int = 5,
        test_command: str | None = None,
        task_id: str | None = None,
        test_edits: bool | None = None,
    ) -> Task:
        """Build a `Task`; a fresh task id is generated unless one is given (reuse one to continue a task).
        `test_edits` None: the model may change test files only if the description asks for test changes."""
        return Task(
            description=description,
            working_directory=Path(working_directory).expanduser().resolve(),
            max_iterations=max_iterations,
            test_command=test_command or None,
            task_id=validate_task_id(task_id) if task_id else new_task_id(),
            test_edits=test_edits,
        )

    @staticmethod
    def resume_task(
        task_id: str,
        working_directory: Path | str = ".",
        *,
        max_iterations: int = 5,
        test_command: str | None = None,
    ) -> Task:
        """A `Task` that continues a stopped task with its memory: the description and (unless given) the
        test command of its latest run. Raises `ConfigError` when there is nothing to resume."""
        from glmagent.audit import find_run, require_log

        root = Path(working_directory).expanduser().resolve()
        last = find_run(require_log(root, validate_task_id(task_id)))
        if last.mode != "task":
            raise ConfigError(f"{task_id!r} records `glmagent act` runs, not a task to resume")
        if last.end is not None and last.end.get("success"):
            raise ConfigError(
                f"task {task_id} already succeeded (run {last.run_id}); to keep working on it, start a new "
                "run "
                f'with `glmagent task "WHAT NEXT" --task-id {task_id}`'
            )
        return Task(
            description=last.description,
            working_directory=root,
            max_iterations=max_iterations,
            test_command=test_command or last.start.get("test_command") or None,
            task_id=task_id,
            resumes=last.run_id,
        )

    def run(self, task: Task, *, details: Mapping[str, Any] | None = None) -> TaskResult:
        """Run the plan → act → observe loop until it stops; never raises for model behaviour.

        `details` are extra facts for the run's `task_start` record (e.g. `resumed_from`). Raises
        `TaskBusyError` when another run of the same task id holds it longer than `lock_wait`.
        """
        workspace = _workspace(task.working_directory)
        settings = self.settings or resolve_settings(workspace.root)
        declare_secret_variable(settings.api_key_env)
        if task.test_edits is None and settings.test_edits != "auto":
            task = task.model_copy(update={"test_edits": settings.test_edits == "allow"})
        planner = self.planner or planner_from_settings(settings)
        declare_secret_variable(getattr(planner, "key_env", None))
        shell = self.shell or make_shell(settings.shell, sandbox_for(settings, workspace.root))
        # glmagent's own git: the repository is decided now, before the model acts, and git runs contained.
        git_runner = git.GitRunner(workspace.root, getattr(shell, "sandbox", None))
        redactor = Redactor()
        policy = self.policy or load_policy(settings, workspace.root)
        executor = ToolExecutor(
            workspace,
            shell,
            policy,
            command_timeout=settings.command_timeout,
            redactor=redactor,
            git_runner=git_runner,
            limits=limits_for(settings),
        )
        tests = (
            ShellTestRunner(shell, workspace.root, task.test_command, settings.test_timeout, redactor)
            if task.test_command
            else None
        )
        memory = AgentSummaryStore(workspace.root, task.task_id, redactor=redactor, lock_wait=self.lock_wait)

        def listing() -> list[str]:
            return project_files(workspace.root, git_runner)

        loop = AgentLoop(
            project_map=project_map(workspace.root, git=git_runner),
            focus=WorkingSet(FileView(workspace, redactor), project_files=listing),
            test_files=TestFiles(workspace, listing) if tests else None,
            list_files=listing,
            planner=planner,
            executor=executor,
            memory=memory,
            tests=tests,
            context=self.context or ContextBuilder(prompt_budget=settings.prompt_budget),
            observer=self.observer,
            start_details={
                **run_facts(settings, shell, policy),
                "start_state": start_state(workspace.root, git_runner),
                **(details or {}),
            },
            stop=self.stop,
            limits=limits_for(settings),
            fresh_start_after=settings.fresh_start_after,
        )
        try:
            return loop.run(task)
        finally:
            memory.close()
            close = getattr(planner, "close", None)
            if self.planner is None and callable(close):
                close()

    def act(self, action: Action, working_directory: Path | str = ".") -> Observation:
        """Run ONE action through the same policy and executor a task would use, and record it in
        `.hazina/agent-memory/act.jsonl`."""
        workspace = _workspace(Path(working_directory))
        # The action is recorded after it ran: a record folder that is a link is refused before it runs.
        act_store(workspace.root).check_paths()
        settings = self.settings or resolve_settings(workspace.root)
        declare_secret_variable(settings.api_key_env)
        shell = self.shell or make_shell(settings.shell, sandbox_for(settings, workspace.root))
        policy = self.policy or load_policy(settings, workspace.root)
        redactor = Redactor()
        executor = ToolExecutor(
            workspace,
            shell,
            policy,
            command_timeout=settings.command_timeout,
            redactor=redactor,
            limits=limits_for(settings),
        )
        started = utc_now()
        observation = executor.execute(action)
        _record_act(
            workspace.root, action, observation, redactor, started, run_facts(settings, shell, policy)
        )
        return observation


def limits_for(settings: Settings) -> Limits:
    """The bounds the settings set on what one reply can make glmagent do."""
    return Limits(
        max_actions=settings.max_actions,
        read_max_bytes=settings.read_max_bytes,
        diff_max_bytes=settings.diff_max_bytes,
        edit_max_bytes=settings.edit_max_bytes,
        observation_max_chars=settings.observation_max_chars,
    )


def run_facts(settings: Settings, shell: ShellBackend, policy: Policy) -> dict[str, Any]:
    """The facts every run's first record carries: containment, limits, software, policy and schema."""
    return {
        "sandbox": containment(shell),
        "allow_network": settings.allow_network,
        "shell": getattr(shell, "kind", None),
        "command_timeout": settings.command_timeout,
        "test_timeout": settings.test_timeout,
        "limits": limits_for(settings).model_dump(),
        **software_facts(getattr(policy, "sources", ())),
    }


def start_state(root: Path, runner: git.GitRunner | None = None) -> dict[str, Any]:
    """Where the project stood when the run began: its git commit and whether the tree was clean, so a
    replay can start from the same files."""
    runner = runner or git.GitRunner(root)
    head = runner.run("rev-parse", "--verify", "--quiet", "HEAD", timeout=15)
    if head.exit_code != 0:
        return {"git_head": None}
    prefix = runner.run("rev-parse", "--show-prefix", timeout=15)
    status = runner.run(
        "status", "--porcelain", "--untracked-files=normal", "--ignore-submodules=all", "--", ".", timeout=60
    )
    return {
        "git_head": head.stdout.strip(),
        "git_prefix": prefix.stdout.strip() if prefix.exit_code == 0 else "",
        "git_clean": status.exit_code == 0 and not status.stdout.strip(),
    }


def _record_act(
    root: Path,
    action: Action,
    observation: Observation,
    redactor: Redactor,
    started: str,
    facts: Mapping[str, Any],
) -> None:
    """Append one `act` run (start, the action, its end) to `act.jsonl`; a failure to record is reported,
    and the action's own result still stands."""
    store = act_store(root, redactor=redactor)
    try:
        store.start_run(
            mode="act",
            description=action.brief(),
            working_directory=str(root),
            started_at=started,
            planner=None,
            test_command=None,
            **facts,
        )
        store.record_action(action.model_dump(mode="json", exclude_none=True), observation, index=0)
        store.finish_run(
            success=observation.status == "ok",
            stop_reason=observation.status,
            iterations=0,
            duration_s=observation.duration_s,
        )
    except (OSError, ConfigError) as error:
        log.warning(f"glmagent act: the action ran but could not be recorded in {store.audit_path}: {error}")
    finally:
        store.close()


def sandbox_for(settings: Settings, root: Path) -> Sandbox:
    """The OS sandbox the settings ask for, for commands run in `root`."""
    return resolve_sandbox(
        settings.sandbox, root, allow_network=settings.allow_network, hidden=settings.sandbox_hide
    )


def containment(shell: ShellBackend) -> str:
    """What contains the commands `shell` runs, in one line (shells built by callers may not say)."""
    describe = getattr(shell, "describe_containment", None)
    return describe() if callable(describe) else NO_SANDBOX_NOTICE


def load_policy(settings: Settings, workdir: Path | None = None) -> Policy:
    """The built-in policy plus the policy files the settings name; those the project in `workdir`
    supplies can add deny rules and narrow an allowlist, never widen it."""
    from glmagent.guard import Policy

    if not settings.policy_files:
        return Policy.default()
    mine, project = split_policy_files(workdir or Path.cwd(), settings.policy_files)
    return Policy.load(mine, project_files=project)


def new_task_id() -> str:
    """`task-YYYYMMDD-HHMMSS-xxxx`: sortable, unique enough, safe as a file name."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"task-{stamp}-{secrets.token_hex(2)}"


def _workspace(path: Path) -> Workspace:
    try:
        return Workspace(path)
    except (NotADirectoryError, FileNotFoundError) as error:
        raise ConfigError(str(error)) from None


def planner_from_settings(settings: Settings) -> Planner:
    """Build the planner the settings name (needs the provider's API key in the environment)."""
    from glmagent.planners.providers import RequestOptions, build_planner, resolve_provider
    from glmagent.strict_schema import strict_planner_schema

    # The key's variable is a secret from here on, whatever its name: out of commands, redacted everywhere.
    declare_secret_variable(settings.api_key_env)
    config = resolve_provider(
        settings.provider,
        model=settings.model,
        base_url=settings.base_url,
        replay_file=settings.replay,
        api_key_env=settings.api_key_env,
        response_format=settings.response_format,
    )
    declare_secret_variable(config.api_key_env)
    options = RequestOptions(
        max_tokens=settings.max_tokens,
        request_timeout=settings.request_timeout,
        max_retries=settings.max_retries,
        retry_backoff=settings.retry_backoff,
        retry_deadline=settings.retry_deadline,
        requests_per_minute=settings.requests_per_minute,
        thinking=settings.thinking,
        prices={model: table.model_dump(exclude_none=True) for model, table in settings.prices.items()},
    )
    return build_planner(config, options=options, schema=strict_planner_schema())
