"""Start-up stays light: `glmagent --help` and `glmagent policy check` import only what they use.

Timings live in bench/startup_bench.py (ratios against a bare interpreter measured in the same run); these
tests check the cause instead — which modules a command imports — which does not depend on a noisy machine.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from glmagent.cli import COMMANDS, _subparsers, build_parser

_PROBE = """
import sys
sys.argv[0] = "glmagent"
from glmagent.cli import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print("\\nMODULES " + " ".join(sorted(sys.modules)), file=sys.stderr)
"""


def imported_by(*args: str, cwd: Path | None = None) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=120, cwd=cwd
    )
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES "))
    return set(line.removeprefix("MODULES ").split())


HEAVY = (
    "pydantic",
    "rich",
    "structlog",
    "httpx",
    "jsonschema",
    "tree_sitter",
    "asyncio",
    "typing",
    "pathlib",
    "json.decoder",
    "datetime",
)


def test_help_imports_nothing_heavy() -> None:
    modules = imported_by("--help")
    assert [m for m in modules if m.split(".")[0] in HEAVY or m in HEAVY] == []
    other_commands = {m for m in modules if m.startswith("glmagent.cli._")} - {
        "glmagent.cli._exit",
        "glmagent.cli._output",
    }
    assert other_commands == set(), "no subcommand module is imported to list the subcommands"


def test_policy_check_imports_no_logging_terminal_or_network_stack() -> None:
    modules = imported_by("policy", "check", "ls -la")
    assert "glmagent.guard" in modules
    unused = ("rich", "structlog", "httpx", "asyncio", "jsonschema", "glmagent.loop", "glmagent.planners")
    assert [m for m in modules if m.split(".")[0] in unused or m.startswith(unused)] == []


def test_a_command_run_builds_only_its_own_parser() -> None:
    parser = build_parser(["policy", "check", "ls"])
    built = {p.prog for p in _subparsers(parser) if p._actions and len(p._actions) > 1}
    assert "glmagent policy check" in built and "glmagent task" not in built


def test_the_command_table_matches_what_each_module_registers() -> None:
    full = build_parser()
    (commands,) = [a for a in full._actions if a.__class__.__name__ == "_SubParsersAction"]
    registered = {action.dest: action.help for action in commands._choices_actions}
    assert registered == {name: help for name, (_, help) in COMMANDS.items()}


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["-v", "task", "--help"], "glmagent task"),
        (["--log-format", "json", "policy", "rules", "-h"], "glmagent policy rules"),
    ],
)
def test_main_options_before_the_command_still_find_it(argv: list[str], usage: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "glmagent", *argv], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.startswith(f"usage: {usage} ")


@pytest.mark.own_policy_cache  # the first run below must build the cache itself
def test_policy_check_with_a_warm_cache_builds_no_models_and_parses_no_toml(tmp_path: Path) -> None:
    """The checked path of a guard people call from hooks: no pydantic (nor the `dataclasses`/`inspect` pair
    it would need instead), no TOML parser, no temp-file or resource machinery."""
    (tmp_path / ".hazina").mkdir()
    (tmp_path / ".hazina" / "config.toml").write_text("# policy_files = ['x.toml'] (a comment only)\n")
    first = imported_by("policy", "check", "ls -la", cwd=tmp_path)  # builds the cache
    assert "pydantic" in first, "the first run compiles the policy (so this test sees a warm second run)"
    modules = imported_by("policy", "check", "ls -la", cwd=tmp_path)
    unused = ("pydantic", "dataclasses", "inspect", "tomllib", "tempfile", "importlib.resources", "json")
    assert "glmagent.guard" in modules
    assert [m for m in modules if m in unused or m.startswith(tuple(u + "." for u in unused))] == []


_COMPILES = """
import re._compiler, sys
from pathlib import Path
guard = str(Path(sys.argv[1]).resolve())
compile, own = re._compiler.compile, []
def counting(pattern, flags=0):
    caller = sys._getframe(1)
    while caller is not None and caller.f_code.co_filename.startswith(str(Path(re.__file__).parent)):
        caller = caller.f_back
    if caller is not None and caller.f_code.co_filename.startswith(guard):
        own.append(pattern)
    return compile(pattern, flags)
re._compiler.compile = counting
import glmagent.guard
print(len(own))
"""


def test_importing_the_guard_compiles_none_of_its_regular_expressions() -> None:
    """The guard holds over a hundred expressions; one check needs a handful, compiled on first use."""
    import glmagent.guard

    folder = Path(glmagent.guard.__file__).parent
    done = subprocess.run(
        [sys.executable, "-c", _COMPILES, str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == "0"
