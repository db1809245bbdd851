"""A small reader for `cmd.exe` command lines (there is no tree-sitter grammar for batch).

It splits on `&`, `&&`, `||`, `|` and parentheses, honours `^` escapes and double quotes, separates
redirections, and peels `@`, `call`, `start`, `if ... CMD` and `for ... do CMD` so the real command is seen.
"""

from __future__ import annotations

import re

from ._lazy import lazy_re
from ._paths import install_folder_variable
from ._shape import many, record
from ._syntax import DYN, Arg
from ._unwrap import windows_split

# `%NAME%`, `!NAME!`, and their substring and substitution forms `%NAME:~0,5%`, `%NAME:a=b%`.
_VARIABLE = lazy_re(r"%([A-Za-z_][^%\s=:]*)(?::[^%]*)?%|!([A-Za-z_][^!\s=:]*)(?::[^!]*)?!")
_IF_TESTS = frozenset({"exist", "defined", "errorlevel", "cmdextversion"})
_IF_OPS = frozenset({"==", "equ", "neq", "lss", "leq", "gtr", "geq"})
_START_VALUED = frozenset({"/d", "/node", "/affinity"})
# `for [/d | /r [dir] | /l | /f ["options"]] %i in (...)`: the loop variable's letter.
_FOR_LOOP = lazy_re(r"""(?i)\bfor(?:\s+/[dlrf](?:\s+"[^"]*"|\s+[^\s%"/]+)?)*\s+%%?([A-Za-z])\s+in\b""")


@record()
class CmdCommand:
    argv: list[Arg]
    redirects: list[tuple[str, Arg]] = many()
    piped: bool = False
    """Its stdin is the previous command's stdout."""


@record()
class CmdScript:
    commands: list[CmdCommand]
    variables: list[str]
    program_readings: list[list[Arg]] = many()
    """Commands as a program's C runtime splits them, where that differs from cmd's reading (`\\"`
    escapes a quote for the program, not for cmd): both readings are checked."""


def _word(text: str, quoted: bool) -> Arg:
    value = text
    if _VARIABLE.search(text):
        value = _VARIABLE.sub(DYN, text)
    return Arg(value, f'"{text}"' if quoted else text)


_SPECIAL = lazy_re(r'[\^"&|()<>\r\n]')
_WORDS = lazy_re(r"[^ \t]+")


# `set NAME=…` (also `set "NAME=…"`): the value runs to the next command separator.
_SET = lazy_re(r'(?i)\bset\s+"?([A-Za-z_][^\s=%"&|]*)=([^&|\r\n]*)')


# cmd's `path a;b;%PATH%`: the same as `set PATH=a;b;%PATH%`.
_PATH_COMMAND = lazy_re(r"(?i)(?:^|[&|(])\s*@?path\s+(?!/)([^&|\r\n]*)")


def _extended(line: str) -> list[tuple[int, int, str]]:
    """Where `line` sets a variable from its own value (`set PATH=C:\\tools;%PATH%`, `path x;%PATH%`): the
    value's (start, end) and the variable's case-folded name."""
    lowered = line.lower()
    extending = (
        [(m.start(2), m.end(2), m.group(1).casefold()) for m in _SET.finditer(line)]
        if "set" in lowered
        else []
    )
    if "path" in lowered:
        extending += [(m.start(1), m.end(1), "path") for m in _PATH_COMMAND.finditer(line)]
    return extending


def _read_variables(line: str, delayed: bool = True) -> list[str]:
    """The variables `line` reads, leaving out a variable's own value handed back to it (`set
    PATH=C:\\tools;%PATH%`): that read prints nothing and passes the value nowhere else. Without `delayed`,
    only those read as `%NAME%` (a `!NAME!` is expanded only where delayed expansion is on)."""
    extending = _extended(line)
    found = []
    for m in _VARIABLE.finditer(line):
        name = m.group(1) or (m.group(2) if delayed else None)
        if name is None:
            continue
        if (
            line[m.end() : m.end() + 1] in ("\\", "/")
            and install_folder_variable(name, line[m.end() :])
            and _runs_here(line, m)
        ):
            continue  # `"%ProgramFiles(x86)%\…\vswhere.exe" -latest`: the program is judged by its name
        if not any(start <= m.start() < end and name.casefold() == own for start, end, own in extending):
            found.append(name)
    return found


