"""glmagent's loggers: where an event goes is up to the program running glmagent; nothing prints otherwise.

The `glmagent` command configures structlog (console or JSON lines on stderr, by verbosity). A program using
glmagent as a library may have configured structlog itself: its processors and loggers then receive
glmagent's events. Otherwise they go to the standard `logging` module, under each module's name
(`glmagent.tools.executor`, ...), where the program's handlers pick them up; with none configured nothing is
shown, since the `glmagent` logger has a `NullHandler`. (structlog unconfigured would print to stdout, into
the program's own output.)
"""

from __future__ import annotations

from functools import cache
from typing import Any


def get_logger(name: str) -> Any:
    """The logger for module `name`; use it like `structlog.get_logger(name)`."""
    return _Logger(name)


class _Logger:
    """Chooses, at each call, between the program's structlog configuration and the `logging` module."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, method: str) -> Any:
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
