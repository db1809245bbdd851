"""The user's own folders: overridable, XDG-aware, never relative."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from glmagent.userdirs import config_dir, state_dir


def test_overrides_win() -> None:
    env = {"GLMAGENT_CONFIG_DIR": "/x/cfg", "GLMAGENT_STATE_DIR": "/x/state", "XDG_CONFIG_HOME": "/y"}
    assert config_dir(env) == Path("/x/cfg")
    assert state_dir(env) == Path("/x/state")


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG layout")
def test_xdg_layout_and_relative_values_ignored() -> None:
    assert config_dir({"XDG_CONFIG_HOME": "/home/u/.cfg"}) == Path("/home/u/.cfg/glmagent")
    assert state_dir({"XDG_STATE_HOME": "/home/u/.st"}) == Path("/home/u/.st/glmagent")
    assert config_dir({"XDG_CONFIG_HOME": "relative"}) == Path.home() / ".config" / "glmagent"
    assert state_dir({}) == Path.home() / ".local" / "state" / "glmagent"