_COMMAND_START = lazy_re(r"(?i)(?:^|[(&|`']|\b(?:call|do))[\s\"@]*$")
"""What may come before the program of a command: the line's start, a group, a chain or pipe, `for /f`'s
quoted command, `call`, a loop's `do`."""


_SEARCH_PATH_SET = lazy_re(
    r'(?i)\s*@?set\s+"?(?:path|lib|libpath|include|psmodulepath|classpath|pythonpath)='
)
"""cmd's assignment of a search path (`set PATH=%ProgramFiles%\\CMake\\bin;%PATH%`)."""


_SET_START = lazy_re(r'(?i)(?:^|[(&|])\s*@?set\s+"?[A-Za-z_][\w.-]*="?$')
"""cmd's `set NAME=` just before a value, the whole of which is a path."""


def _runs_here(line: str, found: re.Match[str]) -> bool:
    """Does the variable `found` start the path of the program a command of `line` runs, an entry of a search
    path it sets (which the search-path rules judge), or a path it sets a variable to?"""
    if _SEARCH_PATH_SET.match(line) is not None and line[found.start() - 1 : found.start()] in ("=", ";"):
        return True
    if _SET_START.search(line, 0, found.start()) is not None:
        return True  # `set MSBUILD="%ProgramFiles(x86)%\…\MSBuild.exe"`: a program's path, named for later
    return _COMMAND_START.search(line, 0, found.start()) is not None


def read_variables(line: str) -> list[str]:
    """The variables a batch file's `line` reads as `%NAME%` (see `_read_variables`)."""
    return _read_variables(line, delayed=False)


_SINGLE_QUOTED = lazy_re(r"'[^'\r\n]*'")
_FIRST_WORD = lazy_re(r"\s*@?[^\s]*")


def values_read(line: str) -> list[str]:
    """The variables whose values a batch file's `line`, which PowerShell reads as well, hands on as they
    are (`echo %NPM_TOKEN%`, `signtool sign /p %SIGN_PASSWORD% x.exe`): not the program's own word
    (`%COMSPEC% /c x`, judged as the program it names), a folder a path starts in (`%TEMP%\\x`, judged
    where it leads), or text in PowerShell's single quotes (`git commit -m 'see %PATH%'`: to PowerShell,
    where such a line is typed, quoted text)."""
    start = _FIRST_WORD.match(line)
    skip = [(0, start.end() if start else 0)] + [(m.start(), m.end()) for m in _SINGLE_QUOTED.finditer(line)]
    extending = _extended(line)
    found = []
    for m in _VARIABLE.finditer(line):
        name = m.group(1)
        if name is None or line[m.end() : m.end() + 1] in ("\\", "/"):
            continue
        if any(a <= m.start() < b for a, b in skip):
            continue
        if not any(a <= m.start() < b and name.casefold() == own for a, b, own in extending):
            found.append(name)
    return found


_GROUP_WORDS = lazy_re(r"[\s()]+")


def _assigns(words: list[Arg], buf: list[str]) -> bool:
    """Is the command read so far cmd's `set NAME=…` past its `=` (`@set`, `set "NAME=…` too)?"""
    if not words or words[0].text.lstrip("@").lower() != "set":
        return False
    return "=" in words[1].text if len(words) > 1 else "=" in "".join(buf)


