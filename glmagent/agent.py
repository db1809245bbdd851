"""`CodingAgent`: wires the planner, the policy, the tools, the memory and the loop for one task."""

from __future__ import annotations

import datetime as dt
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

from glmagent.config import Settings, resolve_settings
from glmagent.errors import ConfigError
from glmagent.loop import AgentLoop, LoopObserver, Task, TaskResult
from glmagent.memory import AgentSummaryStore, validate_task_id
from glmagent.observation import Observation
from glmagent.planners.base import Planner
from glmagent.project_map import project_map
from glmagent.secrets import Redactor
from glmagent.stopping import StopControl
from glmagent.testing import ShellTestRunner
from glmagent.tools.executor import ToolExecutor
from glmagent.tools.sandbox import NO_SANDBOX_NOTICE, Sandbox, resolve_sandbox
from glmagent.tools.shell import ShellBackend, make_shell
from glmagent.workspace import Workspace

if TYPE_CHECKING:
    from glmagent.contract import Action
    from glmagent.guard import Policy


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
        stop: StopControl | None = None,
    ) -> None:
        self.planner = planner
        self.settings = settings
        self.observer = observer
        self.shell = shell
        self.policy = policy
        self.stop = stop
        """Lets a signal handler (the CLI's) ask for a stop after the running action."""

    @staticmethod
    def create_task(
        description: str,
        working_directory: Path | str = ".",
        max_iterations: int = 5,
        test_command: str | None = None,
        task_id: str | None = None,
    ) -> Task:
        """Build a `Task`; a fresh task id is generated unless one is given (reuse one to continue a task)."""
        return Task(
            description=description,
            working_directory=Path(working_directory).expanduser().resolve(),
            max_iterations=max_iterations,
            test_command=test_command or None,
            task_id=validate_task_id(task_id) if task_id else new_task_id(),
        )

    def run(self, task: Task) -> TaskResult:
        """Run the plan → act → observe loop until it stops; never raises for model behaviour."""
        workspace = _workspace(task.working_directory)
        settings = self.settings or resolve_settings(workspace.root)
        planner = self.planner or planner_from_settings(settings)
        shell = self.shell or make_shell(settings.shell, sandbox_for(settings, workspace.root))
        redactor = Redactor()
        executor = ToolExecutor(
            workspace,
            shell,
            self.policy or load_policy(settings),
            command_timeout=settings.command_timeout,
            redactor=redactor,
        )
        tests = (
            ShellTestRunner(shell, workspace.root, task.test_command, settings.test_timeout, redactor)
            if task.test_command
            else None
        )
        loop = AgentLoop(
            project_map=project_map(workspace.root),
            planner=planner,
            executor=executor,
            memory=AgentSummaryStore(workspace.root, task.task_id, redactor=redactor),
            tests=tests,
            observer=self.observer,
            start_details={"sandbox": containment(shell), "allow_network": settings.allow_network},
            stop=self.stop,
        )
        try:
            return loop.run(task)
        finally:
            close = getattr(planner, "close", None)
            if self.planner is None and callable(close):
                close()

    def act(self, action: Action, working_directory: Path | str = ".") -> Observation:
        """Run ONE action through the same policy and executor a task would use."""
        workspace = _workspace(Path(working_directory))
        settings = self.settings or resolve_settings(workspace.root)
        shell = self.shell or make_shell(settings.shell, sandbox_for(settings, workspace.root))
        policy = self.policy or load_policy(settings)
        executor = ToolExecutor(workspace, shell, policy, command_timeout=settings.command_timeout)
        return executor.execute(action)


def sandbox_for(settings: Settings, root: Path) -> Sandbox:
    """The OS sandbox the settings ask for, for commands run in `root`."""
    return resolve_sandbox(settings.sandbox, root, allow_network=settings.allow_network)


def containment(shell: ShellBackend) -> str:
    """What contains the commands `shell` runs, in one line (shells built by callers may not say)."""
    describe = getattr(shell, "describe_containment", None)
    return describe() if callable(describe) else NO_SANDBOX_NOTICE


def load_policy(settings: Settings) -> Policy:
    """The built-in policy plus the user's extra deny rules."""
    from glmagent.guard import Policy

    return Policy.load(settings.policy_files) if settings.policy_files else Policy.default()


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

    config = resolve_provider(
        settings.provider,
        model=settings.model,
        base_url=settings.base_url,
        replay_file=settings.replay,
        api_key_env=settings.api_key_env,
    )
    options = RequestOptions(
        max_tokens=settings.max_tokens,
        request_timeout=settings.request_timeout,
        max_retries=settings.max_retries,
        retry_deadline=settings.retry_deadline,
        requests_per_minute=settings.requests_per_minute,
        thinking=settings.thinking,
        prices=settings.prices,
    )
    return build_planner(config, options=options)
