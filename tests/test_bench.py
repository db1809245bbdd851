"""The benchmark scripts stay runnable: a one-round policy bench prints every figure it promises."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_policy_bench_prints_rates_and_ratios_for_both_measurements() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "policy_bench.py"), "--rounds", "1", "--trials", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    for name in ("repeated", "first sight"):
        line = next(line for line in run.stdout.splitlines() if line.startswith(f"check, {name}:"))
        assert re.search(r"[\d,]+ checks/s .* ([\d.]+)x bare parsing; targets", line), line
    assert re.search(r"bare parsing: +[\d,]+ parses/s", run.stdout)