def parse_cmd(line: str) -> CmdScript:
    """Split a cmd.exe line into commands; never raises (cmd itself tolerates almost anything)."""
    variables = _read_variables(line)
    if _SPECIAL.search(line) is None:
        # No quotes, escapes, operators or redirections: one command of blank-separated words.
        words = [_word(w, False) for w in _WORDS.findall(line)]
        return CmdScript([CmdCommand(_peel(words))] if words else [], variables)
    commands: list[CmdCommand] = []
    words: list[Arg] = []
    redirects: list[tuple[str, Arg]] = []
    buf: list[str] = []
    quoted = False
    in_quote = False
    started = False
    piped = False
    pending_redirect: str | None = None
    listed_at: int | None = None
    depth = 0
    opened: list[int] = []
    grouped: list[list[Arg]] = []

    def end_word() -> None:
        nonlocal buf, quoted, started, pending_redirect
        if started:
            arg = _word("".join(buf), quoted)
            if pending_redirect is not None:
                redirects.append((pending_redirect, arg))
                pending_redirect = None
            else:
                words.append(arg)
        buf, quoted, started = [], False, False

    def end_command(next_piped: bool) -> None:
        nonlocal words, redirects, piped
        end_word()
        if words or redirects:
            commands.append(CmdCommand(_peel(words), redirects, piped))
        words, redirects, piped = [], [], next_piped

    i = 0
    n = len(line)
    while i < n:
        ch = line[i]
        if in_quote:
            if ch == '"':
                in_quote = False
            else:
                buf.append(ch)
            i += 1
            continue
        if ch == "^" and i + 1 < n:
            buf.append(line[i + 1])
            started = True
            i += 2
            continue
        if ch == '"':
            if buf[-2:] == ["=", "="]:
                # `if "%1"=="" cmd`: a quoted right-hand side, empty or not, belongs to the comparison's word
                # (cmd compares with the quotes), so the command is what follows it
                buf.append('"')
            in_quote = quoted = started = True
        elif ch in " \t":
            end_word()
        elif ch in "\r\n":
            end_command(False)
        elif ch == "&" or ch == "|":
            double = i + 1 < n and line[i + 1] == ch
            end_command(ch == "|" and not double)
            i += 2 if double else 1
            continue
        elif ch in "()" and not depth and _assigns(words, buf):
            # outside a block cmd reads `set NAME=…`'s parentheses as part of the value (`set
            # lib=%ProgramFiles%\\DirectX SDK (June 2010)\\Lib;%lib%`); PowerShell, which reads such a line
            # too, runs what they hold (`set X=a(rm -r x)`): that is judged as well
            if ch == "(":
                opened.append(i)
            elif opened:
                inside = line[opened.pop() + 1 : i]
                grouped.append(_peel([_word(w, False) for w in _GROUP_WORDS.split(inside) if w]))
            buf.append(ch)
            started = True
        elif ch == "(":
            depth += 1
            end_word()
            heads = [w.text.lower() for w in words]
            at = len(heads) - 1 - heads[::-1].index("for") if "for" in heads else -1
            # a loop's list (`for %%i in ("%NAME%.zip") do …`) names values, it runs nothing; `for /f`'s may
            # be a command or a file to read
            loop_list = at >= 0 and heads[-1] == "in" and "/f" not in heads[at:]
            end_command(False)
            listed_at = len(commands) if loop_list else None
        elif ch == ")":
            depth = max(0, depth - 1)
            end_command(False)
            if listed_at is not None and len(commands) == listed_at + 1 and not commands[-1].redirects:
                commands.pop()
            listed_at = None
        elif ch in "<>":
            fd = ""
            if started and "".join(buf) in ("0", "1", "2", "3"):
                fd = "".join(buf)
                buf, started = [], False
            end_word()
            op = ch
            if ch == ">" and i + 1 < n and line[i + 1] == ">":
                op, i = ">>", i + 1
            if i + 1 < n and line[i + 1] == "&":
                op, i = op + "&", i + 1
            pending_redirect = fd + op
        else:
            buf.append(ch)
            started = True
        i += 1
    end_command(False)
    loops = {m.group(1) for m in _FOR_LOOP.finditer(line)} if "%" in line else set()
    if loops:
        _named_loop_values(line, commands)
        _loop_values(commands, loops)
    readings = _program_readings(line, commands) if '\\"' in line else []
    return CmdScript(commands, variables, readings + [g for g in grouped if g])


