"""`ToolExecutor`: the single gate between planner actions and the machine.

Unknown tools and missing fields are refused before anything runs; every `run` command passes the policy
first; every path passes workspace confinement. Results come back as `Observation`s, never as exceptions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from glmagent import dropped_names
from glmagent._log import get_logger
from glmagent.contract import ONE_OF_FIELDS, REQUIRED_FIELDS, Action, ToolName
from glmagent.limits import Limits
from glmagent.observation import Observation
from glmagent.project_map import project_files
from glmagent.secrets import Redactor
from glmagent.tools import files, git
from glmagent.tools.shell import ShellBackend, ShellKind
from glmagent.workspace import PathRejected, Workspace

log = get_logger(__name__)

#: Default seconds a `run` command may take before its process tree is killed.
DEFAULT_COMMAND_TIMEOUT = 300.0


class PolicyDecision(Protocol):
    """What the executor needs from a policy decision."""

    allowed: bool
    rule_id: str | None

    def planner_message(self) -> str: ...

    def model_dump(self, *, mode: str = ...) -> dict[str, Any]: ...


class CommandPolicy(Protocol):
    """Anything that can judge a command line before it runs."""

    def check(self, command: str, shell: ShellKind, *, cwd: Path | None = None) -> PolicyDecision:
        """Judge `command`; writes are judged against the working directory `cwd`."""
        ...


class ToolExecutor:
    """Runs validated actions against one workspace."""

    def __init__(
        self,
        workspace: Workspace,
        shell: ShellBackend,
        policy: CommandPolicy,
        *,
        command_timeout: float = DEFAULT_COMMAND_TIMEOUT,
        redactor: Redactor | None = None,
        git_runner: git.GitRunner | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.workspace = workspace
        self.shell = shell
        self.policy = policy
        self.command_timeout = command_timeout
        self.redactor = redactor or Redactor()
        self.limits = limits or Limits()
        # The repository is found now, before any action runs: one the model builds later is never used.
        self.git = git_runner or git.GitRunner(workspace.root, getattr(shell, "sandbox", None))
        self._handlers: dict[ToolName, Callable[[Action], Observation]] = {
            ToolName.READ_FILE: lambda a: files.read_file(
                self.workspace, a.path or "", a.lines, max_bytes=self.limits.read_max_bytes
            ),
            ToolName.APPLY_DIFF: self._apply_diff,
            ToolName.RUN: self._run,
            ToolName.GIT_STATUS: self._git_status,
            ToolName.GIT_DIFF: self._git_diff,
        }

    @property
    def root(self) -> Path:
        return self.workspace.root

    def execute(self, action: Action) -> Observation:
        """Execute one action; refusals and failures are reported in the observation."""
        started = time.monotonic()
        handler = self._handlers.get(action.tool) if isinstance(action.tool, ToolName) else None
        if handler is None:
            return reject(str(action.tool), f"unknown tool {action.tool!r}; use one of {tool_list()}")
        missing = [name for name in REQUIRED_FIELDS[action.tool] if not getattr(action, name)]
        one_of = ONE_OF_FIELDS.get(action.tool, ())
        if one_of and not any(getattr(action, name) for name in one_of):
            missing.append(" or ".join(one_of))
        if missing:
            return reject(action.tool.value, f"{action.tool.value} requires {', '.join(missing)}")
        try:
            observation = handler(action)
        except PathRejected as refused:
            observation = reject(action.tool.value, f"path refused: {refused}")
        except OSError as error:
            observation = Observation(
                tool=action.tool.value,
                status="failed",
                summary=f"{action.brief()} failed: {error.strerror or error}",
                output=f"{action.brief()} failed with an operating-system error: {error}",
            )
        except (ValueError, UnicodeError) as error:
            # Text the OS cannot take (odd encodings in a path or command): the model's problem, not a crash.
            observation = reject(action.tool.value, f"unusable input: {error}")
        observation = redact_observation(observation, self.redactor)
        observation.duration_s = round(time.monotonic() - started, 3)
        log.info("action", tool=observation.tool, status=observation.status, summary=observation.summary)
        return observation

    def _apply_diff(self, action: Action) -> Observation:
        observation = files.apply_diff(
            self.workspace,
            action.path or "",
            action.change_text() or "",
            edits=action.change_edits(),
            content=action.content is not None,
            max_diff_bytes=self.limits.diff_max_bytes,
            max_file_bytes=self.limits.edit_max_bytes,
        )
        names = observation.details.get("dropped_names")
        if not names:
            return observation
        changed = observation.details["path"]
        uses = dropped_names.uses_elsewhere(self.root, project_files(self.root, self.git), changed, names)
        if not uses:
            return observation
        first, _newline, rest = observation.output.partition("\n")  # the note early: long outputs are cut
        return observation.model_copy(
            update={
                "output": f"{first}\n{dropped_names.note(changed, names, uses)}\n{rest}",
                "details": {**observation.details, "still_used_in": uses},
            }
        )

    def _run(self, action: Action) -> Observation:
        command = action.command or ""
        try:
            decision = self.policy.check(command, self.shell.kind, cwd=self.root)
        except Exception as error:  # a fault in the policy itself: fail closed, and keep the run going
            fault = f"{type(error).__name__}: {error}"
            log.warning("policy-fault", command=_short(command), error=fault)
            log.debug("policy-fault-traceback", exc_info=True)
            return Observation(
                tool="run",
                status="rejected",
                summary=f"Blocked `{_short(command)}` (the policy could not check it)",
                output=(
                    "The command was BLOCKED and did not run: the policy failed while checking it "
                    f"({type(error).__name__}), and a command it cannot check never runs. "
                    "Write it another way (simpler quoting, fewer escapes), or do the step with apply_diff."
                ),
                details={"command": command, "policy_fault": fault},
            )
        if not decision.allowed:
            return Observation(
                tool="run",
                status="rejected",
                summary=f"Blocked `{_short(command)}` (rule {decision.rule_id})",
                output=f"The command was BLOCKED by policy and did not run.\n{decision.planner_message()}",
                details={"command": command, "policy": decision.model_dump(mode="json")},
            )
        result = self.shell.run(command, self.root, self.command_timeout)
        if result.timed_out:
            status, outcome = "failed", f"timed out after {self.command_timeout:.0f}s and was killed"
        else:
            status = "ok" if result.exit_code == 0 else "failed"
            outcome = f"exit {result.exit_code}"
        return Observation(
            tool="run",
            status=status,
            summary=f"Ran `{_short(command)}` ({outcome})",
            output=format_process_output(command, outcome, result.stdout, result.stderr),
            details={
                "command": command,
                "exit_code": result.exit_code,
                "timed_out": result.timed_out,
                "stdout_bytes": result.stdout_bytes,
                "stderr_bytes": result.stderr_bytes,
                "policy": decision.model_dump(mode="json"),
            },
        )

    def _git_status(self, action: Action) -> Observation:
        result = self.git.status()
        return _git_observation("git_status", "git status", result)

    def _git_diff(self, action: Action) -> Observation:
        relative = self.workspace.relative(self.workspace.resolve(action.path)) if action.path else None
        result = self.git.diff(relative)
        label = f"git diff {relative}" if relative else "git diff"
        return _git_observation("git_diff", label, result)


def _git_observation(tool: str, label: str, result: git.GitResult) -> Observation:
    if result.exit_code != 0:
        stderr_lines = result.stderr.strip().splitlines()
        reason = stderr_lines[-1] if stderr_lines else f"exit {result.exit_code}"
        return Observation(
            tool=tool,
            status="failed",
            summary=f"{label} failed: {reason}",
            output=f"{label} failed (exit {result.exit_code}):\n{result.stderr}",
        )
    lines = result.stdout.count("\n")
    return Observation(
        tool=tool,
        status="ok",
        summary=f"Ran {label} ({lines} lines)" if result.stdout else f"Ran {label} (no changes)",
        output=result.stdout or f"{label}: nothing to report",
    )


def redact_observation(observation: Observation, redactor: Redactor) -> Observation:
    """The observation with every secret value replaced, before the model, screen or disk see it; the count
    of replacements goes into `details["redactions"]` for the audit record."""
    total = 0

    def scrub(value: Any) -> Any:
        nonlocal total
        if isinstance(value, str):
            clean, count = redactor.redact(value)
            total += count
            return clean
        if isinstance(value, dict):
            return {key: scrub(item) for key, item in value.items()}
        if isinstance(value, list):
            return [scrub(item) for item in value]
        return value

    summary, output, details = (
        scrub(observation.summary),
        scrub(observation.output),
        scrub(observation.details),
    )
    if not total:
        return observation
    details = {**details, "redactions": total}
    return observation.model_copy(update={"summary": summary, "output": output, "details": details})


def reject(tool: str, reason: str) -> Observation:
    """An action refused before it ran."""
    return Observation(
        tool=tool, status="rejected", summary=f"Rejected {tool}: {reason}", output=f"REJECTED: {reason}"
    )


def tool_list() -> str:
    return ", ".join(t.value for t in ToolName)


def format_process_output(command: str, outcome: str, stdout: str, stderr: str) -> str:
    """The observation text of a finished command."""
    parts = [f"$ {command}", f"[{outcome}]"]
    parts.append(f"--- stdout ---\n{stdout.rstrip()}" if stdout.strip() else "--- stdout: (empty) ---")
    if stderr.strip():
        parts.append(f"--- stderr ---\n{stderr.rstrip()}")
    return "\n".join(parts)


def _short(command: str, limit: int = 80) -> str:
    flat = " ".join(command.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
