"""`glmagent demo`: in-process, and from a non-editable wheel install run in an unrelated directory."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from glmagent.cli import main
from glmagent.demo import REPLAY_FILE
from glmagent.planners.scripted import ScriptedPlanner

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


def test_demo_runs_the_real_loop_and_fixes_the_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "demo"
    assert main(["demo", "--dir", str(target)]) == 0
    out = capsys.readouterr().out
    assert "SUCCESS · tests_passed" in out and "memory" in out and "failing → passing" in out
    assert "modified wordstats.py +10 −3" in out
    memory = (target / ".hazina" / "agent-memory" / "demo.txt").read_text()
    assert memory.startswith("# run ") and "\n# task: wordstats crashes when given None" in memory
    assert "\n\nIteration 1:\n- Baseline: pytest failed: 1 failed in tests/test_wordstats.py::" in memory
    assert "Iteration 2:\n- Modified wordstats.py (+10 -3)\n- pytest passed\n" in memory


def test_recorded_replies_are_what_the_demo_claims() -> None:
    replies = ScriptedPlanner.from_replay_file(REPLAY_FILE)
    assert replies.remaining == 2


@pytest.mark.slow
def test_demo_from_a_non_editable_wheel_in_an_unrelated_directory(tmp_path: Path) -> None:
    """Build the wheel, install it without the source tree, and run `glmagent demo` from elsewhere."""
    wheel_dir = tmp_path / "wheels"
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(wheel_dir),
            str(REPO_ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if build.returncode != 0 and "No module named 'hatchling'" in build.stderr:
        pytest.skip("hatchling is not installed in this environment")
    assert build.returncode == 0, build.stderr
    wheel = next(wheel_dir.glob("glmagent-*.whl"))

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr
    # Dependencies come from this environment (no network); glmagent itself only from the wheel.
    (Path(site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    where = subprocess.run(
        [str(python), "-c", "import glmagent.demo as d; print(d.__file__)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(venv) in where and str(REPO_ROOT) not in where
    done = subprocess.run(
        [str(venv / "bin" / "glmagent"), "demo"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout
    shutil.rmtree(venv)