_FOR_NAMES = lazy_re(
    r"""(?i)\bfor\s+(?P<opts>(?:/[dr](?:\s+(?![%/])[^\s%"/()]+)?\s+)*)%%?(?P<var>[A-Za-z])\s+in\s*"""
    r"""\((?P<set>[^()'`"]*)\)\s*do\b"""
)
"""A `for` loop over a list of names (`for /d /r . %%d in (bin,obj) do …`), with its options."""
_FOR_DIR = lazy_re(
    r"""(?i)\bfor\s+/f(?:\s+"[^"]*")?\s+%%?(?P<var>[A-Za-z])\s+in\s*\(\s*'dir\s+(?P<args>[^'|&<>]*)'\s*\)\s*do\b"""
)
"""A `for /f` loop over what `dir` lists (`for /f "tokens=*" %%g in ('dir /b /ad /s bin') do …`)."""
_PLAIN_NAME = lazy_re(r"[\w.-]+")
LOOP_NAMES = 16
"""Names of one loop's list followed one by one; a longer list leaves its variable a run-time word."""


def _named_loop_values(line: str, commands: list[CmdCommand]) -> None:
    """A loop over a list of plain names holds each of them in turn: its commands are read once per name,
    the variable filled in (`for %%d in (bin,obj) do rd /s /q %%d` deletes `bin` and `obj`). With `/r
    ROOT`, each name is found in every folder below ROOT, written as the glob that names them
    (`ROOT\\**\\bin`, judged as `find ROOT -name bin` would be); `/d /r` over `*` is every such folder;
    a `for /f` over `dir /s /b NAME` is every NAME below the working directory. Anything else (a wildcard,
    a file's lines, a command's output) stays known only at run time."""
    for m in _FOR_NAMES.finditer(line):
        options = m.group("opts").split()
        recursive = any(o.lower() == "/r" for o in options)
        folders = any(o.lower() == "/d" for o in options)
        root = next((o for o in options if o[:1] != "/"), ".")
        names = [n.strip() for n in re.split(r"[,;\s]+", m.group("set")) if n.strip()]
        if not names or len(names) > LOOP_NAMES:
            continue
        if names == ["*"] and folders:
            values = [f"{root}\\**" if recursive else "*"]
        elif all(_PLAIN_NAME.fullmatch(n) for n in names):
            values = [f"{root}\\**\\{n}" if recursive else n for n in names]
        else:
            continue
        # the list itself, which the reading above split off as a command of its own, runs nothing
        listed = next((c for c in commands if [a.text for a in c.argv] == names and not c.redirects), None)
        if listed is not None:
            commands.remove(listed)
        _fill_loop(commands, m.group("var"), values)
    for m in _FOR_DIR.finditer(line):
        words = m.group("args").split()
        switches = {w.lower() for w in words if w[:1] == "/"}
        names = [w.strip('"') for w in words if w[:1] != "/"]
        if "/s" in switches and "/b" in switches and len(names) == 1 and _PLAIN_NAME.fullmatch(names[0]):
            _fill_loop(commands, m.group("var"), [f".\\**\\{names[0]}"])


