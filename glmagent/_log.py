"""glmagent's loggers: where an event goes is up to the program running glmagent; nothing prints otherwise.

The `glmagent` command configures structlog (console or JSON lines on stderr, by verbosity). A program using
glmagent as a library may have configured structlog itself: its processors and loggers then receive
glmagent's events. Otherwise they go to the standard `logging` module, under each module's name
(`glmagent.tools.executor`, ...), where the program's handlers pick them up; with none configured nothing is
shown, since the `glmagent` logger has a `NullHandler`. (structlog unconfigured would print to stdout, into
the program's own output.)
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

_LEVELS = {"debug": 10, "info": 20, "msg": 20, "warning": 30, "warn": 30, "error": 40, "exception": 40}
_floor = [0]


def drop_below(level: int) -> None:
    """Make calls under `level` (a `logging` level) return at once while structlog is not imported yet.

    Only for the `glmagent` command, which configures structlog with that level the moment it is first
    imported: until then such a call would be dropped anyway, only after importing structlog first (a
    quarter of a second with rich installed, paid by every run at the default verbosity otherwise).
    """
    _floor[0] = level


def _discard(*args: Any, **kwargs: Any) -> None:
    return None


def get_logger(name: str) -> Any:
    """The logger for module `name`; use it like `structlog.get_logger(name)`."""
    return _Logger(name)


class _Logger:
    """Chooses, at each call, between the program's structlog configuration and the `logging` module."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, method: str) -> Any:
        if _floor[0] and _LEVELS.get(method, 100) < _floor[0] and "structlog" not in sys.modules:
            return _discard
        import structlog

        if structlog.is_configured():
            return getattr(structlog.get_logger(self._name), method)
        return getattr(_standard_logger(self._name), method)


@cache
def _standard_logger(name: str) -> Any:
    import logging

    import structlog

    package = logging.getLogger("glmagent")
    if not any(isinstance(handler, logging.NullHandler) for handler in package.handlers):
        package.addHandler(logging.NullHandler())
    return structlog.wrap_logger(
        logging.getLogger(name),
        processors=[
            structlog.stdlib.filter_by_level,
            structlog.processors.KeyValueRenderer(key_order=["event"], drop_missing=True),
        ],
        wrapper_class=structlog.stdlib.BoundLogger,
    )
