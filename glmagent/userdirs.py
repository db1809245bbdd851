"""Where glmagent keeps the user's own files, outside any project: trusted config hashes, audit anchors.

A cloned repository must not be able to write or fake these, so they live in the platform's per-user
folders, never under the working directory:

=========  ======================================================  =========================================
kind       Linux / other POSIX                                     macOS / Windows
=========  ======================================================  =========================================
config     ``$XDG_CONFIG_HOME/glmagent`` (``~/.config/glmagent``)  ``~/Library/Application Support/glmagent``
                                                                   / ``%APPDATA%\\glmagent``
state      ``$XDG_STATE_HOME/glmagent`` (``~/.local/state/...``)   ``~/Library/Application Support/glmagent``
                                                                   / ``%LOCALAPPDATA%\\glmagent``
=========  ======================================================  =========================================

``GLMAGENT_CONFIG_DIR`` and ``GLMAGENT_STATE_DIR`` override both (tests and unusual setups use them).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

APP = "glmagent"


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's glmagent configuration folder (it may not exist yet)."""
    environ = os.environ if env is None else env
    override = environ.get("GLMAGENT_CONFIG_DIR", "").strip()
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        return _windows_base(environ, "APPDATA", "Roaming") / APP
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    return _xdg(environ, "XDG_CONFIG_HOME", ".config") / APP


def state_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's glmagent state folder (it may not exist yet)."""
    environ = os.environ if env is None else env
    override = environ.get("GLMAGENT_STATE_DIR", "").strip()
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        return _windows_base(environ, "LOCALAPPDATA", "Local") / APP
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    return _xdg(environ, "XDG_STATE_HOME", ".local/state") / APP


def _xdg(environ: Mapping[str, str], variable: str, fallback: str) -> Path:
    value = environ.get(variable, "").strip()
    # The XDG spec says relative values are invalid and must be ignored.
    if value and Path(value).is_absolute():
        return Path(value)
    return Path.home() / fallback


def _windows_base(environ: Mapping[str, str], variable: str, fallback: str) -> Path:
    value = environ.get(variable, "").strip()
    return Path(value) if value else Path.home() / "AppData" / fallback
