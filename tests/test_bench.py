"""The benchmark scripts stay runnable: a one-round policy bench prints every figure it promises."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_policy_bench_prints_load_throughput_and_hostile_input_figures() -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "policy_bench.py"),
            *("--rounds", "1", "--trials", "1", "--runs", "1", "--repeats", "1", "--sizes", "3000"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert re.search(r"process start: +[\d.]+ ms \(`python -c pass`, baseline\)", out)
    assert re.search(r"policy load, cold: +[\d.]+ ms", out)
    assert re.search(
        r"policy load, warm: +[\d.]+ ms \(\d+x faster than cold, .*target <= 100 ms (met|NOT met)", out
    )
    for name in ("repeated", "first sight", "allowlist mode"):
        line = next(line for line in out.splitlines() if line.startswith(f"check, {name}:"))
        ratios = r"[\d.]+x bare parsing, [\d.]+x the walk"
        assert re.search(rf"[\d,]+ checks/s .* {ratios}; target >= 20,000/s", line), line
    assert re.search(r"bare parsing: +[\d,]+ parses/s", out)
    assert re.search(r"parse \+ walk: +[\d,]+ walks/s \([\d.]+ us each, [\d.]+x bare parsing\)", out)
    assert re.search(r"hostile inputs: +\d+ inputs .* worst [\d.]+ ms; target <= 50 ms (met|NOT met)", out)
    assert len(re.findall(r"^ +[\d.]+ ms  (posix|powershell): ", out, flags=re.MULTILINE)) == 8


@pytest.mark.skipif(sys.platform == "win32", reason="measures the POSIX backend")
def test_exec_bench_prints_overhead_and_memory_figures() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "exec_bench.py"), "--runs", "2", "--megabytes", "5"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"subprocess.run baseline: +[\d.]+ ms", run.stdout)
    assert re.search(r"agent run, no sandbox: +[\d.]+ ms +\(\+[\d.]+ ms", run.stdout)
    assert re.search(r"agent run, bubblewrap: +(not measured|[\d.]+ ms .*target <= 30 ms)", run.stdout)
    assert re.search(r"peak RSS, 5 MB of output: .*above idle: target <= 20 MB", run.stdout)


def test_startup_bench_prints_medians_and_the_ratio_to_a_bare_interpreter() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "startup_bench.py"), "--runs", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"python -c pass: +[\d.]+ ms +\(1\.00x", run.stdout)
    assert re.search(
        r"glmagent --help: +[\d.]+ ms +\([\d.]+x the bare interpreter; target <= 2.5x\)", run.stdout
    )
    assert re.search(r"glmagent policy check 'ls -la': +[\d.]+ ms", run.stdout)
    assert re.search(
        r"^glmagent --help: [\d.]+x python -c pass \((meets|misses) the 2.5x target\)$", run.stdout, re.M
    )
    assert re.search(
        r"^glmagent policy check 'ls -la': [\d.]+ ms \((meets|misses) the 150 ms target\)$", run.stdout, re.M
    )
    assert re.search(r"^  load the cached policy \(key, read, unpickle\) +[\d.]+ ms$", run.stdout, re.M)
    assert "(policy from the cache: yes; pydantic, dataclasses imported: none)" in run.stdout


def test_policy_samples_bench_prints_each_samples_rates_and_the_totals(tmp_path: Path) -> None:
    sample = tmp_path / "e99.tsv"
    sample.write_text(
        "backend\texpected\tcategory\tsource\tcommand\n"
        "posix\tallow\tbenign\tx\tpytest -q\n"
        "posix\tallow\tbenign\tx\tcurl https://example.com\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "policy_samples.py"), "--misses", str(sample)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert re.search(r"^e99 +2 +50\.0% +50\.0%$", done.stdout, re.MULTILINE), done.stdout
    assert "everyday lines allowed: 1/2 = 50.0% (fresh checkout), 1/2 = 50.0% (in a project)" in done.stdout
    assert "curl https://example.com" in done.stdout  # the miss, listed


def test_policy_regex_scan_bench_tries_each_growing_expression_in_command_lines() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "policy_regex_scan.py"),
            *("--start", "3", "--count", "40", "--trials", "2", "--size", "400"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    summary = re.search(r"^40 of ([\d,]+) expressions scanned; (\d+) grow over 9x$", done.stdout, re.M)
    assert summary is not None, done.stdout
    assert int(summary[1].replace(",", "")) > 1_000  # the modules' and the loaded policy's expressions
    flagged = int(summary[2])  # (how many grow depends on the machine's timing: any number may)
    listed = re.findall(r"^ +[\d.]+ ms +[\d.]+x  (?:search|fullmatch) ", done.stdout, re.M)
    assert len(listed) == min(flagged, 40)
    lines = re.search(r"^([\d,]+) lines of 400 bytes checked; slowest:$", done.stdout, re.M)
    assert lines is not None, done.stdout
    assert int(lines[1].replace(",", "")) == flagged * 7 * 2 * 2  # seven lines, bare and quoted, both shells
    assert "EXCEPTION" not in done.stdout


def test_policy_pump_bench_reports_the_checks_over_its_threshold() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "policy_pump.py"),
            "--every",
            "4000",
            "--size",
            "300",
            "--over-ms",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    summary = re.search(
        r"^([\d,]+) checks of ([\d,]+) lines pumped to 300 bytes; (\d+) over 0 ms$", done.stdout, re.M
    )
    assert summary is not None, done.stdout
    checks, lines, slow = (int(g.replace(",", "")) for g in summary.groups())
    assert lines > 0 and checks == 4 * lines  # both shells, with and without a project
    assert slow == checks  # every check takes longer than 0 ms, and each is listed (up to 40)
    listed = re.findall(r"^ +[\d.]+ ms  (?:posix|powershell) ", done.stdout, re.M)
    assert len(listed) == min(slow, 40)
    assert "EXCEPTION" not in done.stdout
