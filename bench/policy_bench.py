"""Benchmark the command policy: checks per second, and the cost relative to bare tree-sitter parsing.

    python bench/policy_bench.py [--rounds N] [--corpus tests/corpus/policy.tsv]

Loads the built-in policy once (timed, including the self-check of every rule example), then checks every
corpus command N times and parses the same commands N times with the same tree-sitter parsers, in the same
run. `Policy.check` keeps no result cache, so every check does the full work.
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
    parser.add_argument("--rounds", type=int, default=200)
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

    best_parse = best_check = float("inf")
    for _ in range(3):  # best of three, interleaved, so both see the same machine state
        t0 = time.perf_counter()
        for _ in range(args.rounds):
            for backend, source in encoded:
                parsers[backend].parse(source)
        t1 = time.perf_counter()
        for _ in range(args.rounds):
            for backend, command in rows:
                policy.check(command, backend)  # type: ignore[arg-type]
        t2 = time.perf_counter()
        best_parse = min(best_parse, t1 - t0)
        best_check = min(best_check, t2 - t1)

    total = args.rounds * len(rows)
    checks_per_second = total / best_check
    parses_per_second = total / best_parse
    ratio = best_check / best_parse
    print(f"corpus:            {len(rows)} commands x {args.rounds} rounds = {total} checks")
    proven = f"{len(policy.rules)} rules, {examples} examples proven"
    print(f"policy load:       {load_seconds * 1000:.1f} ms ({proven})")
    print(f"bare parsing:      {parses_per_second:,.0f} parses/s ({best_parse / total * 1e6:.1f} us each)")
    print(f"policy check:      {checks_per_second:,.0f} checks/s ({best_check / total * 1e6:.1f} us each)")
    print(f"check / parse:     {ratio:.2f}x")
    print(f"target >= 5,000 checks/s: {'met' if checks_per_second >= 5000 else 'NOT met'}")
    print(f"target <= 4x bare parsing: {'met' if ratio <= 4 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
