"""Locate the data folders (`policy/`, `schemas/`) in a checkout or an installed wheel.

In a source checkout (editable install) they sit at the repository top level; a wheel carries them
under `glmagent/_data/` (see `force-include` in pyproject.toml).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

_PACKAGE_DIR = Path(__file__).resolve().parent

DataFolder = Literal["policy", "schemas"]


@cache
def data_dir(folder: DataFolder) -> Path:
    """Return the directory holding the bundled `policy/` or `schemas/` files."""
    for candidate in (_PACKAGE_DIR / "_data" / folder, _PACKAGE_DIR.parent / folder):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"glmagent data folder {folder!r} is missing from the installation")
