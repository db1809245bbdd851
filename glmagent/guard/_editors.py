"""What vim and Neovim are told to run when they start: Ex command lines (`-c CMD`, `--cmd CMD`, `+CMD`) and
files of commands or code (`-u init.lua`, `-S Session.vim`, `-s keys`, `nvim -l script.lua`).

Plugin test suites run this way (`nvim --headless -u tests/init.lua -c "PlenaryBustedDirectory tests"`). An
Ex command line may also run anything (`:!cmd`, `:call system(…)`, `:lua os.execute(…)`), so it is read
command by command, and only a small set counts as plainly safe: quitting, setting options, loading plugins
by name, sourcing files and running plenary's tests from the project, switching syntax and filetype handling
on, and a batch edit: substituting (no `\\=` expression), deleting, re-indenting or sorting lines, also on the
lines `:g` and `:v` find, and writing the files (`vim -es -c '%s/a/b/g' -c wq f`; what is written is judged as
any write). Every other command, and every value holding an expression, a variable, a backtick or a path
leaving the project, makes the line one the policy cannot see into.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ._lazy import lazy_re
from ._syntax import DYN, Arg

EDITORS = frozenset(
    {"vim", "vi", "nvim", "gvim", "view", "vimdiff", "nvi", "evim", "rvim", "neovim", "mvim", "ex"}
)
"""Programs of the vi family that read Ex commands and script files from their options."""

_COMMAND_OPTIONS = frozenset({"-c", "--cmd"})
_FILE_OPTIONS = frozenset({"-u", "-S", "-s", "-l"})
"""Options whose value is a file of commands or code (`-S` alone means `Session.vim`); `-l` ends the options:
the words after its script are the script's."""
_NO_FILE = frozenset({"NONE", "NORC", "DEFAULTS"})
"""`-u` values that name no file."""
_BATCH = frozenset({
    "--headless", "-l", "-e", "-E", "-es", "-Es", "-s", "--version", "-version", "--help", "-h", "-?",
    "--embed",
})  # fmt: skip
"""Options with which the editor reads no terminal: it runs headless, runs a Lua script, reads Ex commands or
typed keys from stdin or a file, or prints its version or usage."""
_QUITS = ("q", "qa", "qal", "qall", "quit", "quita", "quitall", "cq", "cquit")
_WRITES_QUITTING = ("wq", "wqa", "wqall", "x", "xi", "xit", "exi", "exit", "xa", "xall")
_WRITES = ("w", "wr", "wri", "writ", "write", "wa", "wal", "wall", "up", "upd", "upda", "updat", "update")
_PLENARY = ("plenarybusteddirectory", "plenarybustedfile")
_ENDS = frozenset(_QUITS + _PLENARY + _WRITES_QUITTING)
"""Commands that end the editor (plenary's runner quits when its tests are done)."""

_SAFE = {
    # quitting
    **dict.fromkeys(_QUITS, "none"),
    # options, syntax and filetype handling
    **dict.fromkeys(("set", "se", "setlocal", "setl", "setglobal", "setg"), "words"),
    **dict.fromkeys(("syntax", "sy", "syn", "filetype", "filet", "filety"), "words"),
    # plugins by name from the package path, and runtime files by their relative names
    **dict.fromkeys(("packadd", "pa", "packloadall", "packl", "runtime", "ru"), "words"),
    # the project's own files and folders
    **dict.fromkeys(("source", "so", "luafile", "luaf", "cd", "lcd", "tcd", "chdir"), "paths"),
    # plenary.nvim's test runner: a folder or file of the project's specs, and options with its init file
    **dict.fromkeys(_PLENARY, "paths"),
    # one Lua call on the project's or a plugin's module (`lua require('mini.doc').generate()`)
    "lua": "lua",
    # writing the buffers, or the file a word names
    **dict.fromkeys(_WRITES + _WRITES_QUITTING, "write"),
    # editing the buffer's lines: at most a register, a count or sort's flags
    **dict.fromkeys(("d", "de", "del", "dele", "delet", "delete", "j", "jo", "joi", "join"), "count"),
    **dict.fromkeys(
        ("le", "lef", "left", "ri", "rig", "righ", "right", "ce", "cen", "cent", "cente"), "count"
    ),
    **dict.fromkeys(("center", "ret", "reta", "retab", "sor", "sort", "noh", "nohlsearch"), "count"),
    # substituting (its replacement read for `\\=`), and a command on the lines `:g`/`:v` find
    **dict.fromkeys(("s", "su", "sub", "substitute"), "substitute"),
    **dict.fromkeys(("g", "gl", "glo", "glob", "globa", "global", "v", "vg", "vglobal"), "global"),
}
"""Ex commands that run nothing of their own, and how their arguments are read."""

