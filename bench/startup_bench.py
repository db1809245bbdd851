"""Benchmark start-up: how long `glmagent --help` and `glmagent policy check` take next to a bare interpreter.

    python bench/startup_bench.py [--runs N]

In alternating rounds (these machines are noisy), each of: `python -c pass` (the baseline), `python -c
"import argparse"` (the floor any argparse CLI pays), `glmagent --help` and `glmagent policy check 'ls -la'`
with a warm policy cache. Printed: the median wall time of each and its ratio to the baseline measured in
the same run, and the median CPU time (user + system) of each, which a busy machine disturbs less.
Targets: `--help` <= 2.5x the bare interpreter; `policy check` <= 150 ms end to end.

Then where a `policy check` spends its time, measured inside one process per run (median per phase):
importing the CLI, importing the guard, loading the cached policy (key, read, unpickle), the first check
(parsing, and the expressions it needs compiled on first use) and the printing and exit that follow.

Runs happen in an empty temporary folder with private config and state folders (the policy cache is built
there once, before the rounds), so neither the project nor the user's files change what is measured.
Bytecode is written and used as an installed package would (`PYTHONDONTWRITEBYTECODE` is dropped).
`glmagent` is the console script installed beside this interpreter (as users run it), or
`python -m glmagent` when there is none.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP_TARGET = 2.5
CHECK_TARGET_MS = 150.0
CHECKED = "ls -la"

_PHASES = r"""
import json, sys, time
marks = [("start", time.perf_counter())]
sys.argv = ["glmagent", "policy", "check", sys.argv[1]]
import glmagent.cli, glmagent.cli._policy
marks.append(("import the CLI (argparse, glmagent.cli)", time.perf_counter()))
import glmagent.guard
marks.append(("import glmagent.guard", time.perf_counter()))
from glmagent.guard import Policy
policy = Policy.default()
marks.append(("load the cached policy (key, read, unpickle)", time.perf_counter()))
policy.check(sys.argv[3], "posix")
marks.append(("first check (parse, first-use regexes)", time.perf_counter()))
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    glmagent.cli.main(sys.argv[1:])
marks.append(("the command itself (arguments, second check, output)", time.perf_counter()))
print(json.dumps({"cached": policy.from_cache, "modules": sorted(sys.modules),
                  "phases": [(b[0], (b[1] - a[1]) * 1000) for a, b in zip(marks, marks[1:])]}))
"""


def glmagent_command() -> list[str]:
    """The console script next to this interpreter, as a user runs it; else `python -m glmagent`."""
    script = Path(sys.executable).with_name("glmagent.exe" if os.name == "nt" else "glmagent")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "glmagent"]


def _child_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["GLMAGENT_CONFIG_DIR"] = str(home / "config")
    env["GLMAGENT_STATE_DIR"] = str(home / "state")
    env.pop("GLMAGENT_POLICY_CACHE", None)
    return env


def _run(
    argv: list[str], cwd: Path, env: dict[str, str]
) -> tuple[float, float, subprocess.CompletedProcess[bytes]]:
    """Wall and CPU seconds of one run of `argv`, and its result."""
    before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False, cwd=cwd, env=env)
    wall = time.perf_counter() - started
    return wall, _children_cpu() - before, done


def _children_cpu() -> float:
    """User + system seconds of the finished child processes (microseconds where `resource` exists; the
    clock ticks of `os.times` elsewhere)."""
    try:
        import resource
    except ImportError:
        times = os.times()
        return times.children_user + times.children_system
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(runs: int, folder: Path) -> tuple[dict[str, float], dict[str, float], list[dict[str, object]]]:
    """Median wall and CPU milliseconds per command, and the phases of each in-process run."""
    glmagent = glmagent_command()
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import argparse'": [sys.executable, "-c", "import argparse"],
        "glmagent --help": [*glmagent, "--help"],
        f"glmagent policy check '{CHECKED}'": [*glmagent, "policy", "check", CHECKED],
    }
    env = _child_env(folder)
    work = folder / "work"
    work.mkdir()
    for argv in commands.values():  # write bytecode, fill the file cache, build the policy cache once
        _run(argv, work, env)
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    phases: list[dict[str, object]] = []
    probe = [sys.executable, "-c", _PHASES, CHECKED]
    for _ in range(runs):
        for name, argv in commands.items():
            seconds, cpu_seconds, done = _run(argv, work, env)
            if done.returncode != 0:
                raise SystemExit(f"{name} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
            wall[name].append(seconds * 1000)
            cpu[name].append(cpu_seconds * 1000)
        done = subprocess.run(probe, capture_output=True, check=True, cwd=work, env=env)
        phases.append(json.loads(done.stdout))
    return (
        {name: statistics.median(values) for name, values in wall.items()},
        {name: statistics.median(values) for name, values in cpu.items()},
        phases,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=40, help="rounds (default 40)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="glmagent-startup-") as folder:
        walls, cpus, phases = measure(args.runs, Path(folder))
    base = walls["python -c pass"]
    print(
        f"start-up, median of {args.runs} runs each, alternating ({' '.join(glmagent_command())}; "
        "policy cache warm):"
    )
    check = f"glmagent policy check '{CHECKED}'"
    for name, value in walls.items():
        ratio = value / base
        target = ""
        if name == "glmagent --help":
            target = f"; target <= {HELP_TARGET}x"
        elif name == check:
            target = f"; target <= {CHECK_TARGET_MS:.0f} ms"
        print(
            f"  {name + ':':34} {value:7.1f} ms  ({ratio:.2f}x the bare interpreter{target})"
            f"   cpu {cpus[name]:6.1f} ms ({cpus[name] / cpus['python -c pass']:.2f}x)"
        )
    ratio = walls["glmagent --help"] / base
    verdict = "meets" if ratio <= HELP_TARGET else "misses"
    print(f"glmagent --help: {ratio:.2f}x python -c pass ({verdict} the {HELP_TARGET}x target)")
    verdict = "meets" if walls[check] <= CHECK_TARGET_MS else "misses"
    print(f"{check}: {walls[check]:.1f} ms ({verdict} the {CHECK_TARGET_MS:.0f} ms target)")

    names = [name for name, _ in phases[0]["phases"]]  # type: ignore[index]
    print(f"\nwhere {check} spends its time (inside one process, median of {len(phases)}):")
    print(f"  {'interpreter start-up (python -c pass)':55} {base:7.1f} ms")
    for position, name in enumerate(names):
        values = [run["phases"][position][1] for run in phases]  # type: ignore[index]
        print(f"  {name:55} {statistics.median(values):7.1f} ms")
    cached = all(run["cached"] for run in phases)
    heavy = sorted(
        {m.split(".")[0] for run in phases for m in run["modules"]} & {"pydantic", "dataclasses"}  # type: ignore[union-attr]
    )
    imported = ", ".join(heavy) or "none"
    print(
        f"  (policy from the cache: {'yes' if cached else 'NO'}; pydantic, dataclasses imported: {imported})"
    )


if __name__ == "__main__":
    main()