def _fill_loop(commands: list[CmdCommand], letter: str, values: list[str]) -> None:
    """Each command naming the loop variable `letter` plainly (`%%d`, `%d`; not `%%~nxd`), once per value."""
    uses = re.compile(r"%%?" + letter + r"(?![A-Za-z0-9_])")

    def filled(a: Arg, value: str) -> Arg:
        if "%" not in a.text:
            return a
        return Arg(uses.sub(lambda _: value, a.text), uses.sub(lambda _: value, a.raw))

    out: list[CmdCommand] = []
    for command in commands:
        if not any(uses.search(a.text) for a in command.argv) and not any(
            uses.search(a.text) for _, a in command.redirects
        ):
            out.append(command)
            continue
        for value in values:
            out.append(
                CmdCommand(
                    [filled(a, value) for a in command.argv],
                    [(op, filled(a, value)) for op, a in command.redirects],
                    command.piped,
                )
            )
    commands[:] = out


def _loop_values(commands: list[CmdCommand], letters: set[str]) -> None:
    """A `for` loop variable (`%i`, `%%i`, `%~nxi`) holds what the loop reads: a file name, a token of a
    command's output (`for /f %i in ('echo rd') do %i /s /q x`), only known at run time."""
    used = re.compile(r"%%?(?:~[A-Za-z$:]*?)?[" + "".join(sorted(letters)) + "]")

    def value(a: Arg) -> Arg:
        return Arg(used.sub(DYN, a.text), a.raw) if "%" in a.text else a

    for command in commands:
        command.argv = [value(a) for a in command.argv]
        command.redirects = [(op, value(a)) for op, a in command.redirects]


_OPERATOR = lazy_re(r"&&?|\|\|?|[\r\n]")


def _program_readings(line: str, commands: list[CmdCommand]) -> list[list[Arg]]:
    """Each `&`/`|`-separated part holding `\\"` as its program reads it (cmd drops `^` outside quotes)."""
    seen = {tuple(a.text for a in c.argv) for c in commands}
    readings: list[list[Arg]] = []
    part: list[str] = []
    in_quote = False
    i, n = 0, len(line)
    while i <= n:
        ch = line[i] if i < n else "\n"
        if ch == '"':
            in_quote = not in_quote
            part.append(ch)
        elif ch == "^" and not in_quote and i + 1 < n:
            part.append(line[i + 1])
            i += 1
        elif not in_quote and _OPERATOR.match(ch):
            text = "".join(part)
            if '\\"' in text:
                argv = _peel([_word(a.text, False) for a in windows_split(text)], split=False)
                if argv and tuple(a.text for a in argv) not in seen:
                    readings.append(argv)
            part = []
        else:
            part.append(ch)
        i += 1
    return readings


def _unmarked(raw: str, mark: str, end: bool = False) -> str:
    """A word as written without the quote of `for /f`'s command that opens (or, at the `end`, closes) it
    (`` `"%ProgramFiles%\\x.exe" `` is `"%ProgramFiles%\\x.exe"`), where that quote is its first (last)
    character but for cmd's double quotes."""
    at = raw.rfind(mark) if end else raw.find(mark)
    if at < 0 or (raw[at + 1 :] if end else raw[:at]).strip('"'):
        return raw  # (no such quote, or one inside the word)
    return raw[:at] + raw[at + 1 :]