_MODIFIERS = lazy_re(r"(?:(?:silent|sil|silen|noautocmd|noa|keepalt|unsilent)!?\s+)*")
_RANGE = lazy_re(r"(?:[%.$,;\s]|\d+|[+-]\d*|'[a-z<>])*")
"""Line numbers, `%`, `.`, `$`, marks and offsets before a command (a `/pattern/` address is not read)."""
_COUNT = lazy_re(r"[\sa-z0-9]*")
"""What a line-editing command takes: a register, a count, sort's flags."""
_BAR = lazy_re(r"(?<!\\)\|")
"""A bar that ends a command: one after a backslash is the pattern's own (`%s/a\\|b/c/`)."""
_SUBSTITUTE_FLAGS = lazy_re(r"[&cegiInp#lr]*\s*\d*\s*")
_NAME = lazy_re(r"([A-Za-z][A-Za-z0-9]*)(!?)")
_UNSAFE_CHARACTERS = frozenset("`$()~%#<>!\\")
"""Characters that make a value an expression, a variable, a command, a register or a special file name
(`%`, `#`, `<cfile>`), or a Windows path: none of plainly literal words."""
_SEPARATORS = lazy_re(r"[\s,={}]+|\+=|\^=|-=")


_LUA_STRING = r""""(?:[^"\\\n]|\\.)*+"|'(?:[^'\\\n]|\\.)*+'"""
_LUA_SHAPE = lazy_re(r"(?:\s++|[A-Za-z_]\w*+|\d++(?:\.\d++)?|" + _LUA_STRING + r"|[.:(),{}=])*+")
"""A plain Lua call: names, numbers, short strings and punctuation; nothing else (no indexing with `[…]`, no
operators, no long strings, no `;`)."""
_LUA_STRINGS = lazy_re(_LUA_STRING)
_LUA_DENIED = lazy_re(
    r"\b(?:(?:os|io|vim|debug|package|_G|_ENV|ffi|jit|load|loadstring|loadfile|dofile|getfenv|setfenv|rawget"
    r"|rawset|setmetatable|getmetatable|collectgarbage)\b"
    r"|\w*?(?:system|execute|popen|spawn|jobstart|termopen|exec|delete|remove|rename|writefile|chdir|setenv"
    r"|shell)\w*+)(?!\s*=(?!=))",
    re.IGNORECASE,
)
"""Lua names that reach the machine (the standard library's `os`, `io`, `debug`, Neovim's `vim.*` API with
`vim.fn.system` and `vim.fn.delete`), load code, or whose name says they run, delete or rename something; a
name before `=` is a table's key or a variable set, which calls nothing (`{ execute = {…} }`)."""
_LUA_REQUIRES = lazy_re(r"\brequire\b")
_LUA_LITERAL_REQUIRE = lazy_re(r"""\brequire\s*+\(?\s*+""\s*+\)?""")
"""`require` of a module written literally, with the strings blanked."""
_LUA_MODULES = lazy_re(r"""\brequire\s*+\(?\s*+(["'])((?:[^"'\\\n]|\\.)*+)\1""")
_LUA_DENIED_MODULES = lazy_re(
    r"(?:lazy|packer|mason|paq|pckr|mini\.deps|plenary\.job|plenary\.curl|nvim-treesitter\.install|ffi|jit|os"
    r"|io|vim|luv|socket|http|ssl|posix|lfs)(?:[.\-].*)?",
    re.IGNORECASE,
)
"""Modules that install plugins from the network, run commands or reach the machine."""


def _lua_unsafe(code: str) -> str | None:
    """Why a `:lua` chunk may do more than call the project's or a plugin's functions with literal values.
    (Each step is one regular expression over the chunk: a long one costs little.)"""
    if _LUA_SHAPE.fullmatch(code) is None:
        return "it is Lua beyond a plain call"
    blank = _LUA_STRINGS.sub('""', code)
    if ".." in blank:
        return "`..` joins strings the policy cannot read"
    denied = _LUA_DENIED.search(blank)
    if denied is not None:
        return f"`{denied.group()[:40]}` reaches the machine or loads code"
    if len(_LUA_REQUIRES.findall(blank)) != len(_LUA_LITERAL_REQUIRE.findall(blank)):
        return "`require` of a module named only when it runs"
    for module in _LUA_MODULES.finditer(code):
        if _LUA_DENIED_MODULES.fullmatch(module.group(2)):
            return f"module `{module.group(2)[:40]}` installs, runs commands or reaches the machine"
    return None


