"""Benchmark running commands: the agent's `run` overhead over plain `subprocess.run`, without and with the OS
sandbox, and the agent's memory while a command prints a lot.

    python bench/exec_bench.py [--runs N] [--megabytes M]

Overhead: in alternating rounds (these machines are noisy), `true` through `subprocess.run`, through the
agent's shell backend without a sandbox (scrubbed environment, subreaper on Linux, output capture) and with
bubblewrap when it is usable; the median of each, and the differences. Targets: the sandbox adds <= 30 ms.

glmagent's own git: `git status` through `subprocess.run` (the baseline), and a `git_status` action through
`GitRunner` without and with the sandbox (each lists the repository's config to switch off every program
it names, then runs the command: two git processes). Target: the sandbox adds <= 30 ms per git process.

Memory: in a fresh child process each, the peak RSS of the agent running `true`, and running a command that
prints M megabytes (default 200). Target: <= 20 MB above the idle run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glmagent.tools.git import GitRunner  # noqa: E402
from glmagent.tools.sandbox import BwrapSandbox, NoSandbox, bwrap_problem  # noqa: E402
from glmagent.tools.shell import PosixShell  # noqa: E402

_PEAK_SCRIPT = """
import json, resource, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from glmagent.tools.shell import PosixShell
result = PosixShell().run({command!r}, Path({cwd!r}), 600)
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"peak_kb": peak_kb, "bytes": result.stdout_bytes, "exit": result.exit_code}}))
"""


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def overhead(runs: int, cwd: Path) -> None:
    plain: list[float] = []
    agent: list[float] = []
    boxed: list[float] = []
    bare = PosixShell(sandbox=NoSandbox())
    problem = bwrap_problem()
    sandboxed = PosixShell(sandbox=BwrapSandbox(cwd)) if problem is None else None
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(["/bin/sh", "-c", "true"], cwd=cwd, capture_output=True, check=False)
        plain.append(time.perf_counter() - started)
        started = time.perf_counter()
        bare.run("true", cwd, 60)
        agent.append(time.perf_counter() - started)
        if sandboxed is not None:
            started = time.perf_counter()
            sandboxed.run("true", cwd, 60)
            boxed.append(time.perf_counter() - started)
    base = _median_ms(plain)
    print(f"subprocess.run baseline:   {base:7.1f} ms per command (median of {runs})")
    print(
        f"agent run, no sandbox:     {_median_ms(agent):7.1f} ms  (+{_median_ms(agent) - base:.1f} ms, "
        f"{_median_ms(agent) / base:.2f}x)"
    )
    if sandboxed is None:
        print(f"agent run, bubblewrap:     not measured ({problem})")
        return
    added = _median_ms(boxed) - base
    verdict = "met" if added <= 30 else "NOT met"
    print(
        f"agent run, bubblewrap:     {_median_ms(boxed):7.1f} ms  (+{added:.1f} ms, "
        f"{_median_ms(boxed) / base:.2f}x): target <= 30 ms added {verdict}; "
        f"{_median_ms(boxed) - _median_ms(agent):+.1f} ms against no sandbox (its PID namespace replaces the "
        "reaper process)"
    )


def git_overhead(runs: int, cwd: Path) -> None:
    repo = cwd / "repo"
    repo.mkdir()
    for index in range(50):
        (repo / f"file{index}.py").write_text(f"x = {index}\n", encoding="utf-8")
    quiet = {"capture_output": True, "check": False}
    subprocess.run(["git", "init", "-q"], cwd=repo, **quiet)  # type: ignore[call-overload]
    subprocess.run(["git", "add", "-A"], cwd=repo, **quiet)  # type: ignore[call-overload]
    subprocess.run(  # type: ignore[call-overload]
        ["git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "b"], cwd=repo, **quiet
    )
    (repo / "file0.py").write_text("x = 'changed'\n", encoding="utf-8")
    plain: list[float] = []
    bare: list[float] = []
    boxed: list[float] = []
    unboxed_runner = GitRunner(repo, NoSandbox())
    problem = bwrap_problem()
    boxed_runner = GitRunner(repo, BwrapSandbox(repo)) if problem is None else None
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(["git", "status", "--short"], cwd=repo, **quiet)  # type: ignore[call-overload]
        plain.append(time.perf_counter() - started)
        started = time.perf_counter()
        unboxed_runner.status()
        bare.append(time.perf_counter() - started)
        if boxed_runner is not None:
            started = time.perf_counter()
            boxed_runner.status()
            boxed.append(time.perf_counter() - started)
    base = _median_ms(plain)
    print(f"git status baseline:       {base:7.1f} ms per call (median of {runs})")
    print(
        f"git_status, no sandbox:    {_median_ms(bare):7.1f} ms  (+{_median_ms(bare) - base:.1f} ms, "
        f"{_median_ms(bare) / base:.2f}x; two git processes)"
    )
    if boxed_runner is None:
        print(f"git_status, bubblewrap:    not measured ({problem})")
        return
    per_process = (_median_ms(boxed) - _median_ms(bare)) / 2
    verdict = "met" if per_process <= 30 else "NOT met"
    print(
        f"git_status, bubblewrap:    {_median_ms(boxed):7.1f} ms  ({_median_ms(boxed) / base:.2f}x the "
        f"baseline); the sandbox adds {per_process:+.1f} ms per git process: target <= 30 ms {verdict}"
    )


def peak(command: str, cwd: Path) -> dict[str, int]:
    script = _PEAK_SCRIPT.format(root=str(ROOT), command=command, cwd=str(cwd))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def memory(megabytes: int, cwd: Path) -> None:
    idle = peak("true", cwd)
    chatty = peak(f"head -c {megabytes * 1024 * 1024} /dev/zero | tr '\\0' x", cwd)
    above = (chatty["peak_kb"] - idle["peak_kb"]) / 1024
    verdict = "met" if above <= 20 else "NOT met"
    print(f"peak RSS, idle `run true`:  {idle['peak_kb'] / 1024:7.1f} MB")
    print(
        f"peak RSS, {megabytes} MB of output: {chatty['peak_kb'] / 1024:7.1f} MB "
        f"({chatty['bytes'] / 1e6:,.0f} MB read); {above:+.1f} MB above idle: target <= 20 MB {verdict}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="commands per variant (default 40)")
    parser.add_argument("--megabytes", type=int, default=200, help="output size for the memory check")
    args = parser.parse_args()
    if sys.platform == "win32":
        print("exec_bench measures the POSIX backend; run it on Linux or macOS")
        return 0
    with tempfile.TemporaryDirectory(prefix="glmagent-exec-bench-") as tmp:
        cwd = Path(tmp)
        overhead(args.runs, cwd)
        git_overhead(args.runs, cwd)
        memory(args.megabytes, cwd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