def _peel(words: list[Arg], split: bool = True) -> list[Arg]:
    """Drop `@`, `call`, `start [title] [/opts]`, and the condition of `if` / the header of `for ... do`."""
    while words:
        first, last = words[0].text[:1], words[-1].text[-1:]
        if first in ("'", "`") and last == first and (len(words) > 1 or len(words[0].text) > 1):
            # `for /f %i in ('curl x') do ...` runs the quoted command (backquoted with usebackq).
            if len(words) == 1:
                words = [Arg(words[0].text[1:-1], _unmarked(_unmarked(words[0].raw, first), last, True))]
            else:
                words = [
                    Arg(words[0].text[1:], _unmarked(words[0].raw, first)),
                    *words[1:-1],
                    Arg(words[-1].text[:-1], _unmarked(words[-1].raw, last, True)),
                ]
            words = [w for w in words if w.text]
            continue
        head = words[0].text.lstrip("@").lower()
        if not head:
            words = words[1:]
            continue
        if head in ("call", "do", "else"):
            words = words[1:]
            if head == "call" and words and words[0].text[:1] == ":" and len(words) > 1:
                # `call :run netsh advfirewall …`: a batch file's subroutine handed a command line, which
                # such helpers run (`:run` ends `%*`); the label itself runs nothing
                words = words[1:]
        elif head == "start":
            started = words[0]
            words = words[1:]
            if words and words[0].raw.startswith('"'):
                words = words[1:]  # window title
            while words and words[0].text.startswith("/"):
                words = words[2:] if words[0].text.lower() in _START_VALUED else words[1:]
            if words and _ADDRESS.match(words[0].text):
                # `start https://x`: the address opens in the browser or the scheme's handler, no program
                return [Arg("start", started.raw), *words]
        elif head == "if":
            words = words[1:]
            while words and words[0].text.lower() in ("/i", "not"):
                words = words[1:]
            if words and words[0].text.lower() in _IF_TESTS:
                words = words[2:]
            elif words and "==" in words[0].text and not words[0].text.endswith("=="):
                words = words[1:]  # `if a==b cmd`
            elif len(words) >= 3 and words[1].text.lower() in _IF_OPS:
                words = words[3:]  # `if a == b cmd`, `if %x% neq 0 cmd`
            elif len(words) >= 2 and (words[0].text.endswith("==") or words[1].text.startswith("==")):
                words = words[2:]  # `if a== b cmd`, `if "%x%" =="x86_64" cmd`
            else:
                words = words[1:]
        elif head == "for":
            rest = [w.text.lower() for w in words]
            words = words[rest.index("do") + 1 :] if "do" in rest else []
        else:
            if words[0].text.startswith("@"):
                words = [Arg(words[0].text.lstrip("@"), words[0].raw), *words[1:]]
            return _split_switches(words) if split else words
    return words


_GLUED = lazy_re(r"([A-Za-z0-9_-]+)(/.*)", re.DOTALL)
_ADDRESS = lazy_re(r"[A-Za-z][A-Za-z0-9+.-]+:|www\.|\\\\|//")
"""What `start` hands to a URL handler rather than runs: an address with a scheme (not a drive letter), a
`www.` host, or a UNC share."""


_DELIMITERS = lazy_re(r"[,;=]+")
_OWN_ASSIGNMENTS = frozenset({"set", "setx", "assoc", "ftype"})


def _split_switches(words: list[Arg]) -> list[Arg]:
    """cmd ends a command name at `/` or an escaped blank: `rd/s/q x` is `rd /s/q x`, `rd^ /s` is `rd /s`.

    Outside quotes cmd also separates words with `,`, `;` and `=` (`rd,/s,/q,x`); `set`, `setx`, `assoc`
    and `ftype` read their own `name=value`.
    """
    if any(_DELIMITERS.search(w.text) for w in words) and words[0].text.lower() not in _OWN_ASSIGNMENTS:
        split: list[Arg] = []
        for w in words:
            if w.raw[:1] == '"' or DYN in w.text or not _DELIMITERS.search(w.text):
                split.append(w)
            else:
                split.extend(Arg(part, part) for part in _DELIMITERS.split(w.text) if part)
        if not split:
            return words
        words = split
    head = words[0]
    if head.raw[:1] == '"':
        return words
    text = head.text
    if " " in text or "\t" in text:
        if DYN in text:
            return words
        parts = text.split()
        if not parts:
            return words
        return _split_switches([Arg(w, w) for w in parts]) + words[1:]
    if "/" not in text:
        return words
    m = _GLUED.fullmatch(text)
    if m is None:
        return words
    name, switches = m.group(1), m.group(2)
    return [Arg(name, name), Arg(switches, switches), *words[1:]]
