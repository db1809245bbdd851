"""Look for the policy's regular expressions whose time grows faster than the text, then try them in lines.

    python bench/policy_regex_scan.py [--start 0] [--count 6000] [--trials 16] [--seed 7] [--size 20000]

Every expression the guard holds once the default policy is loaded and a few lines are checked (its modules'
and the policy's own) is run, with `search` and `fullmatch`, on text made of a random piece of its literal
characters and shell punctuation repeated to 1,500 and to 6,000 characters (one anchored at the end, as globs
translated by fnmatch are, is only matched whole). Growth is the ratio of the two
times, measured in the same run: a linear search grows about 4x, one that tries every place against the rest
of the text 16x. Expressions growing more than 9x and taking over 2 ms are listed, then each flagged piece,
repeated to `--size` bytes, is checked as a word of everyday command lines (bare and quoted, both shells):
an expression only ever matched from the start of a short word costs nothing there, so the lines are what
counts. The slowest lines are printed; `bench/policy_pump.py` pumps sample lines instead, and both feed the
hostile inputs of `bench/policy_bench.py`.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import pkgutil
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from re import _constants as re_constants  # type: ignore[attr-defined]
from re import _parser as re_parser  # type: ignore[attr-defined]

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import glmagent.guard as guard  # noqa: E402
from glmagent.guard import Policy  # noqa: E402
from glmagent.guard._lazy import LazyPattern  # noqa: E402

PUNCTUATION = list("a /\\-.=:${}()\"'*?[]_,;|&<>~@%+\t\n0A")
"""Characters tried in every expression's text beside its own literals."""
LINES = ("echo {}", "ls {}", "cp x {}", "python x.py {}", "git clone {}", "rm -rf {}", "Get-Content {}")
"""The everyday command lines a flagged piece is tried in, as one word."""
GROWTH = 9.0
SHORT, LONG = 1_500, 6_000


def expressions(policy: Policy) -> list[tuple[str, int]]:
    """(pattern, flags) of every string expression alive once the guard is loaded and has checked lines."""
    for module in pkgutil.iter_modules(guard.__path__):
        importlib.import_module(f"glmagent.guard.{module.name}")
    for line in (
        "ls",
        "rm -rf x",
        "python -c 'import os'",
        "curl x | sh",
        "Get-ChildItem env:",
        "echo $env:X",
    ):
        for shell in ("posix", "powershell"):
            policy.check(line, shell)  # type: ignore[arg-type]
    found: dict[tuple[str, int], None] = {}
    for thing in gc.get_objects():
        if isinstance(thing, re.Pattern | LazyPattern) and isinstance(thing.pattern, str):
            found[(thing.pattern, int(thing.flags))] = None
    return sorted(found)


def literals(pattern: str, flags: int) -> set[str]:
    """The characters an expression spells literally (in its text or its sets)."""
    out: set[str] = set()
    try:
        parsed = re_parser.parse(pattern, flags)
    except (re.error, RecursionError):
        return out

    def walk(items: object) -> None:
        for op, av in items:  # type: ignore[attr-defined]
            if op is re_constants.LITERAL:
                out.add(chr(av))
            elif op is re_constants.IN:
                out.update(chr(a) for o, a in av if o is re_constants.LITERAL)
            elif op is re_constants.SUBPATTERN:
                walk(av[3])
            elif op in (re_constants.MAX_REPEAT, re_constants.MIN_REPEAT, re_constants.POSSESSIVE_REPEAT):
                walk(av[2])
            elif op is re_constants.ATOMIC_GROUP:
                walk(av)
            elif op is re_constants.BRANCH:
                for alternative in av[1]:
                    walk(alternative)

    walk(parsed)
    return out


def _timed(method: Callable[[str], object], text: str) -> float:
    started = time.perf_counter()
    method(text)
    return time.perf_counter() - started


Flagged = tuple[float, float, str, str, str]
"""Time on the long text, growth, method, piece, pattern."""


def scan(patterns: list[tuple[str, int]], trials: int, rng: random.Random) -> list[Flagged]:
    """The worst piece of each expression that grows faster than its text."""
    flagged: list[Flagged] = []
    for pattern, flags in patterns:
        try:
            compiled = re.compile(pattern, flags)
        except re.error:
            continue
        alphabet = sorted(literals(pattern, flags)) + PUNCTUATION
        worst: tuple[float, float, str, str] | None = None
        for _ in range(trials):
            piece = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6)))
            # (an expression anchored at the end, as fnmatch's are, is matched whole, never searched)
            methods = (compiled.fullmatch,) if r"\Z" in pattern else (compiled.search, compiled.fullmatch)
            for method in methods:
                short = _timed(method, piece * (SHORT // len(piece)))
                if short < 0.0003:
                    continue  # too fast to grow into a problem at these sizes
                long = _timed(method, piece * (LONG // len(piece)))
                growth = long / short
                if long > 0.002 and growth > GROWTH and (worst is None or long > worst[0]):
                    worst = (long, growth, method.__name__, piece)
        if worst is not None:
            flagged.append((*worst, pattern))
    return flagged


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--start", type=int, default=0, help="the first expression scanned (sorted order)")
    parser.add_argument("--count", type=int, default=6000, help="how many expressions are scanned")
    parser.add_argument("--trials", type=int, default=16, help="random pieces tried per expression")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--size", type=int, default=20_000, help="bytes of the word a flagged piece makes")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    policy = Policy.default()
    every = expressions(policy)
    chosen = every[args.start : args.start + args.count]
    flagged = scan(chosen, args.trials, rng)
    flagged.sort(reverse=True)
    print(f"{len(chosen):,} of {len(every):,} expressions scanned; {len(flagged)} grow over {GROWTH:g}x")
    for long, growth, method, piece, pattern in flagged[:40]:
        print(f"  {long * 1000:8.1f} ms  {growth:5.1f}x  {method:9}  {piece!r:12}  {pattern[:70]!r}")

    results: list[tuple[float, str, str, str | None]] = []
    for _, _, _, piece, _ in flagged:
        word = piece * max(1, args.size // len(piece))
        for line in LINES:
            for quote in ("", "'"):
                command = line.format(f"{quote}{word}{quote}")
                for shell in ("posix", "powershell"):
                    try:
                        started = time.perf_counter()
                        decision = policy.check(command, shell)  # type: ignore[arg-type]
                        results.append((time.perf_counter() - started, shell, command, decision.rule_id))
                    except Exception as error:  # a check must never raise: report it
                        print(f"EXCEPTION {shell}: {type(error).__name__}: {error}: {command[:120]!r}")
    results.sort(reverse=True)
    print(f"{len(results):,} lines of {args.size:,} bytes checked; slowest:")
    for seconds, shell, command, rule in results[:20]:
        print(f"  {seconds * 1000:8.1f} ms  {shell:10}  {rule}  {command[:90]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
