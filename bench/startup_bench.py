"""Benchmark start-up: how long `glmagent --help` and `glmagent policy check` take next to a bare interpreter.

    python bench/startup_bench.py [--runs N]

In alternating rounds (these machines are noisy), each of: `python -c pass` (the baseline), `glmagent --help`,
`glmagent policy check 'ls -la'`, and `python -c "import argparse"` (the floor any argparse CLI pays). The
median of each, and its ratio to the baseline measured in the same run. Target: `--help` <= 2.5x the bare
interpreter. `glmagent` is the console script installed beside this interpreter (as users run it), or
`python -m glmagent` when there is none.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HELP_TARGET = 2.5


def glmagent_command() -> list[str]:
    """The console script next to this interpreter, as a user runs it; else `python -m glmagent`."""
    script = Path(sys.executable).with_name("glmagent.exe" if os.name == "nt" else "glmagent")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "glmagent"]


def measure(runs: int) -> dict[str, float]:
    glmagent = glmagent_command()
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import argparse'": [sys.executable, "-c", "import argparse"],
        "glmagent --help": [*glmagent, "--help"],
        "glmagent policy check 'ls -la'": [*glmagent, "policy", "check", "ls -la"],
    }
    samples: dict[str, list[float]] = {name: [] for name in commands}
    env = dict(os.environ)
    for argv in commands.values():  # warm the file cache and the bytecode cache once
        subprocess.run(argv, capture_output=True, check=False, env=env)
    for _ in range(runs):
        for name, argv in commands.items():
            started = time.perf_counter()
            done = subprocess.run(argv, capture_output=True, check=False, env=env)
            samples[name].append(time.perf_counter() - started)
            if done.returncode != 0:
                raise SystemExit(f"{name} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return {name: statistics.median(values) * 1000 for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=40, help="rounds (default 40)")
    args = parser.parse_args()
    medians = measure(args.runs)
    base = medians["python -c pass"]
    print(f"start-up, median of {args.runs} runs each, alternating ({' '.join(glmagent_command())}):")
    for name, value in medians.items():
        ratio = value / base
        target = f"; target <= {HELP_TARGET}x" if name == "glmagent --help" else ""
        print(f"  {name + ':':34} {value:7.1f} ms  ({ratio:.2f}x the bare interpreter{target})")
    ratio = medians["glmagent --help"] / base
    verdict = "meets" if ratio <= HELP_TARGET else "misses"
    print(f"glmagent --help: {ratio:.2f}x python -c pass ({verdict} the {HELP_TARGET}x target)")


if __name__ == "__main__":
    main()