_VALUED = frozenset({"-c", "--cmd", "-u", "-U", "-S", "-s", "-i", "-T", "-t", "-w", "-W", "-q", "-r", "-l"})
"""Options whose value is the next word (`-S` and `-q` only when one follows, `-s` only outside Ex mode)."""
_ELSEWHERE = frozenset({"-t", "-q", "-r", "-L"})
"""Options that open a file named elsewhere (a tag's file, an error list's files, a swap file's)."""
_EX_MODE = frozenset({"-e", "-E", "-es", "-Es"})


def ex_mode(name: str, args: list[Arg]) -> bool:
    """Does the editor read Ex commands (after its own, from stdin): started as `ex`, or with `-e`/`-E`?"""
    return name == "ex" or any(a.text in _EX_MODE or _cluster_letters(a.text) & {"e", "E"} for a in args)


def _cluster_letters(text: str) -> set[str]:
    """The letters of short options written together (`-Nu`, `-nEs`); none for other words."""
    return set(text[1:]) if len(text) > 2 and text[0] == "-" and text[1:].isalpha() else set()


def edited_files(name: str, args: list[Arg]) -> list[Arg] | None:
    """The files the editor opens, which a write command writes; None when it may open one named elsewhere
    (`-t TAG`, `-q errors.txt`, `-r`)."""
    files: list[Arg] = []
    ex = name == "ex"
    i, n = 0, len(args)
    while i < n:
        t = args[i].text
        i += 1
        if t == "--":
            return files + list(args[i:])
        if t in _ELSEWHERE or t.startswith("--remote"):
            return None
        ex = ex or t in _EX_MODE or bool(_cluster_letters(t) & {"e", "E"})
        last = "-" + t[-1] if _cluster_letters(t) else t
        if last in _VALUED and not (last == "-s" and ex):  # `-s`: Ex mode's silent flag
            if last in ("-S", "-q") and (i >= n or args[i].text[:1] == "-"):
                continue
            if last == "-l":
                return files
            i += 1
        elif t[:1] not in "-+" or t == "-":
            files.append(args[i - 1])
    return files


def runtime_option(args: list[Arg]) -> bool:
    """Is a word before any `--` known only at run time: maybe an option (`+!id`, `-es`, `--cmd=…`), or a
    file of commands from anywhere (`-u "$INIT"`)? (The files after `--` are only edited.)"""
    for a in args:
        if a.text == "--":
            return False
        if DYN in a.text:
            return True
    return False


def editor_inputs(args: list[Arg], name: str = "") -> tuple[list[Arg], list[Arg]]:
    """The Ex command lines and the files of commands or code among a vi-family program's words."""
    lines: list[Arg] = []
    files: list[Arg] = []
    ex = name == "ex"
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        t = a.text
        i += 1
        if t == "--":
            break
        ex = ex or t in _EX_MODE or bool(_cluster_letters(t) & {"e", "E"})
        if _cluster_letters(t) and t[-1] in "cuSs":
            t = "-" + t[-1]  # `-Nu NONE`, `-nc CMD`: the last letter takes the next word
        if t in _COMMAND_OPTIONS:
            if i < n:
                lines.append(args[i])
                i += 1
        elif t.startswith("--cmd="):
            lines.append(Arg(t[6:], a.raw))
        elif t.startswith("-c") and len(t) > 2 and not t.startswith("--"):
            lines.append(Arg(t[2:], a.raw))
        elif t[:1] == "+" and DYN not in t:
            rest = t[1:]
            if rest and not rest.isdigit() and rest[0] not in "/?":
                lines.append(Arg(rest, a.raw))  # `+N`, `+/pat`: a line to start on
        elif t[:1] == "+":
            lines.append(a)
        elif t in _FILE_OPTIONS and not (t == "-s" and ex):  # Ex mode's `-s` is its silent flag
            if t == "-S" and (i >= n or args[i].text[:1] == "-"):
                continue  # `Session.vim` in the working directory
            if i < n:
                if args[i].text not in _NO_FILE:
                    files.append(args[i])
                i += 1
            if t == "-l":
                break
        elif t[:2] in ("-S", "-u") and len(t) > 2 and not t.startswith("--"):
            files.append(Arg(t[2:], a.raw))
    return lines, files


class ExReading(NamedTuple):
    """What an Ex command line does, as far as the policy reads it."""

    unsafe: str | None
    """Why it may run something the policy cannot see; None when every command is plainly safe."""
    paths: list[str]
    """The paths its commands name, to be judged where they lie."""
    ends: bool
    """One of its commands ends the editor."""
    writes: bool = False
    """One of its commands writes the files being edited (`:w`, `:wq`, `:x`, `:update`)."""
    written: tuple[str, ...] = ()
    """The files its write commands name (`:w out.txt`), to be judged as writes."""


