"""Output options every subcommand takes (`-q`, `-v`/`-vv`, `--no-color`, `--log-format`), and logging.

They are accepted before or after the subcommand (`glmagent -v task ...` or `glmagent task ... -vv`).
Logs are structlog lines on stderr: warnings by default, info with `-v`, debug with `-vv`; `--log-format
json` prints one JSON object per line, and then nothing else goes to stderr: glmagent's own messages become
JSON lines too (`notice`) and progress that would be shown there is left out. Every string value in a log
line has its control characters made visible first: logs carry text from servers, commands and files too.
"""

from __future__ import annotations

import argparse
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, TextIO

#: Sub-level copies of the options are stored under these names and merged into the main ones.
_SUB = "sub_"


def add_output_options(parser: argparse.ArgumentParser, *, sub: bool) -> None:
    """Add the output options; on a subcommand's parser they must not reset what the main parser set."""
    prefix = _SUB if sub else ""
    group = parser.add_argument_group("output")
    count_default: object = 0
    flag_default: object = False
    format_default: object = "console"
    if sub:
        count_default = flag_default = format_default = argparse.SUPPRESS
    group.add_argument(
        "-v",
        "--verbose",
        dest=prefix + "verbose",
        action="count",
        default=count_default,
        help="more detail; operational logs on stderr (-vv: debug logs)",
    )
    group.add_argument(
        "-q",
        "--quiet",
        dest=prefix + "quiet",
        action="store_true",
        default=flag_default,
        help="only the result",
    )
    group.add_argument(
        "--no-color",
        dest=prefix + "no_color",
        action="store_true",
        default=flag_default,
        help="no colour (also when NO_COLOR is set; piped output never has any)",
    )
    group.add_argument(
        "--log-format",
        dest=prefix + "log_format",
        choices=("console", "json"),
        default=format_default,
        help="logs on stderr as console lines (default) or JSON lines",
    )


def merge_output_options(args: argparse.Namespace) -> None:
    """Fold `glmagent task -v` into `glmagent -v task`, and settle colour once for the whole run."""
    args.verbose = getattr(args, "verbose", 0) + getattr(args, _SUB + "verbose", 0)
    args.quiet = getattr(args, "quiet", False) or getattr(args, _SUB + "quiet", False)
    args.no_color = getattr(args, "no_color", False) or getattr(args, _SUB + "no_color", False)
    args.log_format = getattr(args, _SUB + "log_format", getattr(args, "log_format", "console"))
    for name in ("verbose", "quiet", "no_color", "log_format"):
        if hasattr(args, _SUB + name):
            delattr(args, _SUB + name)
    args.colour = not args.no_color and not os.environ.get("NO_COLOR")


def protect_streams() -> None:
    """Text the terminal cannot encode is written as escapes rather than crashing the run."""
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            with contextlib.suppress(ValueError, OSError):  # a closed or exotic stream: leave it alone
                reconfigure(errors="backslashreplace")


