"""`glmagent task` and `glmagent demo`: run the loop on a project, or on the bundled sample offline."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from glmagent.cli._common import add_containment, add_directory, add_policy_files, add_shell, emit_result
from glmagent.cli._exit import task_exit_code
from glmagent.errors import ConfigError

_TASK_EPILOG = """\
The loop stops by itself: when the planner returns no actions, when the tests pass (if they failed before
iteration 1), or at --max-iterations. Each iteration's summary is appended to
.hazina/agent-memory/TASK_ID.txt and every event to TASK_ID.jsonl beside it (`glmagent audit` reads them);
reuse --task-id to continue with new instructions, or --resume TASK_ID to continue a stopped task as it was.

providers (API keys come from the environment only; README "Providers" has the details):
  glm                GLM API (default, model glm-5): ZAI_API_KEY, or ZHIPUAI_API_KEY (open.bigmodel.cn);
                     GLM Coding Plan: --base-url https://api.z.ai/api/coding/paas/v4
  openai             OpenAI (model gpt-4o-mini; OPENAI_BASE_URL moves it): OPENAI_API_KEY
  ollama             local Ollama (model qwen2.5-coder; OLLAMA_HOST or http://localhost:11434), no key
  openai-compatible  any server speaking the API (llama.cpp, vLLM, LM Studio, OpenRouter, ...):
                     --base-url URL --model M [--api-key-env NAME] (no key needed on 127.0.0.1)
  replay             recorded replies, offline: --replay FILE (JSON Lines, one reply per line)
Each planner request has an overall deadline (--request-timeout, 120 s) and asks for at most --max-tokens
(4096). Rate limits, server errors, dropped connections and timeouts are retried with backoff honouring
Retry-After (--max-retries, 4; 300 s in all); a bad key, an empty balance or an unknown model stop at once
with exit 3. Structured output: the strict JSON schema first, stepping down to json_object, then to the
prompt alone when the server refuses (--response-format picks the first).

containment: commands and the test command run in an OS sandbox where the OS has one (--sandbox auto:
bubblewrap on Linux); the first lines of output say which layer is active. --allow-network lets them use the
network.

settings precedence: flags > GLMAGENT_* environment variables > .hazina/config.toml > your own config.toml >
defaults. A project's provider, base_url, test_command, sandbox and allow_network apply only once you run
`glmagent trust -C DIR` (an edited file needs trusting again).

exit codes: 0 success, 1 finished without success, 2 usage or configuration error, 3 planner failure,
130 Ctrl-C, 143/129 SIGTERM/SIGHUP (summary and audit record still written).
"""


def register(commands: Any) -> None:
    task = commands.add_parser(
        "task",
        help="run a task in a project",
        description="Run the plan → act → observe loop on DESCRIPTION in a project directory.",
        epilog=_TASK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    task.add_argument("description", nargs="?", help="what to do, in plain words (not with --resume)")
    task.add_argument("--test", dest="test_command", metavar="CMD", help="test command the loop runs itself")
    add_directory(task)
    task.add_argument("--max-iterations", type=int, metavar="N", help="iteration limit (default 5)")
    task.add_argument(
        "--provider",
        choices=("glm", "openai", "ollama", "openai-compatible", "replay"),
        help="planner provider",
    )
    task.add_argument("--model", help="model name (each provider has a default)")
    task.add_argument("--base-url", metavar="URL", help="API root of an OpenAI-compatible provider")
    task.add_argument("--api-key-env", metavar="NAME", help="environment variable holding the provider's key")
    task.add_argument("--max-tokens", type=int, metavar="N", help="completion tokens per planner call (4096)")
    task.add_argument(
        "--request-timeout", type=float, metavar="S", help="seconds one planner request may take in all (120)"
    )
    task.add_argument(
        "--max-retries", type=int, metavar="N", help="retries of a failed planner request (4; 0: none)"
    )
    task.add_argument(
        "--response-format",
        choices=("auto", "json_schema", "json_object", "none"),
        help="structured output to ask for first (auto: json_schema, json_object for glm)",
    )
    task.add_argument(
        "--thinking", choices=("on", "off"), help="GLM thinking on/off (default: the model's own default)"
    )
    task.add_argument("--replay", type=Path, metavar="FILE", help="recorded replies for --provider replay")
    add_shell(task)
    task.add_argument("--task-id", metavar="ID", help="memory file name; reuse it to continue a task")
    task.add_argument(
        "--resume",
        metavar="TASK_ID",
        help="continue a stopped task (interrupted, killed, out of iterations) with its memory and task",
    )
    add_policy_files(task)
    add_containment(task)
    task.add_argument("--test-timeout", type=float, metavar="S", help="seconds for the test command (900)")
    task.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    task.set_defaults(handler=run_task)

    demo = commands.add_parser(
        "demo",
        help="offline end-to-end run on a bundled sample project",
        description="Copy a small sample project into a temporary directory and run the real loop on it "
        "with a recorded planner: read the file, apply a fix, tests pass, stop. Needs pytest.",
    )
    demo.add_argument("--dir", type=Path, metavar="DIR", help="copy the sample project here instead")
    add_shell(demo)
    add_containment(demo)
    demo.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    demo.set_defaults(handler=run_demo)


def run_task(args: argparse.Namespace) -> int:
    from glmagent.agent import CodingAgent, planner_from_settings
    from glmagent.config import resolve_settings
    from glmagent.render import ConsoleObserver

    workdir = args.directory.expanduser().resolve()
    if not workdir.is_dir():
        raise ConfigError(f"project directory does not exist: {workdir}")
    _check_resume_arguments(args)
    flags = {
        "provider": args.provider,
        "model": args.model,
        "base_url": args.base_url,
        "replay": args.replay,
        "max_iterations": args.max_iterations,
        "test_command": args.test_command,
        "shell": args.shell,
        "command_timeout": args.command_timeout,
        "test_timeout": args.test_timeout,
        "policy_files": args.policy_files,
        "sandbox": args.sandbox,
        "allow_network": args.allow_network,
        "api_key_env": args.api_key_env,
        "max_tokens": args.max_tokens,
        "request_timeout": args.request_timeout,
        "max_retries": args.max_retries,
        "response_format": args.response_format,
        "thinking": None if args.thinking is None else args.thinking == "on",
    }
    if args.replay is not None and args.provider is None:
        flags["provider"] = "replay"  # --replay alone clearly means offline replay
    settings = resolve_settings(
        workdir, flags, warn=lambda message: print(f"glmagent: {message}", file=sys.stderr)
    )
    planner = planner_from_settings(settings)
    progress = sys.stderr if args.json else sys.stdout
    observer = ConsoleObserver(progress, planner_label=getattr(planner, "name", settings.provider))
    agent = CodingAgent(planner=planner, settings=settings, observer=observer)
    if args.resume:
        task = CodingAgent.resume_task(
            args.resume, workdir, max_iterations=settings.max_iterations, test_command=settings.test_command
        )
    else:
        task = CodingAgent.create_task(
            description=args.description,
            working_directory=workdir,
            max_iterations=settings.max_iterations,
            test_command=settings.test_command,
            task_id=args.task_id,
        )
    resumes = f" (resuming run {task.resumes})" if task.resumes else ""
    print(f"task {task.task_id} in {workdir}{resumes}", file=progress)
    print(containment_line(settings, workdir), file=progress)
    try:
        result = agent.run(task)
    finally:
        close = getattr(planner, "close", None)
        if callable(close):
            close()
    emit_result(result, args.json)
    return task_exit_code(result)


def _check_resume_arguments(args: argparse.Namespace) -> None:
    if args.resume is None:
        if not args.description or not args.description.strip():
            raise ConfigError("say what to do: glmagent task DESCRIPTION (or --resume TASK_ID)")
        return
    if args.description:
        raise ConfigError("--resume continues a task with its recorded description; leave DESCRIPTION out")
    if args.task_id and args.task_id != args.resume:
        raise ConfigError(f"--resume {args.resume} and --task-id {args.task_id} name different tasks")


def run_demo(args: argparse.Namespace) -> int:
    from glmagent.demo import DEMO_TASK, run_demo
    from glmagent.render import ConsoleObserver

    progress = sys.stderr if args.json else sys.stdout
    print(f"glmagent demo: {DEMO_TASK}", file=progress)
    print("planner: recorded replies (offline); tests: the sample project's pytest suite", file=progress)
    result = run_demo(
        args.dir,
        observer=ConsoleObserver(progress, planner_label="replay"),
        shell=args.shell or "auto",
        sandbox=args.sandbox or "auto",
        allow_network=bool(args.allow_network),
        command_timeout=args.command_timeout,
        announce=lambda line: print(line, file=progress),
    )
    print(f"\nproject: {result.working_directory}", file=progress)
    emit_result(result, args.json)
    return task_exit_code(result)


def containment_line(settings: Any, workdir: Path) -> str:
    """The start-up line saying which layer guards commands (raises ConfigError for an unusable choice)."""
    from glmagent.agent import sandbox_for

    return sandbox_for(settings, workdir).describe()
