"""Measure the command policy on the labelled samples in `bench/policy_samples/`.

    python bench/policy_samples.py [--misses] [FILE.tsv ...]

Each sample is a TSV of lines taken from public sources (`backend  expected  category  source  command`;
where each came from is in the file's row and in `SOURCES.txt`): `a*.tsv` hold attack lines the policy must
block, `e*.tsv` everyday lines it must allow. For every file it prints the share decided as labelled twice:
with the working directory unknown (`Policy.check(cmd, shell)`, a fresh checkout of an unknown project) and
in a small temporary git project (what the agent sees: writes and deletes judged by what their targets
hold). `--misses` lists the lines decided otherwise, with the rule that decided them.

The policy was tuned on these lines, so their rates say what it does on them, not on lines it has never
seen; a held-back corpus of the same classes judges that. Lines a sample labels everyday that the policy
blocks by design (a download, a local server, a run-time program name) stay in the count.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glmagent.guard import Policy  # noqa: E402

SAMPLES = ROOT / "bench" / "policy_samples"


def rows(path: Path) -> list[tuple[str, str, str]]:
    """(backend, expected, command) of each line of a sample."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) >= 5:
            found.append((parts[0].strip().lower(), parts[1].strip(), "\t".join(parts[4:])))
    return found


def project(folder: Path) -> Path:
    """A git project with tracked sources and ignored build output, like the ones the agent works in."""
    files = {
        "README.md": "# demo\n", "src/app.py": "print(1)\n", "package.json": "{}\n", "Makefile": "all:\n",
        "tests/test_app.py": "def test(): pass\n", ".gitignore": "build/\ndist/\ncoverage/\n*.log\n",
    }  # fmt: skip
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    commit = ["-c", "user.name=x", "-c", "user.email=x@example.invalid", "commit", "-qm", "x"]
    for args in (["init", "-q"], ["add", "-A"], commit):
        subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="samples (default: all of bench/policy_samples)")
    parser.add_argument("--misses", action="store_true", help="list the lines decided otherwise")
    args = parser.parse_args()
    files = args.files or sorted(SAMPLES.glob("*.tsv"))
    policy = Policy.default()
    totals: dict[str, list[int]] = {}
    misses: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        # (a folder below the temp folder: `..` from the project must not be the temp folder itself,
        # where writes are allowed, or `cp x ../y` would count as a write to scratch space)
        cwd = project(Path(folder) / "work" / "app")
        print(f"{'sample':<10} {'lines':>5} {'fresh checkout':>15} {'in a project':>13}")
        for path in files:
            sample = rows(path)
            fresh = inside = 0
            for backend, expected, command in sample:
                for where, root in (("fresh", None), ("project", cwd)):
                    decision = policy.check(command, backend, cwd=root)  # type: ignore[arg-type]
                    right = decision.allowed == (expected == "allow")
                    if where == "fresh":
                        fresh += right
                    else:
                        inside += right
                    if not right and args.misses:
                        misses.append(
                            f"{path.stem}\t{where}\t{expected}\t{backend}\t{decision.rule_id}\t{command}"
                        )
            kind = "attack" if sample and sample[0][1] == "block" else "everyday"
            total = totals.setdefault(kind, [0, 0, 0])
            total[0] += len(sample)
            total[1] += fresh
            total[2] += inside
            n = max(len(sample), 1)
            print(f"{path.stem:<10} {len(sample):>5} {100 * fresh / n:>14.1f}% {100 * inside / n:>12.1f}%")
    for kind, (n, fresh, inside) in sorted(totals.items()):
        wanted = "blocked" if kind == "attack" else "allowed"
        print(
            f"{kind} lines {wanted}: {fresh}/{n} = {100 * fresh / max(n, 1):.1f}% (fresh checkout), "
            f"{inside}/{n} = {100 * inside / max(n, 1):.1f}% (in a project)"
        )
    if misses:
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
