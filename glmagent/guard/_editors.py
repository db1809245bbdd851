"""What vim and Neovim are told to run when they start: Ex command lines (`-c CMD`, `--cmd CMD`, `+CMD`) and
files of commands or code (`-u init.lua`, `-S Session.vim`, `-s keys`, `nvim -l script.lua`).

Plugin test suites run this way (`nvim --headless -u tests/init.lua -c "PlenaryBustedDirectory tests"`). An
Ex command line may also run anything (`:!cmd`, `:call system(…)`, `:lua os.execute(…)`), so it is read
command by command, and only a small set counts as plainly safe: quitting, setting options, loading plugins
by name, sourcing files and running plenary's tests from the project, switching syntax and filetype handling
on. Every other command, and every value holding an expression, a variable, a backtick or a path leaving the
project, makes the line one the policy cannot see into.
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
_PLENARY = ("plenarybusteddirectory", "plenarybustedfile")
_ENDS = frozenset(_QUITS + _PLENARY)
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
}
"""Ex commands that run nothing of their own, and how their arguments are read."""

_MODIFIERS = lazy_re(r"(?:(?:silent|sil|silen|noautocmd|noa|keepalt|unsilent)!?\s+)*")
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


def editor_inputs(args: list[Arg]) -> tuple[list[Arg], list[Arg]]:
    """The Ex command lines and the files of commands or code among a vi-family program's words."""
    lines: list[Arg] = []
    files: list[Arg] = []
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        t = a.text
        i += 1
        if t == "--":
            break
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
        elif t in _FILE_OPTIONS:
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


def reads_terminal(args: list[Arg], readings: list[ExReading]) -> bool:
    """Does the editor wait for someone at the terminal: no option runs it without one, and no command it
    is given ends it?"""
    return not any(a.text in _BATCH for a in args) and not any(r.ends for r in readings)


def ex_reading(line: str) -> ExReading:
    """Read an Ex command line command by command (see the module's docstring)."""
    if DYN in line:
        return ExReading("it is only known at run time", [], False)
    paths: list[str] = []
    ends = False
    for command in line.split("|"):
        text = command.strip().lstrip(":").strip()
        if not text:
            continue
        text = text[_MODIFIERS.match(text).end() :]  # type: ignore[union-attr]
        named = _NAME.match(text)
        if named is None:
            return ExReading(f"`{text[:40]}` is a range, a filter or an expression, not a command", [], ends)
        name = named.group(1).lower()
        kind = _SAFE.get(name)
        if kind is None:
            return ExReading(f"`{named.group(1)}` may run commands or code", [], ends)
        ends = ends or name in _ENDS
        rest = text[named.end() :]
        if rest and not rest[0].isspace():
            return ExReading(f"`{text[:40]}` is not a command it can read", [], ends)
        if kind == "lua":
            unsafe = _lua_unsafe(rest)
            if unsafe is not None:
                return ExReading(unsafe, [], ends)
            continue
        if kind == "none":
            if rest.strip():
                return ExReading(f"`{text[:40]}` takes no words", [], ends)
            continue
        for word in _SEPARATORS.split(rest):
            word = word.strip("'\"")
            if not word:
                continue
            if any(c in _UNSAFE_CHARACTERS for c in word):
                return ExReading(f"`{word[:40]}` is an expression, a variable or a special name", [], ends)
            if kind == "paths" or "/" in word or word.startswith("."):
                paths.append(word)
    return ExReading(None, paths, ends)
