"""Diff-applier benchmark: correctness on the sample corpus and speed on a large file.

Part 1 applies every case of tests/corpus/diffs with glmagent, `git apply`, `git apply --recount` and GNU
`patch` (tools that are not installed are skipped), each in a fresh temp dir holding the file at path.txt,
and prints correct / refused / wrong per tool. "wrong" means the workspace ended in any state other than
the expected one (a different edit, a half-patched file, a must-reject file touched, a stray file).

Part 2 times a 200-hunk diff on a 100,000-line file: glmagent in-process (read, apply, write; interpreter
start excluded) against `git apply` on the same input, best of several runs, and prints the ratio.

Run: python bench/diff_bench.py [--verbose]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glmagent.errors import PatchRejected  # noqa: E402
from glmagent.patching import apply_patch  # noqa: E402

CORPUS = ROOT / "tests" / "corpus" / "diffs"
IGNORED_SUFFIXES = (".orig", ".rej")  # GNU patch's own leftovers are not edits of the workspace

Snapshot = dict[str, bytes]
Runner = Callable[[Path, str, Path], None]


@dataclass(frozen=True)
class Case:
    """One corpus folder."""

    name: str
    path: str
    before: bytes | None
    after: bytes | None
    delete: bool
    patch: Path

    def expected(self) -> Snapshot | None:
        """The workspace as it must end; None when the diff must be refused (workspace unchanged)."""
        if self.delete:
            return {}
        if self.after is None:
            return None
        return {self.path: self.after}

    def initial(self) -> Snapshot:
        return {} if self.before is None else {self.path: self.before}


def load_cases() -> list[Case]:
    cases = []
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        before = folder / "before"
        after = folder / "after"
        cases.append(
            Case(
                name=folder.name,
                path=(folder / "path.txt").read_text(encoding="utf-8").strip(),
                before=before.read_bytes() if before.exists() else None,
                after=after.read_bytes() if after.exists() else None,
                delete=(folder / "expect_deleted").exists(),
                patch=folder / "patch.diff",
            )
        )
    return cases


def snapshot(root: Path) -> Snapshot:
    files: Snapshot = {}
    for file in root.rglob("*"):
        if file.is_file() and not file.name.endswith(IGNORED_SUFFIXES):
            files[file.relative_to(root).as_posix()] = file.read_bytes()
    return files


# -- tools -----------------------------------------------------------------------------------------------


def run_glmagent(workdir: Path, path: str, patch: Path) -> None:
    target = workdir / path
    original = target.read_bytes() if target.exists() else None
    diff = patch.read_bytes().decode("utf-8")
    try:
        result = apply_patch(path, original, diff)
    except PatchRejected:
        return
    if result.action == "delete":
        target.unlink()
    else:
        assert result.content is not None
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_bytes(result.content)
        tmp.replace(target)


def _git_apply(*extra: str) -> Runner:
    def run(workdir: Path, path: str, patch: Path) -> None:
        subprocess.run(
            ["git", "apply", *extra, str(patch)],
            cwd=workdir,
            capture_output=True,
            check=False,
            env={**os.environ, "GIT_CEILING_DIRECTORIES": str(workdir.parent)},
        )

    return run


def run_gnu_patch(workdir: Path, path: str, patch: Path) -> None:
    # The target is named explicitly, as a tool that knows `path` would call it.
    (workdir / path).parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            "patch",
            "-p1",
            "--batch",
            "--forward",
            "--no-backup-if-mismatch",
            "--reject-file=-",
            path,
            "-i",
            str(patch),
        ],
        cwd=workdir,
        capture_output=True,
        check=False,
    )


def available_tools() -> list[tuple[str, Runner]]:
    tools: list[tuple[str, Runner]] = [("glmagent", run_glmagent)]
    if shutil.which("git"):
        tools += [("git apply", _git_apply()), ("git apply --recount", _git_apply("--recount"))]
    else:
        print("(git not found: skipping git apply)")
    if shutil.which("patch"):
        tools.append(("GNU patch", run_gnu_patch))
    else:
        print("(patch not found: skipping GNU patch)")
    return tools


def classify(case: Case, runner: Runner) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) / "ws"
        workdir.mkdir()
        patch = Path(tmp) / "patch.diff"
        shutil.copyfile(case.patch, patch)
        if case.before is not None:
            target = workdir / case.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(case.before)
        runner(workdir, case.path, patch)
        state = snapshot(workdir)
    expected = case.expected()
    if expected is None:
        return "correct" if state == case.initial() else "wrong"
    if state == expected:
        return "correct"
    if state == case.initial():
        return "refused"
    return "wrong"


def corpus_table(verbose: bool) -> None:
    cases = load_cases()
    tools = available_tools()
    print(f"Sample corpus: {len(cases)} cases ({sum(c.expected() is None for c in cases)} must be refused)\n")
    results = {name: [classify(case, runner) for case in cases] for name, runner in tools}
    width = max(len(name) for name, _ in tools)
    print(f"{'tool':<{width}}  correct  refused  wrong")
    for name, _ in tools:
        outcome = results[name]
        print(
            f"{name:<{width}}  {outcome.count('correct'):>7}  {outcome.count('refused'):>7}  "
            f"{outcome.count('wrong'):>5}"
        )
    if verbose:
        print()
        header = "case".ljust(36) + "".join(name[:12].ljust(14) for name, _ in tools)
        print(header)
        for k, case in enumerate(cases):
            print(case.name[:35].ljust(36) + "".join(results[name][k].ljust(14) for name, _ in tools))


# -- speed -----------------------------------------------------------------------------------------------

LINES = 100_000
HUNKS = 200
RUNS = 5


def big_file() -> list[str]:
    """Deterministic, mostly unique lines with some realistic repetition (blank lines, closers)."""
    lines = []
    for i in range(LINES):
        if i % 10 == 9:
            lines.append("")
        elif i % 10 == 8:
            lines.append("    }")
        else:
            lines.append(f"    value_{i} = compute({(i * 7919) % 100_003}, 'k{i % 97}')")
    return lines


def big_diff(lines: list[str], name: str) -> tuple[str, list[str]]:
    """A correct 200-hunk diff (one changed line, 3 context lines each side) and the expected result."""
    step = len(lines) // HUNKS
    out = [f"--- a/{name}", f"+++ b/{name}"]
    result = list(lines)
    for h in range(HUNKS):
        at = h * step + step // 2
        while not lines[at].startswith("    value_"):
            at += 1
        out.append(f"@@ -{at - 2},7 +{at - 2},7 @@")
        out += [" " + line for line in lines[at - 3 : at]]
        out.append("-" + lines[at])
        changed = lines[at].replace("compute(", "compute_fast(")
        out.append("+" + changed)
        result[at] = changed
        out += [" " + line for line in lines[at + 1 : at + 4]]
    return "\n".join(out) + "\n", result


def best_of(fn: Callable[[], None], reset: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(RUNS):
        reset()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def speed() -> None:
    name = "big.py"
    lines = big_file()
    original = ("\n".join(lines) + "\n").encode()
    diff, result = big_diff(lines, name)
    expected = ("\n".join(result) + "\n").encode()
    print(
        f"\nSpeed: {HUNKS}-hunk diff on a {LINES:,}-line file ({len(original) / 1e6:.1f} MB), best of {RUNS}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        target = workdir / name
        patch = workdir / "big.diff"
        patch.write_text(diff, encoding="utf-8")

        def reset() -> None:
            target.write_bytes(original)

        def glmagent() -> None:
            run_glmagent(workdir, name, patch)

        ours = best_of(glmagent, reset)
        ours_ok = target.read_bytes() == expected
        print(f"  glmagent (in-process)  {ours * 1000:8.1f} ms  {'correct' if ours_ok else 'WRONG RESULT'}")
        if not shutil.which("git"):
            print("  git not found: no ratio")
            return

        def git() -> None:
            subprocess.run(["git", "apply", str(patch)], cwd=workdir, check=True, capture_output=True)

        theirs = best_of(git, reset)
        git_ok = target.read_bytes() == expected
        print(f"  git apply              {theirs * 1000:8.1f} ms  {'correct' if git_ok else 'WRONG RESULT'}")
        print(f"  ratio glmagent / git apply = {ours / theirs:.2f}x (target: within 3x)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="show the outcome of every case")
    args = parser.parse_args()
    corpus_table(args.verbose)
    speed()


if __name__ == "__main__":
    main()
