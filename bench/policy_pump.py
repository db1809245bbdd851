"""Look for slow checks by pumping the labelled sample lines to a size.

    python bench/policy_pump.py [--size 20000] [--every 9] [--start 0] [--seed 1] [--over-ms 50]

Each chosen line of `bench/policy_samples/` has a random slice of it (1-10 characters) repeated until the line
is about `--size` bytes, and is checked in both shells, with the working directory unknown and in a small git
project. Lines whose first check takes over half of `--over-ms` are checked twice more; those whose best time
is still over `--over-ms` are printed, slowest first, with the rule that decided them. The policy promises
every line of up to 100 kB an answer within 50 ms (`bench/policy_bench.py` holds the shapes found so far);
this is how new shapes are found. Exceptions are printed too: a check must never raise.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from policy_samples import SAMPLES, project, rows  # noqa: E402

from glmagent.guard import Policy  # noqa: E402


def pumped(line: str, size: int, rng: random.Random) -> str:
    """`line` with a random slice of it repeated until the whole is about `size` characters."""
    start = rng.randrange(len(line))
    end = min(len(line), start + rng.randint(1, 10))
    piece = line[start:end]
    return line[:start] + piece * max(1, (size - len(line)) // len(piece)) + line[end:]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=20_000, help="bytes each line is pumped to")
    parser.add_argument("--every", type=int, default=9, help="check every Nth sample line")
    parser.add_argument("--start", type=int, default=0, help="the first sample line checked")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--over-ms", type=float, default=50.0, help="report checks slower than this")
    args = parser.parse_args()

    lines = [
        command for path in sorted(SAMPLES.glob("*.tsv")) for _, _, command in rows(path) if len(command) > 1
    ]
    rng = random.Random(args.seed)
    policy = Policy.default()
    slow: list[tuple[float, str, str, str | None]] = []
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        places = (None, project(Path(tmp)))
        for line in lines[args.start :: args.every]:
            command = pumped(line, args.size, rng)
            for shell in ("posix", "powershell"):
                for cwd in places:
                    checked += 1
                    try:
                        started = time.perf_counter()
                        decision = policy.check(command, shell, cwd=cwd)  # type: ignore[arg-type]
                        best = time.perf_counter() - started
                        if best * 1000 > args.over_ms / 2:
                            for _ in range(2):
                                started = time.perf_counter()
                                policy.check(command, shell, cwd=cwd)  # type: ignore[arg-type]
                                best = min(best, time.perf_counter() - started)
                    except Exception as error:  # a check must never raise: report it
                        print(f"EXCEPTION {shell}: {type(error).__name__}: {error}: {command[:120]!r}")
                        continue
                    if best * 1000 > args.over_ms:
                        slow.append((best, shell, command, decision.rule_id))
    slow.sort(reverse=True)
    pumps = len(lines[args.start :: args.every])
    print(f"{checked:,} checks of {pumps:,} lines pumped to {args.size:,} bytes; ", end="")
    print(f"{len(slow)} over {args.over_ms:g} ms")
    for best, shell, command, rule in slow[:40]:
        print(f"{best * 1000:8.1f} ms  {shell:10}  {rule}  {command[:100]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
