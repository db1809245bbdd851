"""Hypothesis profiles: every ordinary run draws the same examples; a longer random search on demand.

The default profile is derandomized (each test's examples follow from the test itself), keeps no example
database and has no per-example deadline or speed health check: CI and every developer run exactly the same
cases, and a busy machine cannot fail a test by being slow. `GLMAGENT_HYPOTHESIS=long` selects the `long`
profile instead: random examples, `LONG_FACTOR` times as many per test (`examples`), failures saved in
`.hypothesis/` and printed with the `@reproduce_failure` blob that replays them.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILE_VARIABLE = "GLMAGENT_HYPOTHESIS"
LONG_FACTOR = 20
_QUIET_CHECKS = [HealthCheck.too_slow]  # timing-based: a loaded machine is not a bug in the strategy


def profile() -> str:
    """`long` when asked for in the environment, else `default`."""
    return "long" if os.environ.get(PROFILE_VARIABLE, "").strip().lower() == "long" else "default"


def load() -> None:
    """Register both profiles and load the one the environment asks for."""
    settings.register_profile(
        "default", derandomize=True, database=None, deadline=None, suppress_health_check=_QUIET_CHECKS
    )
    settings.register_profile(
        "long", derandomize=False, deadline=None, suppress_health_check=_QUIET_CHECKS, print_blob=True
    )
    settings.load_profile(profile())


def examples(count: int) -> int:
    """A test's example count: `count` in ordinary runs, `LONG_FACTOR` times more in a long search."""
    return count * LONG_FACTOR if profile() == "long" else count