def reads_terminal(args: list[Arg], readings: list[ExReading]) -> bool:
    """Does the editor wait for someone at the terminal: no option runs it without one, and no command it
    is given ends it?"""
    return not any(a.text in _BATCH for a in args) and not any(r.ends for r in readings)


class _Reading:
    """What the commands of one Ex command line read so far do (see `ExReading`)."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.written: list[str] = []
        self.ends = False
        self.writes = False
        self.moves = False

    def done(self, unsafe: str | None) -> ExReading:
        if unsafe is None and self.moves and (self.writes or self.written):
            unsafe = "it writes after changing the folder the file names are read in"
        return ExReading(unsafe, self.paths, self.ends, self.writes, tuple(self.written))


def _delimited(text: str) -> tuple[str, str] | None:
    """`/pattern/rest` split at the closing delimiter (the first character, unescaped); None when the first
    character cannot delimit (a letter, a digit, a backslash, a quote, a bar, a space)."""
    if not text or text[0].isalnum() or text[0] in '\\"| \t':
        return None
    delimiter, i = text[0], 1
    while i < len(text) and text[i] != delimiter:
        i += 2 if text[i] == "\\" else 1
    return text[1:i], text[i + 1 :]


def _substitute_unsafe(rest: str) -> str | None:
    """Why `:s/PATTERN/REPLACEMENT/FLAGS [count]` may be more than a substitution: the replacement is an
    expression (`\\=system('id')`), or flags or words follow that it does not take."""
    if not rest.strip():
        return None  # `:s`, `:%s`: repeat the last substitution
    split = _delimited(rest)
    if split is None:
        return None if _SUBSTITUTE_FLAGS.fullmatch(rest) else f"`s{rest[:40]}` is not a substitution"
    after = _delimited(rest[0] + split[1])
    replacement, flags = after if after is not None else (split[1], "")
    if replacement.startswith("\\="):
        return "its replacement is an expression"
    if _SUBSTITUTE_FLAGS.fullmatch(flags) is None:
        return f"`{flags[:40]}` is not a substitution's flags"
    return None


def _command_unsafe(text: str, reading: _Reading, depth: int = 0) -> str | None:
    """Read one Ex command into `reading`; why it may run what the policy cannot see, or None."""
    text = text.strip().lstrip(":").strip()
    if not text:
        return None
    text = text[_MODIFIERS.match(text).end() :]  # type: ignore[union-attr]
    text = text[_RANGE.match(text).end() :]  # type: ignore[union-attr]
    if not text:
        return None  # a bare line number moves the cursor
    named = _NAME.match(text)
    if named is None:
        return f"`{text[:40]}` is a filter, an address or an expression, not a command"
    name = named.group(1).lower()
    kind = _SAFE.get(name)
    rest = text[named.end() :]
    letters = name.rstrip("0123456789")
    if kind is None and _SAFE.get(letters) == "count" and not named.group(2):
        name, kind, rest = letters, "count", text[len(letters) :]  # `:1d5`: a command and its count
    if kind is None:
        return f"`{named.group(1)}` may run commands or code"
    reading.ends = reading.ends or name in _ENDS
    if kind == "substitute":
        return _substitute_unsafe(rest)
    if kind == "global":
        split = _delimited(rest)
        if split is None or depth:
            return f"`{text[:40]}` is not a `:g` it can read"
        return _command_unsafe(split[1], reading, depth + 1)
    if kind == "count":
        return None if _COUNT.fullmatch(rest) else f"`{text[:40]}` takes more than a count"
    if rest and not rest[0].isspace():
        return f"`{text[:40]}` is not a command it can read"
    if kind == "lua":
        return _lua_unsafe(rest)
    if kind == "none":
        return f"`{text[:40]}` takes no words" if rest.strip() else None
    if kind == "write":
        reading.writes = True
    if name in ("cd", "lcd", "tcd", "chdir"):
        reading.moves = True
    for word in _SEPARATORS.split(rest):
        word = word.strip("'\"")
        if not word:
            continue
        if any(c in _UNSAFE_CHARACTERS for c in word):
            return f"`{word[:40]}` is an expression, a variable or a special name"
        if kind == "write":
            if not word.startswith("++"):  # `:w ++ff=unix`: the file's format
                reading.written.append(word)
        elif kind == "paths" or "/" in word or word.startswith("."):
            reading.paths.append(word)
    return None


def ex_reading(line: str) -> ExReading:
    """Read an Ex command line command by command (see the module's docstring)."""
    if DYN in line:
        return ExReading("it is only known at run time", [], False)
    if "\x16" in line:
        return ExReading("a CTRL-V in it hides a bar from the policy", [], False)
    reading = _Reading()
    for command in _BAR.split(line):
        unsafe = _command_unsafe(command, reading)
        if unsafe is not None:
            return reading.done(unsafe)
    return reading.done(None)