class ReaderGoneStdout:
    """`sys.stdout` for one run: when its reader goes away (`glmagent task … | head -c1`), the rest of the
    output is dropped and the run goes on to its end — the edit it was making, its summary and its audit
    record matter more than the screen — and `reader_gone` tells the CLI to exit 141 then.

    Every other attribute is the wrapped stream's, so rich and `print` see the stream they expect.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.reader_gone = False

    def write(self, text: str) -> int:
        if not self.reader_gone:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self._drop_the_rest()
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if not self.reader_gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._drop_the_rest()

    def _drop_the_rest(self) -> None:
        import contextlib

        self.reader_gone = True
        # The descriptor now leads nowhere: what is still buffered (flushed again at exit) is dropped
        # without another error.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sink = os.open(os.devnull, os.O_WRONLY)
            os.dup2(sink, self.stream.fileno())
            os.close(sink)
        with contextlib.suppress(OSError, ValueError):
            self.stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class _StderrLogger:
    """Writes to whatever `sys.stderr` is at call time (the live status line swaps it while it runs)."""

    def msg(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    debug = info = warning = warn = error = critical = exception = fatal = msg


#: Listeners for log events by name (the status line shows planner retries); see `listen`.
_listeners: dict[str, Callable[[dict[str, Any]], bool]] = {}


def listen(event: str, listener: Callable[[dict[str, Any]], bool] | None) -> None:
    """Call `listener` with each `event` log entry; when it returns True (it showed the event) and no `-v`
    was given, the plain log line is left out."""
    if listener is None:
        _listeners.pop(event, None)
    else:
        _listeners[event] = listener


#: The log format of this run: with "json", everything glmagent writes on stderr is a JSON line.
_format: list[str] = ["console"]


def use_log_format(log_format: str) -> None:
    """Set the log format before logging is configured (`main` reads it from the arguments first)."""
    _format[0] = log_format


def stderr_is_json() -> bool:
    """Does stderr carry JSON lines only (`--log-format json`)? Then no progress text may go there."""
    return _format[0] == "json"


def configure_logging(verbosity: int, log_format: str, *, colour: bool) -> None:
    """Configure structlog for this run — when something first imports it.

    structlog pulls in asyncio and, with rich installed, rich's traceback machinery: a cost `policy check`
    and `schema` should not pay, since nothing they run logs. Configuring at first import keeps every log
    line (whoever writes it) going through the processors below.
    """
    from glmagent._log import drop_below

    _format[0] = log_format
    drop_below(_level(verbosity))
    if "structlog" in sys.modules:
        _configure(verbosity, log_format, colour=colour)
        return
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, _ConfigureOnImport)]
    sys.meta_path.insert(0, _ConfigureOnImport(lambda: _configure(verbosity, log_format, colour=colour)))


class _ConfigureOnImport:
    """A meta path finder: runs `configure` right after `structlog` is first imported, then steps aside."""

    def __init__(self, configure: Callable[[], None]) -> None:
        self.configure = configure

    def find_spec(self, name: str, path: object = None, target: object = None) -> Any:
        if name != "structlog":
            return None
        sys.meta_path.remove(self)
        import importlib.util

        spec = importlib.util.find_spec(name)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run, configure = loader.exec_module, self.configure

        def exec_module(module: object) -> None:
            run(module)
            configure()

        loader.exec_module = exec_module
        return spec


def _level(verbosity: int) -> int:
    """The `logging` level shown at `verbosity` (the number of `-v`)."""
    return 30 if verbosity == 0 else 20 if verbosity == 1 else 10  # WARNING, INFO, DEBUG


def _configure(verbosity: int, log_format: str, *, colour: bool) -> None:
    import structlog

    from glmagent.ui import inert

    level = _level(verbosity)

    def make_inert(logger: object, name: str, event: dict[str, Any]) -> dict[str, Any]:
        return {key: inert(value) if isinstance(value, str) else value for key, value in event.items()}

    def route(logger: object, name: str, event: dict[str, Any]) -> dict[str, Any]:
        listener = _listeners.get(str(event.get("event")))
        if listener is not None and listener(event) and verbosity == 0:
            raise structlog.DropEvent
        return event

    renderer: Any
    if log_format == "json":
        renderer = structlog.processors.JSONRenderer()
        stamp = structlog.processors.TimeStamper(fmt="iso", utc=True)
    else:
        use_colour = colour and sys.stderr.isatty()
        renderer = structlog.dev.ConsoleRenderer(colors=use_colour, exception_formatter=_plain_exception)
        stamp = structlog.processors.TimeStamper(fmt="%H:%M:%S")
    structlog.configure(
        processors=[route, structlog.processors.add_log_level, stamp, make_inert, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=lambda *_: _StderrLogger(),
        cache_logger_on_first_use=False,
    )


def _plain_exception(stream: TextIO, exc_info: Any) -> None:
    import traceback

    stream.write("\n" + "".join(traceback.format_exception(*exc_info)))


def warning(message: str) -> None:
    """`glmagent: <message>` on stderr, control characters made visible."""
    notice(message)


def notice(message: str, *, level: str = "warning", multiline: bool = False) -> None:
    """A message of glmagent's own on stderr: `glmagent: <message>`, control characters made visible, or
    with `--log-format json` a JSON line like the log's (`event`, `level`, `timestamp`)."""
    from glmagent.inert import inert

    if stderr_is_json():
        import json
        from datetime import UTC, datetime

        stamp = datetime.now(UTC).isoformat().replace("+00:00", "Z")
        line = json.dumps({"event": inert(message, multiline=True), "level": level, "timestamp": stamp})
    else:
        line = f"glmagent: {inert(message, multiline=multiline)}"
    print(line, file=sys.stderr, flush=True)
