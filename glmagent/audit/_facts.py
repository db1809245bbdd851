"""What a run's first record says about the software that ran it: version, policy files, schema."""

from __future__ import annotations

import platform
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from glmagent.audit._records import sha256_hex

PLANNER_SCHEMA_FILE = "planner_output.schema.json"


def file_sha256(path: Path) -> str | None:
    try:
        return sha256_hex(Path(path).read_bytes())
    except OSError:
        return None


def planner_schema_sha256() -> str | None:
    """SHA-256 of the planner output schema in force (the single source of truth for valid replies)."""
    from glmagent._resources import data_dir

    return file_sha256(data_dir("schemas") / PLANNER_SCHEMA_FILE)


def software_facts(policy_files: Iterable[Path]) -> dict[str, Any]:
    """glmagent's version, the policy files with their hashes (built-in first), and the schema's hash."""
    from glmagent import __version__

    return {
        "glmagent_version": __version__,
        "python": platform.python_version(),
        "platform": sys.platform,
        "policy_files": [{"path": str(path), "sha256": file_sha256(path)} for path in policy_files],
        "planner_schema_sha256": planner_schema_sha256(),
    }
