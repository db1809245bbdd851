"""`TaskScreen`: the header, the live progress and the summary of one `task` or `demo` run."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import TextIO

from rich.text import Text

from glmagent.loop import LoopObserver, SilentObserver, TaskResult
from glmagent.ui._console import inert_text, make_console, print_rows
from glmagent.ui._events import LoggingObserver, Observers
from glmagent.ui._progress import TaskProgress
from glmagent.ui._summary import print_one_line, print_summary


class TaskScreen:
    """Everything `task` and `demo` print, on one stream (stdout, or stderr when stdout carries JSON)."""

    def __init__(
        self,
        stream: TextIO,
        *,
        colour: bool,
        planner_label: str,
        quiet: bool = False,
        verbose: int = 0,
        silent: bool = False,
    ) -> None:
        self.console = make_console(stream, colour=colour)
        self.quiet = quiet or silent
        self.silent = silent
        """Nothing at all, not even the one-line result (the stream carries JSON log lines)."""
        self.verbose = verbose
        self.progress = TaskProgress(self.console, planner_label=planner_label, verbose=verbose)

    @property
    def observer(self) -> LoopObserver:
        """The progress on screen (nothing with `-q`), plus debug log lines with `-vv`."""
        shown: LoopObserver = SilentObserver() if self.quiet else self.progress
        return Observers(shown, LoggingObserver()) if self.verbose >= 2 else shown

    def header(self, title: str, subject: str, rows: list[tuple[str, str]]) -> None:
        """The first lines: what runs where, with which planner, tests and containment."""
        if self.quiet:
            return
        line = Text(f"{title} · ", style="heading")
        line.append_text(inert_text(subject))
        self.console.print(line)
        print_rows(self.console, [(name, inert_text(value)) for name, value in rows], indent=2, width=8)

    def running(self) -> AbstractContextManager[object]:
        """The span of the run: the live status line is drawn inside it."""
        return nullcontext() if self.quiet else self.progress

    def stop_requested(self, message: str) -> None:
        self.progress.stop_requested(message)

    def planner_retry(self, message: str) -> None:
        if not self.quiet:
            self.progress.planner_retry(message)

    def summary(self, result: TaskResult) -> None:
        if self.silent:
            return
        if self.quiet:
            print_one_line(self.console, result)
        else:
            print_summary(self.console, result, self.progress.facts)
