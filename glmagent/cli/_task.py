"""`glmagent task` and `glmagent demo`: run the loop on a project, or on the bundled sample offline."""

from __future__ import annotations

import argparse
import sys

from glmagent.cli._common import (
    add_containment,
    add_directory,
    add_json,
    add_policy_files,
    add_shell,
    path_arg,
    warn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from glmagent.config import Settings
    from glmagent.loop import TaskResult
    from glmagent.ui import TaskScreen

_TASK_EPILOG = """\
The loop stops by itself: when the planner returns no actions, when the tests pass (if they failed before
iteration 1), or at --max-iterations (1-100). Each iteration's summary is appended to
.hazina/agent-memory/TASK_ID.txt and every event to TASK_ID.jsonl beside it (`glmagent audit` reads them);
reuse --task-id to continue with new instructions, or --resume TASK_ID to continue a stopped task as it was.

success: the tests pass after failing before iteration 1; or the planner declares the task done (no
actions) after at least one iteration in which every action succeeded — and, with --test, the tests pass.
Declaring done without such an iteration (an empty replay, a batch of failures) is not success.

task description: the DESCRIPTION argument, - to read it from stdin, or --task-file FILE (- for stdin) for
descriptions too long for a command line.

providers (API keys come from the environment only; README "Providers" has the details):
  glm                GLM API (default, model glm-5): ZAI_API_KEY, or ZHIPUAI_API_KEY (open.bigmodel.cn);
                     GLM Coding Plan: --base-url https://api.z.ai/api/coding/paas/v4
  openai             OpenAI (model gpt-4o-mini; OPENAI_BASE_URL moves it): OPENAI_API_KEY
  ollama             local Ollama (model qwen2.5-coder; OLLAMA_HOST or http://localhost:11434), no key
  openai-compatible  any server speaking the API (llama.cpp, vLLM, LM Studio, OpenRouter, ...):
                     --base-url URL --model M [--api-key-env NAME] (no key needed on 127.0.0.1)
  replay             recorded replies, offline: --replay FILE (JSON Lines, one reply per line)
Replies are streamed: a planner request is given up only when the server stays silent for --request-timeout
(600 s: before the first byte, or between two parts of the reply), and asks for at most --max-tokens (4096).
Rate limits, server errors and dropped connections are retried with backoff honouring Retry-After
(--max-retries, 4; none starts after 300 s), a silent server once; a bad key, an empty balance or an unknown
model stop at once with exit 3. Structured output: the strict JSON schema first, stepping down to
json_object, then to the prompt alone when the server refuses (--response-format picks the first).

containment: commands and the test command run in an OS sandbox where the OS has one (--sandbox auto:
bubblewrap on Linux); the first lines of output say which layer is active. --allow-network lets them use the
network.

settings precedence: flags > GLMAGENT_* environment variables > .hazina/config.toml > your own config.toml >
defaults (`glmagent config show` prints each setting and where it came from). A project's provider,
base_url, test_command, sandbox and allow_network apply only once you run `glmagent trust -C DIR` (an edited
file needs trusting again).

Ctrl-C: the first lets the running action finish, then stops with the summary written; a second stops now.

exit codes: 0 success, 1 finished without success, 2 usage or configuration error, 3 planner failure,
130 Ctrl-C, 143/129 SIGTERM/SIGHUP (summary and audit record still written).
"""

#: Longer than any model's context, so certainly a mistake (a binary file, a log piped in by accident).
MAX_DESCRIPTION_CHARS = 4_000_000


def register(commands: Any) -> None:
    task = commands.add_parser(
        "task",
        help="run a task in a project",
        description="Run the plan → act → observe loop on DESCRIPTION in a project directory.",
        epilog=_TASK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    task.add_argument(
        "description",
        nargs="?",
        help="what to do, in plain words (- reads it from stdin; not with --resume)",
    )
    task.add_argument(
        "--task-file",
        type=path_arg,
        metavar="FILE",
        help="read the description from FILE (- for stdin), for descriptions too long for a command line",
    )
    add_settings_arguments(task)
    task.add_argument("--task-id", metavar="ID", help="memory file name; reuse it to continue a task")
    task.add_argument(
        "--resume",
        metavar="TASK_ID",
        help="continue a stopped task (interrupted, killed, out of iterations) with its memory and task",
    )
    add_json(task)
    task.set_defaults(handler=run_task)

    demo = commands.add_parser(
        "demo",
        help="offline end-to-end run on a bundled sample project",
        description="Copy a small sample project into a temporary directory and run the real loop on it "
        "with a recorded planner: read the file, apply a fix, tests pass, stop. Needs pytest.",
    )
    demo.add_argument("--dir", type=path_arg, metavar="DIR", help="copy the sample project here instead")
    add_shell(demo)
    add_containment(demo)
    add_json(demo)
    demo.set_defaults(handler=run_demo)


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that set a `Settings` field (each `dest` is the field's name); `config show` takes them
    too, to show what a command line would use."""
    parser.add_argument(
        "--test", dest="test_command", metavar="CMD", help="test command the loop runs itself"
    )
    parser.add_argument(
        "--test-edits",
        choices=("auto", "allow", "deny"),
        help="may the model change test files? auto (default): only if the task asks for test changes",
    )
    add_directory(parser)
    parser.add_argument("--max-iterations", type=int, metavar="N", help="iteration limit, 1-100 (default 5)")
    parser.add_argument(
        "--provider",
        choices=("glm", "openai", "ollama", "openai-compatible", "replay"),
        help="planner provider",
    )
    parser.add_argument("--model", help="model name (each provider has a default)")
    parser.add_argument("--base-url", metavar="URL", help="API root of an OpenAI-compatible provider")
    parser.add_argument(
        "--api-key-env", metavar="NAME", help="environment variable holding the provider's key"
    )
    parser.add_argument(
        "--max-tokens", type=int, metavar="N", help="completion tokens per planner call (4096)"
    )
    parser.add_argument(
        "--request-timeout", type=float, metavar="S", help="seconds a planner request may stay silent (600)"
    )
    parser.add_argument(
        "--max-retries", type=int, metavar="N", help="retries of a failed planner request (4; 0: none)"
    )
    parser.add_argument(
        "--response-format",
        choices=("auto", "json_schema", "json_object", "none"),
        help="structured output to ask for first (auto: json_schema, json_object for glm)",
    )
    parser.add_argument(
        "--thinking", choices=("on", "off"), help="GLM thinking on/off (default: the model's own default)"
    )
    parser.add_argument(
        "--replay", type=path_arg, metavar="FILE", help="recorded replies (implies --provider replay)"
    )
    add_shell(parser)
    add_policy_files(parser)
    add_containment(parser)
    parser.add_argument(
        "--test-timeout", type=float, metavar="S", help="seconds for the test command (default 900)"
    )


def settings_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given as flags, by field name (None: not given)."""
    from glmagent.config import Settings

    flags = {name: getattr(args, name) for name in Settings.model_fields if hasattr(args, name)}
    test = flags.get("test_command")
    if test is not None and not test.strip():
        from glmagent.errors import ConfigError

        # `--test "$UNSET"` must not quietly run a task without tests and call it a success.
        raise ConfigError(
            "--test is empty: give the command that runs the tests (leave --test out to run none)"
        )
    if "thinking" in flags and flags["thinking"] is not None:
        flags["thinking"] = flags["thinking"] == "on"
    if flags.get("replay") is not None and flags.get("provider") is None:
        flags["provider"] = "replay"  # --replay alone clearly means offline replay
    return flags


def read_description(args: argparse.Namespace) -> str:
    """The task description from the argument, `-` (stdin) or `--task-file`; a usage error when missing,
    doubled, unreadable or empty."""
    from glmagent.errors import ConfigError

    given, task_file = args.description, args.task_file
    if given is not None and task_file is not None:
        raise ConfigError("give the task description either as an argument or with --task-file, not both")
    if given is None and task_file is None:
        raise ConfigError(
            "no task description: give it as an argument, with --task-file FILE, or - to read it from stdin"
        )
    if given == "-" or str(task_file) == "-":
        if sys.stdin is None:
            raise ConfigError("cannot read the task description: there is no standard input")
        if sys.stdin.isatty():
            from glmagent.cli._output import notice

            notice("reading the task description from stdin; end it with Ctrl-D", level="info")
        text, source = sys.stdin.read(MAX_DESCRIPTION_CHARS + 1), "stdin"
    elif task_file is not None:
        text, source = _read_task_file(task_file), str(task_file)
    else:
        text, source = given, "the argument"
    if len(text) > MAX_DESCRIPTION_CHARS:
        raise ConfigError(
            f"the task description from {source} is longer than {MAX_DESCRIPTION_CHARS:,} characters"
        )
    text = text.strip()
    if not text:
        raise ConfigError(f"the task description is empty ({source}); say what the agent should do")
    undecodable = _first_undecodable(text)
    if undecodable is not None:
        raise ConfigError(
            f"the task description from {source} is not UTF-8 text ({undecodable}); send it as UTF-8"
        )
    return text


def _first_undecodable(text: str) -> str | None:
    """Where `text` holds what the OS could not decode (kept as lone surrogates by Python), described."""
    for index, char in enumerate(text):
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:  # `surrogateescape`: the original byte, as the terminal sent it
            return f"byte 0x{code - 0xDC00:02x} at character {index}"
        if 0xD800 <= code <= 0xDFFF:
            return f"a lone surrogate \\u{code:04x} at character {index}"
    return None


def _read_task_file(path: Path) -> str:
    from glmagent.errors import ConfigError

    try:
        with path.expanduser().open("r", encoding="utf-8-sig") as handle:
            return handle.read(MAX_DESCRIPTION_CHARS + 1)
    except FileNotFoundError:
        raise ConfigError(f"task file not found: {path}") from None
    except IsADirectoryError:
        raise ConfigError(f"task file is a directory: {path}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"task file {path} is not UTF-8 text ({error.reason} at byte {error.start})"
        ) from None
    except OSError as error:
        raise ConfigError(f"cannot read task file {path}: {error.strerror or error}") from None


def _screen(args: argparse.Namespace, planner_label: str) -> TaskScreen:
    return task_screen(args, planner_label)


def task_screen(args: argparse.Namespace, planner_label: str) -> TaskScreen:
    """The screen of a run: on stdout, or on stderr when stdout carries JSON — and then nothing at all when
    stderr carries JSON log lines (`--log-format json`): the logs say what happened."""
    from glmagent.cli._output import stderr_is_json
    from glmagent.ui import TaskScreen

    progress = sys.stderr if args.json else sys.stdout
    return TaskScreen(
        progress,
        colour=args.colour,
        planner_label=planner_label,
        quiet=args.quiet,
        verbose=args.verbose,
        silent=args.json and stderr_is_json(),
    )


def run_task(args: argparse.Namespace) -> int:
    from glmagent.agent import CodingAgent, planner_from_settings
    from glmagent.config import resolve_settings
    from glmagent.errors import ConfigError

    _check_resume_arguments(args)
    description = None if args.resume else read_description(args)
    if args.task_id is not None:
        from glmagent.memory import validate_task_id

        # An empty id (`--task-id "$UNSET"`) must not silently start a new task.
        validate_task_id(args.task_id)
    workdir = args.directory.expanduser().resolve()
    if not workdir.is_dir():
        raise ConfigError(f"project directory does not exist: {workdir}")
    settings = resolve_settings(workdir, settings_flags(args), warn=warn)
    _log_settings(settings)
    if args.resume:
        task = CodingAgent.resume_task(
            args.resume, workdir, max_iterations=settings.max_iterations, test_command=settings.test_command
        )
    else:
        task = CodingAgent.create_task(
            description=description or "",
            working_directory=workdir,
            max_iterations=settings.max_iterations,
            test_command=settings.test_command,
            task_id=args.task_id,
        )
    containment = containment_line(settings, workdir)
    planner = planner_from_settings(settings)
    label = getattr(planner, "name", settings.provider)
    screen = _screen(args, label)
    resumes = f" (resuming run {task.resumes})" if task.resumes else ""
    screen.header(
        "glmagent task",
        task.task_id + resumes,
        [
            ("project", str(workdir)),
            ("task", _first_line(task.description)),
            ("planner", f"{label} · up to {settings.max_iterations} iterations"),
            ("tests", settings.test_command or "none (--test CMD: the loop runs them itself)"),
            ("sandbox", _sandbox_row(containment)),
        ],
    )
    agent = CodingAgent(
        planner=planner, settings=settings, observer=screen.observer, stop=_stop_control(screen)
    )
    try:
        result = _run(screen, lambda: agent.run(task))
    finally:
        close = getattr(planner, "close", None)
        if callable(close):
            close()
    return _finish(args, screen, result)


def _check_resume_arguments(args: argparse.Namespace) -> None:
    from glmagent.errors import ConfigError

    if args.resume is None:
        return
    if args.description is not None or args.task_file is not None:
        raise ConfigError("--resume continues a task with its recorded description; leave DESCRIPTION out")
    if args.task_id and args.task_id != args.resume:
        raise ConfigError(f"--resume {args.resume} and --task-id {args.task_id} name different tasks")


def run_demo(args: argparse.Namespace) -> int:
    from glmagent.demo import DEMO_TASK, run_demo

    screen = _screen(args, "replay")

    def announce(project: Path, containment: str) -> None:
        screen.header(
            "glmagent demo",
            DEMO_TASK,
            [
                ("project", str(project)),
                ("planner", "recorded replies (offline)"),
                ("tests", "the sample project's pytest suite"),
                ("sandbox", _sandbox_row(containment)),
            ],
        )

    def run() -> TaskResult:
        return run_demo(
            args.dir,
            observer=screen.observer,
            shell=args.shell or "auto",
            sandbox=args.sandbox or "auto",
            allow_network=bool(args.allow_network),
            command_timeout=args.command_timeout,
            announce=announce,
            stop=_stop_control(screen),
        )

    return _finish(args, screen, _run(screen, run))


def _run(screen: TaskScreen, run: Any) -> TaskResult:
    """Run with the live status line and with planner retries shown in it."""
    from glmagent.cli._output import listen

    def retried(event: dict[str, Any]) -> bool:
        wait = event.get("wait_s")
        screen.planner_retry(
            f"retry {event.get('retry')}" + (f" in {wait}s" if wait else "") + f": {event.get('error')}"
        )
        return True

    listen("planner.retry", retried)
    try:
        with screen.running():
            return run()
    finally:
        listen("planner.retry", None)


def _finish(args: argparse.Namespace, screen: TaskScreen, result: TaskResult) -> int:
    """The summary on the screen; with --json, the result document alone on stdout."""
    import json

    from glmagent.cli._exit import task_exit_code

    if not (args.json and args.quiet):
        screen.summary(result)  # nothing when the screen is silent
    if args.json:
        sys.stdout.write(json.dumps(result.model_dump(mode="json"), indent=2) + "\n")
        sys.stdout.flush()
    return task_exit_code(result)


def _stop_control(screen: TaskScreen) -> Any:
    from glmagent.cli._signals import CONTROL

    CONTROL.on_request = screen.stop_requested
    return CONTROL


def _first_line(text: str, limit: int = 100) -> str:
    """The description's first line, shortened, marked when there is more."""
    lines = text.splitlines()
    first = lines[0] if lines else ""
    if len(first) > limit:
        return first[: limit - 1] + "…"
    return first + (" …" if len(lines) > 1 else "")


def _log_settings(settings: Settings) -> None:
    from glmagent._log import get_logger

    get_logger("glmagent.cli").debug("settings", **settings.model_dump(mode="json"))


def _sandbox_row(containment: str) -> str:
    return containment.removeprefix("OS sandbox: ")


def containment_line(settings: Any, workdir: Path) -> str:
    """The start-up line saying which layer guards commands (raises ConfigError for an unusable choice)."""
    from glmagent.agent import sandbox_for

    return sandbox_for(settings, workdir).describe()
