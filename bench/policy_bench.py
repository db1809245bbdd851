"""Benchmark the command policy: checks per second, and the cost relative to bare tree-sitter parsing.

    python bench/policy_bench.py [--rounds N] [--trials T] [--corpus tests/corpus/policy.tsv]

Loads the built-in policy once (timed, including the self-check of every rule example), then, in alternating
short trials, parses every corpus command with the same tree-sitter parsers and checks it with the policy;
the best trial of each counts, so both are measured in the same machine state.

Checks are measured twice. `Policy.check` keeps no decisions, but it remembers rule-clause verdicts per
command words (bounded), which a repeated command reuses: "repeated" is that steady state, "first sight"
turns the memory off so every check evaluates every clause, as for a command never seen before.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glmagent.guard import Policy, _parse_posix, _parse_powershell  # noqa: E402


def load_corpus(path: Path) -> list[tuple[str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            backend, _expected, _category, command = line.split("\t", 3)
            rows.append((backend, command))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="corpus passes per trial (default 40)")
    parser.add_argument("--trials", type=int, default=15, help="alternating trials; the best of each counts")
    parser.add_argument("--corpus", type=Path, default=ROOT / "tests" / "corpus" / "policy.tsv")
    args = parser.parse_args()
    rows = load_corpus(args.corpus)

    started = time.perf_counter()
    policy = Policy.load()
    load_seconds = time.perf_counter() - started
    examples = sum(len(r.match) + len(r.not_match) for r in policy.rules)

    encoded = [(backend, command.encode("utf-8")) for backend, command in rows]
    parsers = {"posix": _parse_posix.parser(), "powershell": _parse_powershell.parser()}
    for backend, command in rows:  # warm up both paths
        policy.check(command, backend)  # type: ignore[arg-type]

    compiled = policy._compiled  # the clause-verdict memory, switched off for the first-sight runs
    memo_limit = compiled.memo_limit
    best = {"parse": float("inf"), "repeated": float("inf"), "first sight": float("inf")}
    for _ in range(args.trials):  # alternating short trials, best of each: all see the same machine state
        t0 = time.perf_counter()
        for _ in range(args.rounds):
            for backend, source in encoded:
                parsers[backend].parse(source)
        t1 = time.perf_counter()
        for _ in range(args.rounds):
            for backend, command in rows:
                policy.check(command, backend)  # type: ignore[arg-type]
        t2 = time.perf_counter()
        compiled.memo_limit = 0
        compiled.clause_results.clear()
        t3 = time.perf_counter()
        for _ in range(args.rounds):
            for backend, command in rows:
                policy.check(command, backend)  # type: ignore[arg-type]
        t4 = time.perf_counter()
        compiled.memo_limit = memo_limit
        best["parse"] = min(best["parse"], t1 - t0)
        best["repeated"] = min(best["repeated"], t2 - t1)
        best["first sight"] = min(best["first sight"], t4 - t3)

    total = args.rounds * len(rows)  # per trial
    shape = f"{len(rows)} commands x {args.rounds} rounds = {total} checks per trial"
    print(f"corpus:            {shape}, best of {args.trials} trials")
    proven = f"{len(policy.rules)} rules, {examples} examples proven"
    print(f"policy load:       {load_seconds * 1000:.1f} ms ({proven})")
    parse = best["parse"]
    print(f"bare parsing:      {total / parse:,.0f} parses/s ({parse / total * 1e6:.1f} us each)")
    for name in ("repeated", "first sight"):
        seconds = best[name]
        rate = total / seconds
        ratio = seconds / parse
        print(
            f"check, {name + ':':13}{rate:,.0f} checks/s ({seconds / total * 1e6:.1f} us each), "
            f"{ratio:.2f}x bare parsing; targets >= 5,000/s {'met' if rate >= 5000 else 'NOT met'}, "
            f"<= 4x {'met' if ratio <= 4 else 'NOT met'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
