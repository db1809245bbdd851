"""The callbacks a parser walk reports to; implemented by the engine, apart so parsers stay engine-free."""

from __future__ import annotations

from typing import Protocol

from ._models import Dialect, EngineEvent
from ._syntax import Arg, Feed, Frame, Stdin


class Sink(Protocol):
    """What a parser tells the engine while it walks one script."""

    def command(
        self,
        argv: list[Arg],
        frame: Frame,
        stdin: Stdin | None,
        resolved_name: str | None = None,
        feeds: tuple[Feed, ...] = (),
    ) -> None:
        """A simple command in command position (`resolved_name`: a dynamic name's known literal value;
        `feeds`: commands whose output becomes its operands, e.g. `$(find .)` or a `while read` loop)."""

    def event(self, event: EngineEvent, frame: Frame, detail: str, argv: list[str] | None = None) -> None:
        """A fail-closed condition found by the parser itself."""

    def assignment(self, name: str, value: Arg, frame: Frame) -> None:
        """`NAME=value`, as a statement or as a command prefix."""

    def redirect(
        self,
        op: str,
        target: Arg,
        frame: Frame,
        empty: bool = False,
        writer: list[Arg] | None = None,
        stdin: Stdin | None = None,
        output: Feed | None = None,
    ) -> None:
        """A redirection of output or input to/from a file or descriptor; `empty`: the statement redirected
        writes nothing (`> f`, `: > f`, `$null > f`), so an output redirection only empties the file;
        `writer`: the simple command whose output it writes, when the statement is one (`echo x > f`), and
        `stdin` that command's input (a here-document); `output`: for a statement other than one command
        (`a | b > f`, `{ a; } > f`), its last simple command, with what feeds it."""

    def variable(self, name: str, frame: Frame, raw: str, program: str | None = None) -> None:
        """A variable read (`$NAME`, `${!prefix*}` as `!prefix*`, `$env:NAME` as `env:NAME`); `program`: the
        simple command given the value as one of its argument words, when it is known."""

    def dotnet(
        self, type_name: str, member: str | None, frame: Frame, raw: str, called: bool = False
    ) -> None:
        """A .NET type used from PowerShell, with the static member accessed on it, if any; `called`: the
        member is invoked (`$shell.Run(...)`), not only read (`$config.Run.Path`)."""

    def make_variable(self, name: str, frame: Frame) -> None:
        """`$(NAME)`, make's variable for a program (`$(PYTHON)`): what running NAME alone would do."""

    def script(self, text: str, dialect: Dialect, frame: Frame) -> None:
        """Check `text` as a whole script (already nested in `frame`)."""

    def in_place_edit(self, target: Arg, frame: Frame) -> None:
        """A pipeline rewrites `target` from its own content read whole first (`(gc f) -replace … | sc f`)."""

    def loop_copy(self, copy: int, nodes: int = 0) -> None:
        """The walk is about to read a loop's body (of `nodes` syntax nodes) again for its next word (`copy`
        0, 1, …; -1 once the loop is done): each later copy costs its nodes again, and what it writes again
        is what an earlier copy wrote, not a file's content."""

    def folder(self, path: str, frame: Frame) -> bool:
        """Whether `path` is a folder of the known working directory (as the line's `cd`s leave it), reached
        through no link; False when that is not known."""
        return False

    def static_output(self, argv: list[Arg], stdin: Stdin | None, dialect: Dialect) -> str | None:
        """What this command prints, if it can be known without running it (`echo`, `printf`, `base64 -d`)."""
