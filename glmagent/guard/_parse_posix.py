"""Walk a tree-sitter-bash tree and report every simple command, redirection and expansion to the engine."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ._globbed import glob_match
from ._lazy import lazy_re
from ._normalise import ansi_c_unescape, command_key, fold_arg, posix_unescape_double, posix_unescape_word
from ._sink import Sink
from ._syntax import (
    DYN,
    MADE_TEMP,
    MAX_WORK,
    Arg,
    Feed,
    Frame,
    Stdin,
    TooLarge,
    lit,
    new_parser,
    parse_within_budget,
    placeholders_as_values,
)
from ._unwrap import script_source

_new = tuple.__new__
"""Makes an `Arg` of all five fields without the named tuple's Python-level `__new__` (a function call for
its defaults): the word-cutting fast paths make one per word of nearly every command."""

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

_local = threading.local()


def parser() -> Parser:
    """A bash parser for this thread (tree-sitter parsers are not shareable across threads)."""
    p = getattr(_local, "parser", None)
    if p is None:
        p = new_parser("bash")
        _local.parser = p
    return p


MAX_PIPES = 256
"""Pipes (`|`, `|&`) a line may hold. The bash grammar's time grows with the square of a pipeline's length
(1,000 stages of `a -c |` take about 60 ms) and it cannot be stopped while it finishes one, so a line with
more pipes is too large to check before it is parsed."""
_QUOTED = lazy_re(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
MAKE_AUTOMATIC_WORD = "${make_automatic}"
"""The run-time word `repair` writes for make's automatic variables (`$@`, `$<`, `$(@D)`)."""
MAKE_VARIABLE = lazy_re(r"\$\(([A-Z][A-Z0-9_]*)\)")
"""make's variable for a program in a recipe line copied whole (`$(MAKE) -C docs`, `$(GO) build`,
`$(GOLANGCI_LINT) run`): upper case, as make's variables for programs are. To bash the same word runs a
program of that name, which only a disk that ignores case finds (`PYTHON` as `python`)."""
_PIPE = lazy_re(r"(?<!\|)\|(?!\|)")


_WIDE_AFTER_BRACE = lazy_re(rb"\{[0-9]*+(?:\.\.[0-9]*+)?+([\x80-\xff][\x80-\xbf]*+)")
"""A character beyond ASCII where the bash grammar's scanner asks `isdigit()` about it: right after `{`, `{1`
or `{1..2` (where it looks for a `{1..9}` range). `isdigit` takes only bytes; given a code point such as
U+101D84 it reads far past its table, and the process dies of a segmentation fault (about one run in two)."""


def _unwide(match: re.Match[bytes]) -> bytes:
    char = match.group(1)
    fill = b" " if char.decode("utf-8", "replace").isspace() else b"x"
    return match.group(0)[: match.start(1) - match.start(0)] + fill * len(char)


def grammar_safe(source: bytes) -> bytes:
    """`source` with each character the bash scanner would crash on replaced by as many ASCII bytes (`x`, or
    blanks for a blank), so byte offsets still point into the caller's source, where words are read from."""
    if b"{" not in source or source.isascii():
        return source
    return _WIDE_AFTER_BRACE.sub(_unwide, source)


def parse(source: bytes) -> Any:
    """Parse POSIX shell source; callers check `root_node.has_error` and read words from their own `source`
    (the grammar may have been given a copy with some characters replaced: `grammar_safe`)."""
    if source.count(b"|") > MAX_PIPES:
        unquoted = _QUOTED.sub("", source.decode("utf-8", "replace"))
        if len(_PIPE.findall(unquoted)) > MAX_PIPES:
            raise TooLarge(f"the command holds more than {MAX_PIPES} pipes")
    source = grammar_safe(source)
    try:
        return parse_within_budget(_local.parser, source)
    except AttributeError:
        return parse_within_budget(parser(), source)


# Node kinds that are words (or pieces of one): they never contain a command unless they hold an expansion.
_DYNAMIC = frozenset(
    {
        "simple_expansion",
        "expansion",
        "command_substitution",
        "process_substitution",
        "arithmetic_expansion",
        "brace_expression",
    }
)
_LEAVES = frozenset(
    {"word", "number", "raw_string", "ansi_c_string", "comment", "variable_name", "file_descriptor"}
)
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_HOLDS_SUBSTITUTION = frozenset({"command_substitution", "string", "concatenation"})
_SIMPLE_STAGES = frozenset({"command", "redirected_statement"})

_NAME_BINDERS = lazy_re(r"\b(?:eval|source|let|IFS)\b|\bprintf\s+-v\b|(?:^|[;&|(\s])\.\s")
"""Text that sets variables, or runs text that may, wherever it stands (`eval`, `source`, `.`, `let`)."""
_BINDING_BUILTINS = lazy_re(r"\b(?:read|mapfile|readarray|getopts|unset|declare|typeset|local|select)\b")
"""Builtins that bind the names among their words, where a command starts."""
_COMMAND_START = lazy_re(r"[;&|(){}\n`!]")
_LEADING_WORDS = frozenset(
    {"do", "then", "else", "elif", "if", "while", "until", "time", "coproc", "builtin", "command"}
)
_PREFIX_ASSIGNMENT = lazy_re(r"[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=\S*")
_BINDER_LOOKS = 64
"""Binding words whose place in the script is looked at; past it the script counts as binding names."""
_BINDER_REACH = 2000
"""Characters looked back from a binding word to where its command starts; past it, it counts as one."""


_QUOTING = str.maketrans("", "", "'\"\\")
_ANSI_C_STRING = lazy_re(r"\$'((?:[^'\\]|\\.)*)'")


def _as_spelled(text: str) -> str:
    """The script with its quoting taken away: `$'…'` strings decoded, then every quote and backslash
    dropped. The shell removes quotes before it looks a command up, so `sour''ce`, `"."`, `e\\val` and
    `$'\\x73et'` run `source`, `.`, `eval` and `set`; screens that look for such commands by name read this
    spelling as well as the written one."""
    if "'" not in text and '"' not in text and "\\" not in text:
        return text
    if "$'" in text:
        text = _ANSI_C_STRING.sub(lambda m: ansi_c_unescape(m[1]), text)
    return text.translate(_QUOTING)


def _either_spelling(test: Callable[[str], bool], text: str) -> bool:
    """Does `test` hold of the script as written or as the shell spells its names (`_as_spelled`)?"""
    if test(text):
        return True
    spelled = _as_spelled(text)
    return spelled is not text and test(spelled)


def _binds_names(text: str) -> bool:
    """`_binds_written_names` of the script as written or as the shell spells its names."""
    return _either_spelling(_binds_written_names, text)


def _binds_written_names(text: str) -> bool:
    """Does a script hold a command that may set variables named among its words (see `_NAME_BINDERS` and
    `_BINDING_BUILTINS`)? A builtin counts where a command starts: after a separator, a keyword, `builtin`,
    `command` or assignments (`x=1 read y`); as a word of another command (`defaults read x`, `git config
    --local`, `--read-only`, `psql -c "select 1"`) it binds nothing. A quote before it in the same command,
    too many of them or too long a command counts as binding (the reading stays simple)."""
    if _NAME_BINDERS.search(text):
        return True
    for count, m in enumerate(_BINDING_BUILTINS.finditer(text)):
        if count >= _BINDER_LOOKS:
            return True
        start = m.start()
        if start and text[start - 1] in "-.=/":
            continue  # part of a longer word: `--read-only`, `x.read`, `k=local`
        reach = max(0, start - _BINDER_REACH)
        head = text[reach:start]
        cut = max((n.end() for n in _COMMAND_START.finditer(head)), default=-1)
        if cut < 0 and reach > 0:
            return True  # the command starts further back than is looked at
        before = head[cut if cut >= 0 else 0 :]
        if "'" in before or '"' in before or "\\" in before or "$" in before:
            return True
        if all(w in _LEADING_WORDS or _PREFIX_ASSIGNMENT.fullmatch(w) for w in before.split()):
            return True
    return False


_CONSTANT_VALUE = lazy_re(r"[\w./+,:@%=~-]*")
_MKTEMP_OPTION = lazy_re(r"-[dqt]{1,3}|--(?:directory|quiet|tmpdir)|--suffix=[\w.+,@%-]*")
"""Options of `mktemp` that keep its name in the temp folder (`-t`, `--tmpdir`: put it there)."""
_MKTEMP_TEMPLATE = lazy_re(
    r"(\"?)((?:\$\{TMPDIR:-/tmp\}|\$\{TMPDIR\}|\$TMPDIR|/tmp|/var/tmp)/)?[\w+,@%][\w.+,@%-]*\1"
)
"""A template of `mktemp`: a plain name (`ci.XXXXXX`), or one in the temp folder (`"$TMPDIR/x.XXXX"`)."""
_TMPDIR_READ = lazy_re(r"\$\{?TMPDIR")
_REQUIRED = lazy_re(r"\$\{([A-Za-z_]\w*):?\?[^}]*\}")
"""`${x:?}`, `${x?message}`: the value, or an error that stops the script when it is empty."""
"""A value that reads the same quoted or not: no blank splits it and no pattern character globs it."""
_ASSIGNED_NAME = lazy_re(r"(?<![\w$./-])([A-Za-z_]\w*)(?:\[[^\]]*\])?\+?=")
_LOOP_NAME = lazy_re(r"\bfor\s+([A-Za-z_]\w*)")
_READ_NAME = lazy_re(r"[A-Za-z_]\w*")
_DEFAULTED_NAME = lazy_re(r"\$\{([A-Za-z_]\w*):?=")
_ARITHMETIC = lazy_re(r"\(\(([^)]*)")
_IDENTIFIER = lazy_re(r"[A-Za-z_]\w*")
MAX_LOOP_COPIES = 16
"""Most walks of one loop body (the product of nested loops' word counts) when each word is tried in turn."""


def _changeable_names(text: str) -> tuple[dict[str, int], set[str]] | None:
    """One pass over a script: how often each name is assigned (`x=`, `x+=`, `x[0]=`, as written or
    as the shell spells it: `export x''=/`), and the names a loop, a `${x:=…}` default or arithmetic may
    change. None when a command that binds names appears."""
    if _binds_names(text):
        return None
    counts = Counter(_ASSIGNED_NAME.findall(text))
    spelled = _as_spelled(text)
    if spelled is not text:
        # `export d''=/` sets `d` as `export d=/` does; a name counts as often as either spelling shows it
        counts |= Counter(_ASSIGNED_NAME.findall(spelled))
    changed = set(_LOOP_NAME.findall(text)) | set(_DEFAULTED_NAME.findall(text))
    for inner in _ARITHMETIC.findall(text):
        changed.update(_IDENTIFIER.findall(inner))
    return counts, changed


_ALL_ARGS = frozenset({"$@", "${@}", "$*", "${*}"})
"""The positional parameters, all of them (`$@`, `"$@"`, `${*}`): what a script hands on to a program
(`pytest "$@"`) and what a Makefile's recipe names its target by (`cc -o $@ x.c`). `$1` stays a run-time
word: command references write it for the operand the reader fills in (`xattr -d com.apple.macl $1`)."""
_NO_WORDS = frozenset({"$@", '"$@"', "${@}", '"${@}"', "$*", "${*}"})
"""The spellings of all positional parameters that make no word at all when there are none (`"$*"` makes one
empty word)."""
_SETS_ARGS = lazy_re(
    r"(?<![\w.$/@%+-])(?:set|eval|source)(?![\w./-])"
    r"|(?:^|[;&|({!\n]|\b(?:then|do|else|command|builtin))[ \t]*\.(?=[ \t])"
)
"""Where a command that may give the script positional parameters may stand (`set`, `eval`, `source`, and
`.` as a command: `go build -o $@ .` sources nothing)."""
_OPTIONS_ONLY = lazy_re(r"set(?:[ \t]+(?:[-+][a-zA-Z]*o[ \t]+[a-z]+|[-+][a-zA-Z]+))*[ \t]*(?:$|[;&|)}\n#])")
"""`set -e`, `set -euo pipefail`, `set +x`: options only, which give no positional parameters."""


def _sets_positional(text: str) -> bool:
    """May the script give itself positional parameters (`set -- a b`, `set -e x`, `eval …`, `. ./env.sh`),
    as written or as the shell spells its names (`s''et -- /etc`, `"." ./env.sh`)?"""
    return _either_spelling(_sets_written_positional, text)


def _sets_written_positional(text: str) -> bool:
    if "set" not in text and "eval" not in text and "source" not in text and "." not in text:
        return False
    for m in _SETS_ARGS.finditer(text):
        if m[0] != "set" or _OPTIONS_ONLY.match(text, m.start()) is None:
            return True
    return False


_PWD_HEAD = lazy_re(r"\"?(?:\$PWD|\$\{PWD\}|\$\(pwd(?: -[LP])?\)|`pwd`)\"?/")
"""A word that starts with the working directory (`$PWD/x`, `"${PWD}/x"`, `$(pwd)/x`)."""
_PWD_ALONE = lazy_re(r"\$\(pwd(?: -[LP])?\)|`pwd`")
_PWD_WORD = lazy_re(r"(\"?)(?:\$PWD|\$\{PWD\}|\$\(pwd(?: -[LP])?\)|`pwd`)\1")
"""A word that is the working directory and nothing else (`$PWD`, `"${PWD}"`, `$(pwd)`)."""
_HOME_HEAD = lazy_re(r"\"?(?:(\$HOME|\$\{HOME\})|\$\(go env GOPATH\)|`go env GOPATH`)\"?/")
"""A word that starts with the home folder (`$HOME/x`) or Go's tool folder (`$(go env GOPATH)/bin/x`): where
the user's environment says they are, as `~/x` and `~/go/x` spell them."""
_NODE_BIN_HEAD = lazy_re(r"\"?(?:\$\((?:npm|yarn|pnpm) (bin|root)\)|`(?:npm|yarn|pnpm) (bin|root)`)\"?/")
"""A word that starts with the project's own Node programs or packages (`$(yarn bin)/jest`, `"$(npm
bin)/eslint"`, `$(npm root)/.bin/tsc`): the package manager prints the project's `node_modules/.bin` (or
`node_modules`), as `./node_modules/.bin/jest` names it."""
_ROOT_SLICE = lazy_re(r"\$\{(HOME|PWD|OLDPWD):0:1\}")
"""The first character of a variable holding an absolute path: `/` (`cat ${HOME:0:1}etc${HOME:0:1}passwd`)."""
_PWD_REDEFINED = lazy_re(
    r"\bunset\b|\bpwd\s*\(|\bfunction\s+pwd\b|\bpwd=|\b(?:local|declare|typeset)\s+(?:-\w+\s+){0,4}+PWD\b",
    re.IGNORECASE,
)
"""A line that may empty `PWD` or make `pwd` print something else."""


class PosixWalker:
    """One walk over one parsed script; `frame` carries depth, wrapper chain and literal assignments."""

    __slots__ = (
        "args_empty",
        "ascii",
        "brace_work",
        "changeable",
        "constants",
        "empty_output",
        "exec_stdin",
        "frame",
        "inherited",
        "last_argv",
        "loop_copies",
        "printing",
        "pwd_is_cwd",
        "rebound",
        "sink",
        "src",
        "stage_feed",
        "trailing",
        "word_room",
        "writer",
        "writer_output",
        "writer_stdin",
    )

    def __init__(self, sink: Sink, frame: Frame, src: bytes, text: str | None = None) -> None:
        self.sink = sink
        self.frame = frame
        self.src = src
        self.ascii = text if text is not None and text.isascii() else None
        self.brace_work = [BRACE_WORK]
        self.loop_copies = 1
        """How many times the body being walked is walked (loops over literal words nest; see `_for`)."""
        self.word_room = MAX_WORK
        """Words brace expansion may still make: each becomes a command word the walk spends against
        `MAX_WORK` after the script's syntax nodes, so past it the script is too large before they exist."""
        self.rebound: set[str] | None = None
        """Names a `${x:=…}` default or arithmetic may set anywhere in the script (read on first need)."""
        self.pwd_is_cwd: bool | None = None
        """`_pwd_is_cwd`, once read."""
        self.args_empty: bool | None = None
        """`_args_empty`, once read (None: not yet)."""
        self.constants: dict[str, str] = {}
        """Variables this script set once, at its top level, to a literal that needs no quoting
        (`out=report.html`): a later `$out` is that value (`>> $out` writes report.html)."""
        inherited = frame.constants
        if inherited:
            # A `trap` body runs at exit, when the setting script's constants hold their values: those it
            # does not set again itself are known in it (`tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT`).
            changeable = _changeable_names(src.decode("utf-8", "replace"))
            if changeable is not None:
                counts, changed = changeable
                self.constants = {k: v for k, v in inherited.items() if k not in counts and k not in changed}
        frame.constants = self.constants
        self.changeable: tuple[dict[str, int], set[str]] | bool | None = False
        """`_changeable_names` of the script, read at its first top-level assignment (False: not yet)."""
        """The source as text when it is pure ASCII: byte offsets are then character offsets, so words are
        sliced out of it directly instead of slicing and decoding bytes per node."""
        self.inherited: Stdin | None = None
        self.exec_stdin: Stdin | None = None
        """Standard input the script gave itself with `exec < ...`: later commands read it."""
        self.stage_feed: Feed | None = None
        """What feeds the compound pipeline stage being walked (`find . | while read f; do rm "$f"; done`)."""
        self.trailing: list[Node] = []
        """Words written after a redirection (`rm 2>/dev/null -rf /`): arguments of the command it follows,
        which the grammar files under the redirection."""
        self.empty_output = False
        """The statement whose redirections are being read writes nothing (`> f`, `: > f`, `true > f`)."""
        self.last_argv: list[Arg] | None = None
        """The words of the simple command reported last."""
        self.printing: tuple[str, Node] | None = None
        """The program name and node of the simple command whose argument words are being walked."""
        self.writer: list[Arg] | None = None
        """The simple command whose output the redirections being read write (`echo x > f`), if one is."""
        self.writer_stdin: Stdin | None = None
        self.writer_output: Feed | None = None
        """What a statement other than one command prints, when it is redirected whole (`yes | gzip > f`, `{
        yes; } > f`): its last simple command, with what feeds it."""
        """That command's input (`cat > x.py <<'EOF'`: the here-document)."""

    # -- generic walk --
    def visit(self, node: Node, stdin: Stdin | None = None) -> None:
        handler = _HANDLERS.get(node.type)
        if handler is not None:
            handler(self, node, stdin)
        elif node.named_child_count:
            for child in node.named_children:
                if child.type not in _LEAVES:
                    self.visit(child)

    def _children(self, node: Node, stdin: Stdin | None = None) -> None:
        for child in node.named_children:
            if child.type not in _LEAVES:
                self.visit(child)

    def text(self, node: Node) -> str:
        s = self.ascii
        if s is not None:
            return s[node.start_byte : node.end_byte]
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    # -- words --
    def arg(self, node: Node) -> Arg:
        s = self.ascii
        if s is not None:
            raw = s[node.start_byte : node.end_byte]
            if "\\" not in raw and node.type == "word":
                return _new(Arg, (raw, raw, False, False, False, False))  # a plain word is its own value
        else:
            raw = self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")
            if node.type == "word" and "\\" not in raw and raw.isascii():
                return Arg(raw, raw)
        value = fold_arg(self._value(node, raw))
        if value == DYN and "wd" in raw.lower() and _PWD_WORD.fullmatch(raw) and self._pwd_is_cwd():
            value = "."  # `find $(pwd) -name '*.go'`, `"$PWD"`: the working directory, as `$PWD/x` is below
        elif value[:2] == DYN + "/":
            if "PWD" in raw.upper() and _PWD_HEAD.match(raw) and self._pwd_is_cwd():
                value = "." + value[1:]  # `"$PWD/build"`: the working directory, followed through the `cd`s
            elif (
                (head := _HOME_HEAD.match(raw)) is not None
                and self._unchanged("HOME" if head.group(1) else "GOPATH")
                and "unset" not in self._source_text()
            ):
                value = ("~" if head.group(1) else "~/go") + value[1:]  # `$(go env GOPATH)/bin/gocov`
            elif "bin" in raw or "root" in raw:
                node = _NODE_BIN_HEAD.match(raw)
                if node is not None and self.frame.depth == 0:
                    bin_folder = "bin" in (node.group(1), node.group(2))
                    folder = "./node_modules/.bin" if bin_folder else "./node_modules"
                    value = folder + value[1:]  # `$(yarn bin)/jest`: the project's own program
        return Arg(value, raw)

    def _unchanged(self, name: str) -> bool:
        """Is the variable `name` the one the line was started with: in the line's own script, which never
        sets it (a nested script may be handed another)?"""
        if self.frame.depth:
            return False
        if self.changeable is False:
            self.changeable = _changeable_names(self._source_text())
        return (
            bool(self.changeable)
            and name not in self.changeable[0]  # type: ignore[index]
            and name not in self.changeable[1]  # type: ignore[index]
        )

    def _args_empty(self, node: Node) -> bool:
        """Are the positional parameters empty at `node`, an argument's expansion? The agent starts a line
        with none: so they stay in the line's own script, outside a function's body (which its caller hands
        words), unless a `set` gives it some (`set -- /etc`; `set -euo pipefail` gives none) or `eval`,
        `source` or `.` may. A nested script (`sh -c '…' _ x`) is handed its own. In a command name they
        stay unknown: `c$@at` is written to hide a name, not to run `cat`."""
        if self.frame.depth:
            return False
        if self.args_empty is None:
            self.args_empty = _sets_positional(self._source_text()) is False
        if not self.args_empty:
            return False
        parent = node.parent
        while parent is not None:
            if parent.type in ("function_definition", "command_name"):
                return False
            parent = parent.parent
        return True

    def _pwd_is_cwd(self) -> bool:
        """Does `$PWD` (and `$(pwd)`) name the working directory here? In the line's own script, unless it
        sets `PWD` or defines a `pwd` of its own (a nested script may be handed another `PWD`)."""
        if self.pwd_is_cwd is None:
            self.pwd_is_cwd = self._unchanged("PWD") and not _either_spelling(
                lambda text: _PWD_REDEFINED.search(text) is not None, self._source_text()
            )
        return self.pwd_is_cwd

    def _value(self, node: Node, raw: str) -> str:
        kind = node.type
        if kind == "word":
            # A backslash-newline is removed before words are read: `r\<newline>m` is `rm`.
            return posix_unescape_word(raw.replace("\\\n", "") if "\\\n" in raw else raw)
        if kind == "number":
            return raw
        if kind == "raw_string":
            return raw[1:-1]
        if kind == "ansi_c_string":
            return ansi_c_unescape(raw[2:-1])
        if kind in ("string", "translated_string"):
            return self._string_value(node)
        if kind == "concatenation":
            # `r$"m"`: the grammar gives `$"..."` (a locale string, which is its text when no catalogue
            # translates it) as a bare `$` before a string; that `$` is no character of the word.
            return "".join(
                self._value(c, self.text(c))
                for c in node.children
                if c.type != "$" or c.next_sibling is None or c.next_sibling.type != "string"
            )
        if kind in _DYNAMIC:
            return self._constant(node)
        if kind in ("string_content", "heredoc_content"):
            return raw
        # Globs (`extglob_pattern`), `[[ ]]` regexes and the like are taken as written.
        return raw

    def _string_value(self, node: Node) -> str:
        if node.type == "translated_string":
            inner = node.named_children
            if len(inner) == 1 and inner[0].type == "string":
                return self._string_value(inner[0])  # `$"curl"` is `"curl"`
        # Rebuild the value from the source between the quotes so no gap between child nodes is lost.
        start = node.start_byte + (2 if node.type == "translated_string" else 1)
        end = node.end_byte - 1
        out: list[str] = []
        pos = start
        for child in node.named_children:
            if child.start_byte > pos:
                out.append(posix_unescape_double(self.src[pos : child.start_byte].decode("utf-8", "replace")))
            if child.type in _DYNAMIC:
                out.append(self._constant(child))
            else:
                out.append(posix_unescape_double(self.text(child)))
            pos = child.end_byte
        if end > pos:
            out.append(posix_unescape_double(self.src[pos:end].decode("utf-8", "replace")))
        return "".join(out)

    def _constant(self, node: Node) -> str:
        """The value of `$x` / `${x}` when `x` is one of the script's constants, or a positional parameter
        the line was started without; DYN otherwise."""
        if node.type == "expansion" and (root := _ROOT_SLICE.fullmatch(self.text(node))) is not None:
            return "/" if self._unchanged(root.group(1)) else DYN
        if self.text(node) in _ALL_ARGS and self._args_empty(node):
            return ""
        if self.constants and node.type in ("simple_expansion", "expansion"):
            parts = node.named_children
            if len(parts) == 1 and parts[0].type == "variable_name":
                name = self.text(parts[0])
                text = self.text(node)
                if text == f"${name}" or text == f"${{{name}}}":
                    return self.constants.get(name, DYN)
            if node.type == "expansion" and (trim := _TRIM.fullmatch(self.text(node))) is not None:
                value = self.constants.get(trim.group(1))
                if value is not None:
                    trimmed = _trimmed(value, trim.group(2), trim.group(3))
                    return DYN if trimmed is None else trimmed
            if node.type == "expansion" and (need := _REQUIRED.fullmatch(self.text(node))) is not None:
                return self.constants.get(need.group(1)) or DYN  # `${tmp:?}`: the value, never empty
        return DYN

    def _constant_assignment(self, node: Node, key: str, val: Arg, made: bool = False) -> bool:
        """Is this assignment the only one the script makes to `key`, at its top level, of a plain literal
        (or, `made`, of the name `mktemp` prints)? Only then does every later `$key` in the script read as
        its value: an assignment inside a branch, loop, function or subshell, a second one, or any command
        that binds names (`read`, `eval`, `.`) leaves the variable unknown. The first command of a list
        runs unconditionally (`tmp=$(mktemp -d) && cd "$tmp"`), as one at the top does."""
        parent = node.parent
        if parent is not None and parent.type == "declaration_command":
            node, parent = parent, parent.parent
        while parent is not None and parent.type == "list" and parent.named_children[0] == node:
            node, parent = parent, parent.parent
        if parent is None or parent.type != "program" or not (made or val.literal):
            return False
        if not made and _CONSTANT_VALUE.fullmatch(val.text) is None:
            return False
        if self.changeable is False:
            self.changeable = _changeable_names(self._source_text())
        if not self.changeable:
            return False
        counts, changed = self.changeable
        return counts.get(key) == 1 and key not in changed

    def _resolve_name(self, name_node: Node) -> str | None:
        """The literal value of `$x` / `${x}` in command position when the script assigned one."""
        inner = name_node.named_children
        if len(inner) == 1 and inner[0].type == "string" and self.text(inner[0]).count("$") == 1:
            inner = inner[0].named_children  # `"$0"`: one expansion in double quotes
        if len(inner) != 1 or inner[0].type not in ("simple_expansion", "expansion"):
            return None
        parts = inner[0].named_children
        if len(parts) != 1 or parts[0].type != "variable_name":
            return None
        return self.frame.variables.get(self.text(parts[0]))

    # -- commands --
    def _command(self, node: Node, stdin: Stdin | None) -> None:
        argv: list[Arg] = []
        resolved: str | None = None
        nested: list[Node] = []
        selected: list[Arg] = []  # `RAILS_ENV=production`: the environment the command acts in
        glue = ""
        s = self.ascii
        # Where the last argument made of one node ends: the grammar splits a word before a backtick
        # substitution with text after it (`rm a_`x`.o` as `a_` and `` `x`.o ``); touching, they are one.
        joinable = -1
        for child in node.children:
            kind = child.type
            if kind == "word" and s is not None:
                # The bulk of all arguments: cut the plain word straight from the text.
                raw = s[child.start_byte : child.end_byte]
                if child.start_byte == joinable:
                    argv[-1] = _joined(argv[-1], Arg(fold_arg(self._value(child, raw)), raw))
                elif "\\" not in raw:
                    argv.append(_new(Arg, (raw, raw, False, False, False, False)))
                else:
                    argv.append(Arg(fold_arg(self._value(child, raw)), raw))
                joinable = child.end_byte
            elif kind == "command_name":
                first = child.named_child(0) if child.named_child_count == 1 else child
                first_kind = first.type
                if first_kind in ("simple_expansion", "expansion", "string"):
                    resolved = self._resolve_name(child)
                expanded = self._braces(first) if first_kind == "concatenation" else None
                if expanded is not None:
                    argv[0:0] = expanded  # `r{m,} -rf x` runs `rm r -rf x`
                elif resolved is not None:
                    argv.insert(0, Arg(DYN, self.text(first)))  # the sink names `$x` = its value
                else:
                    argv.insert(0, self.arg(first))
                if first_kind not in _LEAVES:
                    nested.append(first)
            elif kind == "variable_assignment":
                self._prefix_assignment(child)
                nested.append(child)
                if self.text(child).partition("=")[0] in _ENVIRONMENT_SELECTORS:
                    selected.append(self.arg(child))
            elif kind == "herestring_redirect":
                if self._fd_before(child) in ("", "0"):
                    stdin = self._herestring(child)
                nested.append(child)
            elif kind == "number" and self.src[child.end_byte : child.end_byte + 1] in (b"<", b">"):
                # `bash 0<&3`, `exec 3<<< x`: the grammar reads the descriptor as an argument.
                continue
            elif kind in _REDIRECTS:
                nested.append(child)
            elif kind == "$" and child.next_sibling is not None and child.next_sibling.type == "string":
                # `rm -r$"f" x`: the grammar splits the word before a locale string `$"..."` (its text when
                # no catalogue translates it) into an anonymous `-r$` and the string: one word `-rf`.
                if child.next_sibling.start_byte == child.end_byte:
                    glue = self.text(child)[:-1]
            elif child.is_named and kind != "comment":
                expanded = self._braces(child) if kind == "concatenation" else None
                if expanded is not None:
                    argv.extend(expanded)  # `rm -r{,f} x` is `rm -r -rf x`
                elif glue:
                    value = self.arg(child)
                    argv.append(Arg(fold_arg(posix_unescape_word(glue) + value.text), f"{glue}${value.raw}"))
                elif child.start_byte == joinable and kind != "process_substitution":
                    # (`--init-file=<(…)` stays two: the file a process substitution names is read apart)
                    argv[-1] = _joined(argv[-1], self.arg(child))
                else:
                    argv.append(self.arg(child))
                joinable = child.end_byte if expanded is None and not glue else -1
                glue = ""
                if kind not in _LEAVES:
                    nested.append(child)
        if self.args_empty:
            # `pytest "$@"`, `rm -f $*`: all the positional parameters, where the line has none, are no word
            argv = [a for a in argv if a.text or a.raw not in _NO_WORDS]
        if self.trailing:
            argv.extend(self.arg(w) for w in self.trailing)  # `rm 2>/dev/null -rf /` runs `rm -rf /`
            nested.extend(w for w in self.trailing if w.type not in _LEAVES)
            self.trailing = []
        if selected and argv and argv[0].text.rpartition("/")[2] in _SELECTOR_READERS:
            # `RAILS_ENV=production rake db:migrate`, read as `rake db:migrate RAILS_ENV=production`
            argv.extend(selected)
        after = node.next_sibling
        if after is not None and after.type == "heredoc_redirect" and after.start_byte > node.end_byte + 1:
            # The grammar drops a word standing just before `<<` (`pwsh -Command - <<EOF`): put back a lone
            # `-`, and refuse anything else it left out.
            dropped = self.src[node.end_byte : after.start_byte].strip()
            if dropped == b"-":
                argv.append(lit("-"))
            elif dropped:
                self.sink.event("parse-error", self.frame, "the parser dropped a word before a here-document")
        while len(argv) > 1 and argv[0].raw in _FISH_PREFIXES:
            argv = argv[1:]  # fish's `and CMD`, `or CMD`, `not CMD` (no program of these names exists)
        if argv and _GLOB_CHARS.search(argv[0].raw) and self._globbed(node):
            argv = self._glob_name(argv, stdin)
        if stdin is not None and argv and argv[0].text == "exec" and all(a.text == "0" for a in argv[1:]):
            # `exec <<< 'x'`, `exec < <(...)`: the rest of the script reads this input.
            self.exec_stdin = stdin
        if stdin is None:
            stdin = self.inherited or self.exec_stdin
        elif self.inherited is not None and stdin is not self.inherited:
            # `echo hi | bash <<EOF`: the grammar hangs the here-document on the whole pipeline; the last
            # command reads it instead of the pipe. Both inputs are checked.
            self.sink.command(argv, self.frame, self.inherited, resolved)
        feeds: tuple[Feed, ...] = ()
        for child in nested:
            if child.type in _HOLDS_SUBSTITUTION:
                feeds += self._substitution_feeds(child)
        if self.stage_feed is not None and any(DYN in a.text for a in argv[1:]):
            feeds += (self.stage_feed,)  # a loop reading the pipe passes the lines on in variables
        self.last_argv = argv
        if feeds:
            self.sink.command(argv, self.frame, stdin, resolved, feeds)
        else:
            self.sink.command(argv, self.frame, stdin, resolved)
        span = self.src[node.start_byte : node.end_byte]
        printed = self._printed_words(argv) if b"$(" in span or b"`" in span else None
        if printed is not None:
            # `cat $(echo -e "\x2f\x65\x74\x63…")`: a word made by a substitution whose output is knowable
            # is checked once more as that output (only ever stricter: the word stays unknown above).
            self.sink.command(printed, self.frame, stdin, resolved)
        last = nested[-1] if nested and _emptiness_probe(argv) and nested[-1].type == "string" else None
        probed = self._probed_variable(last) if last is not None else None
        for child in nested:
            if child.type == "variable_assignment":
                self._children(child)
            elif probed is not None and child is last:
                self._children(probed)  # `test -n "$TOKEN"`: see `_unary`
            elif child.type in _REDIRECTS or not argv or DYN in argv[0].text:
                self.visit(child)
            else:
                before, self.printing = self.printing, (argv[0].text.rpartition("/")[2].lower(), node)
                try:
                    self.visit(child)
                finally:
                    self.printing = before

    def _unary(self, node: Node, stdin: Stdin | None = None) -> None:
        """`[ -z "$TOKEN" ]`, `[[ -n $API_KEY ]]`: whether a variable is empty is all the test tells, so its
        value is not read into anything and the variable rules are not asked; what the expansion holds
        besides (`${X:-$(cmd)}`) is still walked."""
        operator = node.child_by_field_name("operator")
        operands = [c for c in node.named_children if c.type != "test_operator"]
        probed = None
        if operator is not None and self.text(operator) in ("-z", "-n") and len(operands) == 1:
            test = node.parent
            while test is not None and test.type != "test_command":
                test = test.parent
            # In `[ … ]` an unquoted value is split into words, and `[` names the extra ones in its error
            # (`[: sk-abc: binary operator expected`); `[[ … ]]` splits nothing.
            if operands[0].type == "string" or (test is not None and self.text(test)[:2] == "[["):
                probed = self._probed_variable(operands[0])
        if probed is not None:
            self._children(probed)
        else:
            self._children(node, stdin)

    def _probed_variable(self, node: Node) -> Node | None:
        """The expansion `node` is, alone (also inside double quotes), when it only gives a variable's value
        or a default (`$X`, `${X}`, `${X:-}`); None for anything else (`${!X}`, `${X@P}`, `x$X`)."""
        if node.type == "string" and node.named_child_count == 1 and self.text(node)[:1] == '"':
            node = node.named_children[0]
            if self.text(node.parent)[1:-1] != self.text(node):  # type: ignore[arg-type]
                return None
        if node.type == "simple_expansion":
            return node
        if node.type != "expansion":
            return None
        ops = [c.type for c in node.children if not c.is_named and c.type not in ("${", "}")]
        return node if all(op in _DEFAULT_OPERATORS for op in ops) else None

    def _printed_words(self, argv: list[Arg]) -> list[Arg] | None:
        """`argv` with each argument that is a whole command substitution (`$(…)`, `` `…` ``, `"$(…)"`) whose
        output is knowable replaced by that output (split into words unless quoted); None when there is none.
        At most `PRINTED_WORDS` substitutions of one command are computed."""
        out: list[Arg] = []
        known = False
        tried = 0
        for i, a in enumerate(argv):
            if i and a.text == DYN and tried < PRINTED_WORDS and _WHOLE_SUBSTITUTION.fullmatch(a.raw):
                tried += 1
                text = substitution_output(self.sink, a.raw)
                if text is not None:
                    known = True
                    text = text.rstrip("\n")
                    out.extend(
                        [Arg(text, a.raw)] if a.raw[:1] == '"' else [Arg(w, a.raw) for w in text.split()]
                    )
                    continue
            elif i and tried < PRINTED_WORDS and a.text.count(DYN) == 1 and len(a.text) > 1:
                # `cat /etc/$(rev <<< wodahs)`, `/etc/sh$(echo ad)ow`: one substitution glued to literal text
                glued = _GLUED_SUBSTITUTION.fullmatch(a.raw)
                if glued is not None and a.text == glued[1] + DYN + glued[3]:
                    tried += 1
                    text = substitution_output(self.sink, glued[2])
                    if text is not None and not text.strip().count(" ") and "\n" not in text.strip():
                        known = True
                        out.append(Arg(glued[1] + text.strip() + glued[3], a.raw))
                        continue
            out.append(a)
        return out if known else None

    def _braces(self, node: Node) -> list[Arg] | None:
        """The words bash's brace expansion makes of a concatenation (`-r{,f}`, `cu{r,}l`, `{1..3}`), or None
        when it makes just the one word. Only unquoted, unescaped braces and commas count; a word that
        expands to more than `BRACE_LIMIT` words stays one word known only at run time."""
        raw = self.text(node)
        if "{" not in raw or "}" not in raw:
            return None
        self.brace_work[0] -= 5 * len(raw)  # reading a character costs about five copied ones
        if self.brace_work[0] < 0:
            raise TooLarge("its words with braces are too long to expand")
        tokens: list[tuple[bool, str]] = []
        pos = node.start_byte
        for child in node.children:
            if child.start_byte > pos:
                tokens.extend(_active(self.src[pos : child.start_byte].decode("utf-8", "replace")))
            if child.type == "word":
                tokens.extend(_active(self.text(child)))
            else:
                tokens.append((False, self._value(child, self.text(child))))
            pos = child.end_byte
        if not any(special and value == "{" for special, value in tokens):
            return None
        words = _expand_braces(tokens, BRACE_LIMIT, self.brace_work)
        if words is None:
            return [Arg(DYN, raw)]
        if len(words) == 1 and words[0] == "".join(value for _, value in tokens):
            return None  # `{x}`, `a{}b`: braces that expand nothing (`{r..r}m` expands to `rm`)
        self.word_room -= len(words)
        if self.word_room < 0:
            raise TooLarge(f"its braces expand to more than {MAX_WORK:,} words and syntax nodes")
        return [Arg(fold_arg(w), w if DYN not in w else raw) for w in words]

    def _globbed(self, node: Node) -> bool:
        """Does the command word hold an unquoted, unescaped `*`, `?` or `[`? (`/???/?m`, `/bin/r*`)"""
        name = node.child_by_field_name("name")
        if name is None:
            return False
        first = name.named_child(0) if name.named_child_count == 1 else name
        parts = first.children if first.type == "concatenation" else [first]
        # The grammar splits `[r]m` into the words `[`, `r`, `]`, `m`: join the unquoted pieces, with a quoted
        # piece as a stop, so a bracket pattern spread over several words is still seen.
        joined = "".join(self.text(part) if part.type == "word" else "\0" for part in parts)
        return _UNESCAPED_GLOB.search(joined) is not None

    def _glob_name(self, argv: list[Arg], stdin: Stdin | None) -> list[Arg]:
        """The command name is a file-name pattern: which program runs depends on the file system. Each
        well-known program the pattern fits is checked (`/???/?m -rf x` may be `rm -rf x`); the word itself
        stands for a name only known at run time."""
        head = argv[0]
        base = head.text.replace("\\", "/").rsplit("/", 1)[-1]
        fits = any(ch.isalnum() for ch in base)  # a bare `*` fits everything: it says nothing
        for candidate in _GLOB_CANDIDATES if fits else ():
            if glob_match(candidate, base):
                self.sink.command([Arg(candidate, head.raw), *argv[1:]], self.frame, stdin)
        return [Arg(DYN, head.raw), *argv[1:]]

    def _substitution(self, node: Node, stdin: Stdin | None = None) -> None:
        """`$(...)` and backquotes. Inside backquotes `\\``, `\\$` and `\\\\` lose their backslash before the
        text is run, so `` `echo \\`rm -rf x\\`` `` runs a nested substitution the grammar reads as words."""
        raw = self.text(node)
        named = MAKE_VARIABLE.fullmatch(raw)
        if named is not None:
            self.sink.make_variable(named[1], self.frame)
            return
        self._children(node)
        if raw[:1] == "`" and "\\" in raw:
            inner = _BACKQUOTE_ESCAPE.sub(r"\1", raw[1:-1] if raw.endswith("`") else raw[1:])
            if "`" in inner or "$" in inner:
                self.sink.script(inner, "posix", self.frame.nested("backquotes"))

    def _prefix_assignment(self, node: Node) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is not None:
            key = self.text(name)
            val = self.arg(value) if value is not None else Arg("", "")
            self._assigned(key, val)

    def _assigned(self, key: str, val: Arg) -> None:
        """What setting `key` may run: prompts, `BASH_ENV`, history settings; the engine judges the rest
        (git configuration, command-valued variables)."""
        if key in _PROMPT_VARIABLES:
            self._prompt(key, val)
        elif val.raw and (key == "BASH_ENV" or (key == "ENV" and _ENV_FILE.search(val.text))):
            self._sourced(key, val)
        elif key in _HISTORY_VARIABLES:
            # The shell reads these itself, so `HISTFILE=/dev/null` acts as `export HISTFILE=/dev/null` does.
            word = f"{key}={val.text}"
            self.sink.command([Arg("declare", "declare"), Arg(word, f"{key}={val.raw}")], self.frame, None)
        self.sink.assignment(key, val, self.frame)

    def _sourced(self, key: str, val: Arg) -> None:
        """`BASH_ENV=FILE bash -c ...`: every non-interactive bash sources FILE first, like `. FILE` (and an
        interactive `sh` the file `ENV` names, when it names a file: `ENV=production` is a deploy target). The
        shell expands the name first, so a substitution in a quoted value runs too (`BASH_ENV='$(id)'`): read
        as the same name in double quotes."""
        if script_source(val) == "stdin":
            # The shell that reads it may be fed anything (`BASH_ENV=/dev/stdin bash -c x <<< ...`).
            self.sink.event("dynamic-script", self.frame, f"`{key}={val.raw}` sources standard input")
        elif DYN not in val.text and _EXPANDING.search(val.text):
            quoted = val.text.replace("\\", "\\\\").replace('"', '\\"')
            self.sink.script(f'. "{quoted}"', "posix", self.frame.nested(f"`{key}`"))
        else:
            self.sink.script(f". {val.raw}", "posix", self.frame.nested(f"`{key}`"))

    def _prompt(self, key: str, val: Arg) -> None:
        """Bash expands a prompt string again each time it shows it, `$(...)` included: `PS4='$(rm -rf x)'
        bash -x -c true` runs rm. Its text is checked as an unquoted here-document (the same expansions)."""
        if DYN in val.text:
            self.sink.event(
                "dynamic-script", self.frame, f"the prompt `{key}={val.raw}` is only known at run time"
            )
        elif "$" in val.text or "`" in val.text:
            script = f": <<{_PROMPT_END}\n{val.text}\n{_PROMPT_END}"
            self.sink.script(script, "posix", self.frame.nested(f"`{key}`"))

    def _assignment(self, node: Node, stdin: Stdin | None = None) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is not None:
            val = self.arg(value) if value is not None else Arg("", "")
            key = self.text(name)
            if val.literal:
                self.frame.variables[key] = val.text
            else:
                self.frame.variables.pop(key, None)
            if self._constant_assignment(node, key, val):
                self.constants[key] = val.text
            elif (
                value is not None
                and self._made_temp(value)
                and self._constant_assignment(node, key, val, True)
            ):
                self.constants[key] = MADE_TEMP  # `tmp=$(mktemp -d)`: a new name in the temp folder
            else:
                self.constants.pop(key, None)
            own = self._own_default(value, key) if value is not None else None
            if own is not None:
                # `TOKEN="${TOKEN:-}"`: the variable's own value handed back to it reads nothing out and
                # prints nothing; the line sets at most the literal default, judged as set so.
                self._assigned(key, Arg(own, own))
                return
            self._assigned(key, val)
        self._children(node)

    def _made_temp(self, value: Node) -> bool:
        """Is `value` only `$(mktemp …)` (or `"$(mktemp …)"`, `` `mktemp` ``), naming a new file or folder in
        the temp folder: no template, one under `-t`/`--tmpdir`, or one in `$TMPDIR` or `/tmp`, on a line that
        points `TMPDIR` nowhere (`-p ~`, `--tmpdir=/etc`, a template in the project: not here)?"""
        if value.type == "string" and len(value.named_children) == 1:
            value = value.named_children[0]
        if value.type != "command_substitution":
            return False
        text = self.text(value)
        if "mktemp" not in text:
            return False
        words = text[2:-1].split() if text[:2] == "$(" else text[1:-1].split()
        if not words or words[0] != "mktemp":
            return False
        in_temp = False
        template = None
        for w in words[1:]:
            if _MKTEMP_OPTION.fullmatch(w):
                in_temp = in_temp or w == "--tmpdir" or (w[1] != "-" and "t" in w)
            elif template is None and (found := _MKTEMP_TEMPLATE.fullmatch(w)) is not None:
                template = found
            else:
                return False
        if template is not None and template.group(2) is None and not in_temp:
            return False  # `mktemp -d x.XXXX`: a name in the working directory
        return not _either_spelling(lambda text: "TMPDIR" in _TMPDIR_READ.sub("", text), self._source_text())

    def _own_default(self, value: Node, key: str) -> str | None:
        """The literal default of a value that is only the assigned variable's own value or that default
        (`X=$X`, `X="${X:-dummy}"`, `X=${X-}`); None for anything else (`X=${Y:-}`, `X="$X:y"`,
        `X=${X:-$(cmd)}`)."""
        probed = self._probed_variable(value)
        if probed is None:
            return None
        names = [c for c in probed.named_children if c.type == "variable_name"]
        if len(names) != 1 or self.text(names[0]) != key:
            return None
        text = self.text(probed)
        if probed.type == "simple_expansion" or text == "${" + key + "}":
            return ""
        ops = [c.type for c in probed.children if not c.is_named and c.type not in ("${", "}")]
        default = text[2 + len(key) + len(ops[0]) : -1] if len(ops) == 1 else "$"
        return None if _RUN_TIME_TEXT.search(default) else default

    def _for(self, node: Node, stdin: Stdin | None = None) -> None:
        """`for x in a b c; do …; done`: with a short list of literal words that need no quoting, and a
        script that sets `x` nowhere else, the body is walked once per word with `$x` read as it (`> out.$x`
        writes `out.a`, `out.b`, `out.c`); otherwise `$x` stays unknown. A glob (`dist/*.whl`,
        `~/.ssh/*`) is read as the pattern itself, judged like a glob written in place: `> "$x.sha256"`
        writes what `dist/*.whl.sha256` names, `cat $x` reads what `~/.ssh/*` names."""
        name_node = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        values = node.children_by_field_name("value")
        words = [self.arg(v) for v in values]
        name = self.text(name_node) if name_node is not None else ""
        copies = self.loop_copies * len(words)
        if (
            body is None
            or not words
            or copies > MAX_LOOP_COPIES
            or not all(w.literal and (_CONSTANT_VALUE.fullmatch(w.text) or _plain_glob(w)) for w in words)
            or not self._set_only_by_loops(name)
        ):
            self._unrolled_loop(node, body, values)
            return
        before = self.constants.get(name)
        outer = self.loop_copies
        self.loop_copies = copies
        try:
            for copy, w in enumerate(words):
                self.constants[name] = w.text
                self.sink.loop_copy(copy, body.descendant_count)
                self.visit(body)
        finally:
            self.sink.loop_copy(-1)
            self.loop_copies = outer
            if before is None:
                self.constants.pop(name, None)
            else:
                self.constants[name] = before

    def _unrolled_loop(self, node: Node, body: Node | None, values: list[Node]) -> None:
        """A loop over words the walk does not unroll: a command substitution among them feeds the body's
        run-time words, as a pipe into `while read` does (`for p in $(pgrep x); do kill $p; done`). Over that
        substitution alone, the loop's variable is each of its words: `for f in $(find src -name '*.c'); do
        sed -i … "$f"; done` edits what `sed -i … $(find src -name '*.c')` does."""
        feeds = [f for v in values if v.type in _HOLDS_SUBSTITUTION for f in self._substitution_feeds(v)]
        if body is None or not feeds:
            self._children(node)
            return
        feed = feeds[0]
        name_node = node.child_by_field_name("variable")
        if len(values) == 1 and values[0].type == "command_substitution" and name_node is not None:
            name = self.text(name_node)
            if self._only_this_loop_sets(name, values[0]):
                feed = Feed(feed.producer)
                feed.source = "$" + name  # (the words `$f`, `"${f}"` are what `_listed_below` matches)
        for child in node.named_children:
            if child.type in _LEAVES:
                continue
            if child != body:
                self.visit(child)
                continue
            saved, self.stage_feed = self.stage_feed, feed
            try:
                self.visit(child)
            finally:
                self.stage_feed = saved

    def _while(self, node: Node, stdin: Stdin | None = None) -> None:
        """`… | while read -r f; do …; done`: a loop fed a listing through the pipe, whose variable alone
        holds each line, is read as the loop over that listing's words (`_unrolled_loop`): `find docs -name
        '*.md' | while read -r f; do sed -i … "$f"; done` edits what `sed -i … $(find docs -name '*.md')`
        does. Anything else sets nothing more than run-time words (see `_pipeline`)."""
        feed = self.stage_feed
        condition = node.child_by_field_name("condition")
        body = node.child_by_field_name("body")
        parent = node.parent
        if (
            feed is None
            or body is None
            or condition is None
            or self.inherited is None
            or self.inherited.feed is not feed
            or parent is None
            or parent.type != "pipeline"
        ):
            self._children(node, stdin)
            return
        name = self._read_line_name(condition)
        if name is None or not self._only_this_loop_sets(name, condition, 0):
            self._children(node, stdin)
            return
        self.visit(condition)
        named = Feed(feed.producer)
        named.source = "$" + name  # (the words `$f`, `"${f}"` are what `_listed_below` matches)
        self.stage_feed = named
        try:
            self.visit(body)
        finally:
            self.stage_feed = feed

    def _read_line_name(self, condition: Node) -> str | None:
        """The one name `read` fills with a whole line (`read -r f`, `IFS= read -r -d '' f`), or None."""
        if condition.type != "command":
            return None
        argv: list[Arg] = []
        for child in condition.children:
            if child.type == "variable_assignment":
                if self.text(child) != "IFS=":
                    return None
            elif child.is_named:
                argv.append(self.arg(child))
        if len(argv) < 2 or argv[0].raw != "read" or not _READ_NAME.fullmatch(argv[-1].raw):
            return None
        options = argv[1:-1]
        i = 0
        while i < len(options):
            word = options[i].raw
            if word in ("-d", "-rd") and i + 1 < len(options) and options[i + 1].raw in ("''", '""'):
                i += 2
            elif word == "-r":
                i += 1
            else:
                return None
        return argv[-1].raw

    def _only_this_loop_sets(self, name: str, value: Node, loops: int = 1) -> bool:
        """Does nothing but this loop set `name` (no assignment, other loop, default, arithmetic or
        name-binding command)? The loop's own substitution runs in a subshell and is left out: its words
        (`find . -name '*.c'`) bind nothing here. `loops`: the `for` loops naming it, this one included
        (none for a `while` loop, whose `read` command is the `value` left out)."""
        text = self.ascii
        if text is None or self.frame.depth:
            return False
        rest = text[: value.start_byte] + text[value.end_byte :]
        names = _changeable_names(rest)
        return (
            names is not None
            and name not in names[0]
            and _LOOP_NAME.findall(rest).count(name) == loops
            and name not in _DEFAULTED_NAME.findall(rest)
            and not any(name in _IDENTIFIER.findall(inner) for inner in _ARITHMETIC.findall(rest))
        )

    def _set_only_by_loops(self, name: str) -> bool:
        """Whether no assignment, `${x:=…}`, arithmetic or name-binding command of the script may set
        `name` (loops may: each walks its own words). The script is read once for all its loops."""
        if self.changeable is False:
            self.changeable = _changeable_names(self._source_text())
        if not self.changeable or name in self.changeable[0]:
            return False
        if self.rebound is None:
            text = self._source_text()
            self.rebound = set(_DEFAULTED_NAME.findall(text))
            for inner in _ARITHMETIC.findall(text):
                self.rebound.update(_IDENTIFIER.findall(inner))
        return name not in self.rebound

    def _source_text(self) -> str:
        return self.ascii if self.ascii is not None else self.src.decode("utf-8", "replace")

    def _declaration(self, node: Node, stdin: Stdin | None) -> None:
        # `export`, `declare`, `local`, `readonly`, `typeset`, `unset`: a command whose arguments may be
        # assignments.
        argv: list[Arg] = []
        for child in node.children:
            if child.type == "variable_assignment":
                self._assignment(child)
                argv.append(Arg(self.text(child), self.text(child)))
            elif child.is_named and child.type != "comment":
                word = self.arg(child)
                argv.append(word)
                if child.type not in _LEAVES:
                    self.visit(child)
                quoted = _QUOTED_ASSIGNMENT.match(word.text)
                if quoted is not None and argv[0].text != "unset":
                    # `export "LD_PRELOAD=/tmp/x.so"`: a quoted word is the same assignment to the shell.
                    key = quoted.group(1)
                    value = word.text[quoted.end() :]
                    raw = word.raw.partition("=")[2].rstrip("\"'") if "=" in word.raw else value
                    self.frame.variables.pop(key, None)
                    self.constants.pop(key, None)
                    self._assigned(key, Arg(value, raw))
            elif not child.is_named and not argv:
                argv.append(Arg(self.text(child), self.text(child)))
        self.sink.command(argv, self.frame, stdin)

    # -- pipes and redirections --
    def _pipeline(self, node: Node, stdin: Stdin | None) -> None:
        prev: Node | None = None
        for child in node.named_children:
            if child.type == "comment":
                continue
            # Each stage reads what the previous one prints (`echo ... | base64 -d | sh` chains through).
            if prev is not None:
                stdin = self._pipe_from(prev, stdin)
            if stdin is not None and not self._is_simple_stage(child):
                # `... | (sh)`, `... | { sh; }`, `... | if x; then sh; fi`: the commands inside read the pipe.
                saved, self.stage_feed = (
                    self.stage_feed,
                    stdin.feed if stdin.feed is not None else self.stage_feed,
                )
                saved_in, self.inherited = self.inherited, stdin
                try:
                    self.visit(child, stdin)
                finally:
                    self.stage_feed = saved
                    self.inherited = saved_in
            else:
                self.visit(child, stdin)
            prev = child

    @staticmethod
    def _is_simple_stage(node: Node) -> bool:
        if node.type == "redirected_statement":
            body = node.child_by_field_name("body")
            return body is None or body.type == "command"
        return node.type == "command"

    def _pipe_from(self, node: Node, stdin: Stdin | None = None) -> Stdin:
        upstream = stdin.feed if stdin is not None else None
        return Stdin(
            "pipe",
            compute=lambda: self._output_of(node, stdin),
            feed=Feed(partial(self._stage, node, upstream)),
        )

    def _stage(self, node: Node, upstream: Feed | None) -> tuple[list[Arg], Feed | None] | None:
        """The words of a simple command whose output feeds another command, and what feeds it in turn."""
        if node.type == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is None:
                return None
            node = body
        if node.type != "command":
            return None
        argv: list[Arg] = []
        for child in node.children:
            kind = child.type
            if kind == "command_name":
                argv.insert(0, self.arg(child.named_child(0) if child.named_child_count == 1 else child))
            elif child.is_named and kind not in ("variable_assignment", "comment", *_REDIRECTS):
                argv.append(self.arg(child))
        return (argv, upstream) if argv else None

    def _feed_of(self, node: Node) -> Feed | None:
        """The feed of what a statement prints: its last simple command, chained through a pipeline."""
        kind = node.type
        if kind in _SIMPLE_STAGES:
            return Feed(partial(self._stage, node, None))
        if kind == "pipeline":
            feed = None
            for child in node.named_children:
                if child.type != "comment":
                    feed = Feed(partial(self._stage, child, feed))
            return feed
        if kind in ("command_substitution", "subshell", "compound_statement", "list"):
            statements = [c for c in node.named_children if c.type != "comment"]
            return self._feed_of(statements[-1]) if statements else None
        return None

    def _substitution_feeds(self, node: Node) -> tuple[Feed, ...]:
        """`rm $(find .)`, `rm "$(git ls-files)"`: the substitutions whose output becomes operands."""
        if node.type == "command_substitution":
            if _PWD_ALONE.fullmatch(self.text(node)):
                return ()  # `$(pwd)/build`: the working directory, which the word is read as, not a listing
            feed = self._feed_of(node)
            if feed is None:
                return ()
            feed.source = self.text(node)
            return (feed,)
        found: tuple[Feed, ...] = ()
        for child in node.named_children:
            if child.type in _HOLDS_SUBSTITUTION:
                found += self._substitution_feeds(child)
        return found

    # -- functions --
    def _function(self, node: Node, stdin: Stdin | None = None) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is not None and body is not None:
            name = command_key(self.arg(name_node).text)
            if name and self._spawns_itself(body, name, False):
                shown = self.text(name_node)
                self.sink.event(
                    "fork-bomb",
                    self.frame,
                    f"the function `{shown}` runs copies of itself in parallel",
                    [shown],
                )
        self._children(node)

    def _spawns_itself(self, node: Node, name: str, parallel: bool) -> bool:
        """Does `node` run the command `name` in a pipeline or in the background (`:|:&`)?"""
        if node.type == "command":
            if not parallel:
                return False
            head = node.child_by_field_name("name")
            if head is None:
                return False
            first = head.named_child(0) if head.named_child_count == 1 else head
            return command_key(self.arg(first).text) == name
        children = node.children
        in_pipe = parallel or node.type == "pipeline"
        for i, child in enumerate(children):
            if not child.is_named:
                continue
            background = i + 1 < len(children) and children[i + 1].type == "&"
            if self._spawns_itself(child, name, in_pipe or background):
                return True
        return False

    def _output_of(self, node: Node, stdin: Stdin | None) -> str | None:
        if node.type == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is None:
                return None
            for r in _redirects_of(node):
                stdin = self._stdin_of_redirect(r, stdin)
            node = body
        if node.type != "command":
            return None
        argv: list[Arg] = []
        for child in node.children:
            if child.type == "command_name":
                argv.insert(0, self.arg(child))
            elif child.type == "herestring_redirect":
                stdin = self._herestring(child)
            elif child.is_named and child.type not in ("variable_assignment", "comment", *_REDIRECTS):
                argv.append(self.arg(child))
        argv = _past_prefixes(argv)
        return self.sink.static_output(argv, stdin, "posix") if argv else None

    def _herestring(self, node: Node) -> Stdin:
        for child in node.named_children:
            value = self.arg(child)
            if value.text == DYN:
                # `<<< "$(echo ...)"`: what the substitution prints, when that is known.
                return Stdin("herestring", compute=partial(_herestring_of, self.sink, value.raw))
            return Stdin("herestring", value.text + "\n" if value.literal else None)
        return Stdin("herestring", None)

    def _heredoc_text(self, node: Node) -> str:
        # Cut the body from the source: the grammar sometimes parses a body line starting with `\` as
        # words of the redirect and leaves `heredoc_body` empty.
        start = end = None
        quoted = True
        for child in node.children:
            if child.type == "heredoc_start":
                newline = self.src.find(b"\n", child.end_byte)
                start = newline + 1 if newline >= 0 else child.end_byte
                quoted = any(q in self.text(child) for q in "'\"\\")
            elif child.type == "heredoc_end":
                end = child.start_byte
        if start is None or end is None or end < start:
            text = "".join(self.text(c) for c in node.named_children if c.type == "heredoc_body")
        else:
            text = self.src[start:end].decode("utf-8", "replace")
        if not quoted and "\\" in text:
            # An unquoted here-document reaches the program with `\$` and `\`` unescaped: `sh <<EOF` given
            # `\$x -rf y` runs `$x -rf y`. (`\\` is kept: reading it as two backslashes only checks more.)
            text = _HEREDOC_ESCAPE.sub(_heredoc_unescape, text)
        return text

    def _stdin_of_redirect(self, node: Node, stdin: Stdin | None) -> Stdin | None:
        if node.type == "herestring_redirect":
            return self._herestring(node)
        if node.type == "heredoc_redirect":
            return Stdin("heredoc", self._heredoc_text(node))
        if node.type == "file_redirect":
            op = self._operator(node)
            fd = self._descriptor(node) or self._fd_before(node)
            reads_stdin = fd in ("", "0")
            if op == "<&" and reads_stdin:
                target = [c for c in node.named_children if c.type not in ("file_descriptor", "comment")]
                if not target or self.text(target[0]) not in ("-", "0"):
                    return Stdin("descriptor")  # `bash <&3`: whatever was opened on that descriptor
            if op in ("<", "<>") and reads_stdin:
                target = next((c for c in node.named_children if c.type == "process_substitution"), None)
                if target is not None:
                    # `bash < <(echo ...)`: the input is what the substituted commands print.
                    raw = self.text(target)
                    return Stdin("process substitution", compute=lambda: substitution_output(self.sink, raw))
                files = [c for c in node.named_children if c.type not in ("file_descriptor", "comment")]
                name = self.text(files[0]).strip("'\"") if files else ""
                if name in _TERMINALS:
                    return None  # `sh < /dev/tty`: what is typed at the terminal, like no redirection
                if name in _OWN_INPUT:
                    return stdin  # `sh < /dev/stdin`: the input it had anyway
                return Stdin("file", path=self.arg(files[0]) if files else None)
        return stdin

    def _redirected(self, node: Node, stdin: Stdin | None) -> None:
        body = node.child_by_field_name("body")
        redirects = _redirects_of(node)
        for r in redirects:
            stdin = self._stdin_of_redirect(r, stdin)
        self.last_argv = None
        if body is not None:
            if body.type == "command":
                self.trailing = [w for r in redirects for w in _words_after_target(r)]
                try:
                    self.visit(body, stdin)
                finally:
                    self.trailing = []
            else:
                # tree-sitter-bash hangs `a && sh <<EOF` off the whole list; give every command in it the
                # input (bash gives it to the last one, or to a whole group): checking more only blocks more.
                saved, self.inherited = self.inherited, stdin
                try:
                    self.visit(body, stdin)
                finally:
                    self.inherited = saved
        self.empty_output = self._writes_nothing(body)
        self.writer = self.last_argv if body is not None and body.type == "command" else None
        self.writer_stdin = stdin if self.writer is not None else None
        self.writer_output = self._feed_of(body) if body is not None and body.type != "command" else None
        try:
            for r in redirects:
                if r.type == "heredoc_redirect":
                    self._heredoc(r, None, body, stdin)
                else:
                    self.visit(r)
        finally:
            self.empty_output = False
            self.writer = None
            self.writer_stdin = None
            self.writer_output = None

    def _writes_nothing(self, body: Node | None) -> bool:
        """Is `body` no statement at all (`> f`) or one that prints nothing (`:`, `true`, `false`, `cat
        /dev/null`): its output redirection then only empties the file?"""
        if body is None:
            return True
        while body.type in ("list", "pipeline") and body.named_child_count:
            # tree-sitter-bash hangs `a && : > f` and `a | : > f` off the whole list; the shell redirects the
            # last command only.
            body = body.named_children[-1]
        if body.type != "command":
            return False
        words = [self.text(c) for c in body.named_children if c.type in ("command_name", "word")]
        if not words:
            return False
        if words[0] in (":", "true", "false"):
            return True
        return words[0] == "cat" and len(words) > 1 and all(w == "/dev/null" for w in words[1:])

    def _heredoc(
        self,
        node: Node,
        _stdin: Stdin | None = None,
        body: Node | None = None,
        body_stdin: Stdin | None = None,
    ) -> None:
        # tree-sitter-bash hangs the rest of the line (`| sh`, `&& x`) under the heredoc redirect itself.
        for child in node.named_children:
            kind = child.type
            if kind == "heredoc_body":
                self._children(child)
                self._heredoc_backticks(node, child)
            elif kind in ("heredoc_start", "heredoc_end", "comment", "word"):
                continue
            elif kind == "pipeline" and child.child_count and child.children[0].type in ("|", "|&"):
                feed = self._pipe_from(body, body_stdin) if body is not None else Stdin("pipe", None)
                self._pipeline(child, feed)
            else:
                self.visit(child)

    def _heredoc_backticks(self, node: Node, body: Node) -> None:
        """Backquoted commands in an unquoted here-document run when the shell reads it; the grammar leaves
        them as text (`cat <<EOF` / `` `rm -rf x` `` / `EOF`)."""
        text = self.text(body)
        if "`" not in text:
            return
        start = next((c for c in node.children if c.type == "heredoc_start"), None)
        if start is not None and any(q in self.text(start) for q in "'\"\\"):
            return  # a quoted delimiter: the body is taken literally
        inner = self.frame.nested("a here-document")
        for m in _BACKTICKS.finditer(text):
            self.sink.script(m.group(1).replace("\\`", "`"), "posix", inner)
        if _BACKTICKS.sub("", text).replace("\\`", "").count("`"):
            self.sink.event("parse-error", self.frame, "a here-document holds an unmatched backquote")

    @staticmethod
    def _operator(node: Node) -> str:
        for child in node.children:
            if not child.is_named:
                return child.type
        return ""

    def _fd_before(self, node: Node) -> str:
        """The digits written right before a redirection (`3<<< x`) that the grammar left in the command."""
        start = end = node.start_byte
        while start > 0 and 48 <= self.src[start - 1] <= 57:
            start -= 1
        if start == end or (start > 0 and self.src[start - 1] not in b" \t"):
            return ""
        return self.src[start:end].decode()

    def _descriptor(self, node: Node) -> str:
        return next((self.text(c) for c in node.children if c.type == "file_descriptor"), "")

    @staticmethod
    def _has_descriptor(node: Node) -> bool:
        return any(c.type == "file_descriptor" for c in node.children)

    def _file_redirect(self, node: Node, stdin: Stdin | None = None) -> None:
        op = self._operator(node)
        targets = [c for c in node.named_children if c.type not in ("file_descriptor", "comment")]
        fd = next((self.text(c) for c in node.children if c.type == "file_descriptor"), "")
        # The grammar files the words after the target under the redirection: the command's arguments
        # (`_words_after_target`), or the descriptor of the next redirection (`>& x 0>&1`).
        for target in targets[:1]:
            arg = self.arg(target)
            if self.writer_output is None:
                self.sink.redirect(
                    fd + op, arg, self.frame, self.empty_output, self.writer, self.writer_stdin
                )
            else:
                self.sink.redirect(fd + op, arg, self.frame, self.empty_output, output=self.writer_output)
        for target in targets:
            if target.type not in _LEAVES:
                self.visit(target)

    # -- expansions --
    def _expansion(self, node: Node, stdin: Stdin | None = None) -> None:
        name = ""
        ops: list[str] = []
        for child in node.children:
            kind = child.type
            if kind == "variable_name" and not name:
                name = self.text(child)
            elif kind == "special_variable_name":
                continue  # `$!`, `$$`, `$?`: shell state, not the environment
            elif not child.is_named and kind not in ("$", "${", "}"):
                ops.append(kind)
            elif kind not in _LEAVES:
                self.visit(child)
        if not name:
            return
        raw = self.text(node)
        if node.type == "expansion":
            if ops[:1] == ["!"]:
                named = self.constants.get(name) if len(ops) == 1 else None
                if (
                    named is not None
                    and _PLAIN_VARIABLE.fullmatch(named)
                    and not _PLACE_VARIABLE.fullmatch(named)
                ):
                    # `name=VERSION; echo "${!name}"`: the script names the variable read, once, literally
                    self.sink.variable(named, self.frame, raw)
                    return
                # `${!x}` reads a variable named at run time; `${!AWS*}` lists variable names.
                self.sink.variable(
                    "!" + name + ("*" if "*" in ops or "@" in ops[1:] else ""), self.frame, raw
                )
                return
            if "@" in ops and "P" in ops:
                # Prompt expansion runs `$(...)` found inside the variable's value.
                self.sink.event("dynamic-script", self.frame, f"`{raw}` expands the value as a prompt string")
                value = self.frame.variables.get(name)
                if value is not None:
                    self.sink.script(value, "posix", self.frame.nested(f"`{raw}`"))
                return
        # (only the plain value: `${HISTFILE:=/dev/null}` sets it)
        self.sink.variable(name, self.frame, raw, None if ops else self._printing_program(node))

    def _printing_program(self, node: Node) -> str | None:
        """The program given expansion `node` as (part of) an argument word of its own simple command, if it
        is the one whose words are being walked; None inside a substitution or anything else."""
        if self.printing is None:
            return None
        program, command = self.printing
        parent = node.parent
        while parent is not None and parent.type in ("string", "concatenation"):
            parent = parent.parent
        return program if parent is not None and parent == command else None


_PLAIN_VARIABLE = lazy_re(r"[A-Za-z_][A-Za-z0-9_]*")
"""A shell variable's name (`${!name}` reads the variable `name` holds the name of)."""
_PLACE_VARIABLE = lazy_re(
    r"(?i)HOME\w*|PWD|OLDPWD|TMPDIR|TMP|TEMP|USERPROFILE|XDG_\w+|\w*PATH\w*|SHELL|IFS|PS\d"
    r"|\w*(?:HOST|IP|URL|URI|ADDR|ADDRESS|SERVER|ENDPOINT|DOMAIN)(?:_\w*)?"
)
"""Variables that name where the user is or another machine (their words are judged by that spelling) or
change how the shell reads: `${!name}` naming one stays a run-time read."""
_BACKQUOTE_ESCAPE = lazy_re(r"\\([`$\\])")
_FISH_PREFIXES = frozenset({"and", "or", "not"})
_GLOB_CHARS = lazy_re(r"[*?\[]")
_EXPANDING = lazy_re(r"\$[({]|`")
"""Text the shell would expand by running something: `$(…)`, `${…}` (`${x:-$(…)}`), backquotes."""
_ENV_FILE = lazy_re(r"/|\$[({]|`")
"""An `ENV` value sh sources: a path, or text the shell expands by running something (`ENV=production` is no
file)."""
_PLAIN_GLOB = lazy_re(r"(?!-)[\w./+,:@%=~*?-]*[*?][\w./+,:@%=~*?-]*")
"""An unquoted glob of file names (`dist/*.tar.gz`, `~/.ssh/*`): nothing a blank or a bracket could change."""


def _plain_glob(word: Arg) -> bool:
    return word.raw == word.text and _PLAIN_GLOB.fullmatch(word.text) is not None


_TRIM = lazy_re(r"\$\{([A-Za-z_]\w*)(%%|%|##|#)([\w./+,:@=*?-]*)\}")
"""`${f%.png}`, `${f##*/}`: a constant's value with a pattern cut from its end or start (no quotes, no `~`,
no expansion in the pattern)."""
_LAST_EXTENSION = lazy_re(r"\.[\w+,:@=-]+\Z")


def _trimmed(value: str, op: str, pattern: str) -> str | None:
    """What `${x%P}` (`%%`, `#`, `##`) leaves of `value`, a literal or a loop's glob (`*.flac`, which the walk
    reads as the pattern itself); None when a glob's names may lose more or less than the pattern does.
    A literal pattern is cut where it stands (`${f%.flac}` of `*.flac` is `*`); of a glob's wildcards only
    the usual two are read: `${f%.*}` drops the extension a glob's names all end with, `${f##*/}` keeps the
    last component, in which a glob's `*` finds no `/`."""
    suffix = op[0] == "%"
    if not any(c in pattern for c in "*?"):
        if not pattern:
            return value
        if value.endswith(pattern) if suffix else value.startswith(pattern):
            return value[: len(value) - len(pattern)] if suffix else value[len(pattern) :]
        if suffix and "/" not in pattern:
            return value  # (the names a glob matches lose at most a tail of their last component)
        return None if any(c in value for c in "*?") else value
    if not any(c in value for c in "*?"):
        # the shortest cut first for `%` and `#`, the longest for `%%` and `##`
        at = range(len(value), -1, -1) if op in ("%", "##") else range(len(value) + 1)
        for i in at:
            if glob_match(value[i:] if suffix else value[:i], pattern):
                return value[:i] if suffix else value[i:]
        return value
    if op == "%" and pattern == ".*":
        last = _LAST_EXTENSION.search(value, value.rfind("/") + 1)
        if last is not None:
            return value[: last.start()]
        return None
    if op == "##" and pattern == "*/":
        return value.rpartition("/")[2]
    return None


_HEREDOC_ESCAPE = lazy_re(r"\\([$`\\])")


def _heredoc_unescape(m: re.Match[str]) -> str:
    return m.group(0) if m.group(1) == "\\" else m.group(1)


def _shell_quote(text: str) -> str:
    return '"$x"' if text == DYN else "'" + text.replace("'", "'\\''") + "'"


_QUOTED_ASSIGNMENT = lazy_re(r"([A-Za-z_][A-Za-z0-9_]*)=")
"""The `NAME=` a declaration's quoted word starts with (`export "PATH=…"`)."""
_PROMPT_VARIABLES = frozenset({"PS0", "PS1", "PS2", "PS4"})
_ENVIRONMENT_SELECTORS = frozenset({"RAILS_ENV", "RACK_ENV", "MIX_ENV", "DJANGO_SETTINGS_MODULE"})
"""Variables choosing the environment, and so the database, a framework's tasks act on: set before a command
they are read as a word after it, as rake reads `rake db:migrate RAILS_ENV=production`."""
_SELECTOR_READERS = frozenset(
    {"rake", "rails", "bundle", "mix", "python", "python3", "manage.py", "django-admin"}
)
"""The frameworks' task runners those variables are read as words of (any other program, `rm -rf tmp/cache`,
keeps its own words)."""
_HISTORY_VARIABLES = frozenset(
    {"HISTFILE", "HISTSIZE", "HISTFILESIZE", "SAVEHIST", "HISTCONTROL", "HISTIGNORE"}
)
"""The shell's history settings, read by the shell itself whether exported or not."""
_PROMPT_END = "__GLMAGENT_PROMPT__"
_UNESCAPED_GLOB = lazy_re(r"(?<!\\)[*?]|(?<!\\)\[[^\]]+\]")
_GLOB_CANDIDATES = (
    "rm", "rmdir", "shred", "dd", "mkfs", "wipefs", "truncate", "chmod", "chown", "find", "xargs", "git",
    "curl", "wget", "nc", "ncat", "netcat", "socat", "ssh", "scp", "sftp", "rsync", "telnet", "ftp",
    "printenv", "env", "set", "export", "sh", "bash", "dash", "zsh", "ksh", "python", "python3", "perl",
    "ruby", "node", "php", "eval", "sudo", "pip", "npm",
)  # fmt: skip
"""Programs a file-name pattern in command position is tried as (`/???/?m` fits `rm`)."""

BRACE_LIMIT = 1024
"""At most this many words from one brace expansion; more stands for a word only known at run time."""
BRACE_WORK = 100_000
"""Characters brace expansion may copy over one script (about 15 ms): a word that needs more stands for a
word only known at run time, and words with braces too long to even read make the script too large to check
(a 50 kB word with ten `{a,b}` would make 1,024 words of 50 kB)."""
_SEQUENCE = lazy_re(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?|([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?")


def _active(text: str) -> list[tuple[bool, str]]:
    """Unquoted word text as brace-expansion tokens: (True, c) for a `{`, `,` or `}` that counts."""
    out: list[tuple[bool, str]] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            out.append((False, text[i + 1]))
            i += 2
            continue
        out.append((ch in "{,}", ch))
        i += 1
    return out


def _sequence(text: str, limit: int) -> list[str] | bool | None:
    """`1..5`, `01..10..3`, `a..e`: the items; False when it is no sequence; None when it is too long."""
    m = _SEQUENCE.fullmatch(text)
    if m is None:
        return False
    if m.group(1) is not None:
        a, b = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3) or 1)) or 1
        if abs(b - a) // step + 1 > limit:
            return None
        width = max(len(m.group(1)), len(m.group(2)))
        pad = any(g.lstrip("-").startswith("0") and len(g.lstrip("-")) > 1 for g in (m.group(1), m.group(2)))
        numbers = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [str(x).zfill(width) if pad else str(x) for x in numbers]
    a, b = ord(m.group(4)), ord(m.group(5))
    step = abs(int(m.group(6) or 1)) or 1
    letters = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
    return [chr(x) for x in letters]


def _brace_pairs(tokens: list[tuple[bool, str]]) -> dict[int, tuple[int, list[int]]]:
    """Each `{` that a `}` closes: its index -> (the `}`'s index, the indexes of the commas directly in it).
    One pass: looking for each `{`'s `}` from the `{` on cost the square of a word of unclosed ones."""
    pairs: dict[int, tuple[int, list[int]]] = {}
    open_: list[tuple[int, list[int]]] = []
    for j, (special, ch) in enumerate(tokens):
        if not special:
            continue
        if ch == "{":
            open_.append((j, []))
        elif ch == "}":
            if open_:
                i, commas = open_.pop()
                pairs[i] = (j, commas)
        elif open_:
            open_[-1][1].append(j)
    return pairs


def _expand_braces(
    tokens: list[tuple[bool, str]], limit: int, work: list[int] | None = None
) -> list[str] | None:
    """Bash brace expansion over tokens; None when it makes more than `limit` words, or would copy more
    characters than `work` still holds (`BRACE_WORK` when not given)."""
    n = len(tokens)
    if work is None:
        work = [BRACE_WORK]
    work[0] -= n
    if work[0] < 0:
        return None
    pairs = _brace_pairs(tokens)
    for i in range(n):
        if i not in pairs:
            continue
        close, commas = pairs[i]
        parts: list[list[tuple[bool, str]]]
        if commas:
            bounds = [i, *commas, close]
            parts = [tokens[bounds[k] + 1 : bounds[k + 1]] for k in range(len(bounds) - 1)]
        else:
            inner = tokens[i + 1 : close]
            items = _sequence("".join(v for _, v in inner), limit) if all(not s for s, _ in inner) else False
            if items is None:
                return None
            if items is False:
                continue
            parts = [[(False, item)] for item in items]
        before, after = tokens[:i], tokens[close + 1 :]
        words: list[str] = []
        for part in parts:
            more = _expand_braces(before + part + after, limit, work)
            if more is None:
                return None
            words.extend(more)
            if len(words) > limit:
                return None
        return words
    return ["".join(v for _, v in tokens)]


_PREFIXES = frozenset({"exec", "command", "builtin", "nohup", "sudo", "doas", "time", "env", "nice"})


def _past_prefixes(argv: list[Arg]) -> list[Arg]:
    """`sudo echo x`, `timeout 5 printf x`, `env A=1 echo x`: the command whose output it is (prefixes that
    take options other than assignments are left alone: the output is then unknown, which only blocks)."""
    for _ in range(8):
        if not argv:
            break
        name = command_key(argv[0].text)
        if name in _PREFIXES:
            rest = argv[1:]
            while name == "env" and rest and _ASSIGNMENT_WORD.match(rest[0].text):
                rest = rest[1:]
            argv = rest
        elif name == "timeout" and len(argv) > 2 and argv[1].text[:1].isdigit():
            argv = argv[2:]
        else:
            break
    return argv


_ASSIGNMENT_WORD = lazy_re(r"[A-Za-z_][A-Za-z0-9_]*=")
_WHOLE_SUBSTITUTION = lazy_re(r'"?(?:\$\(.*\)|`[^`]*`)"?', re.DOTALL)
"""A word that is one command substitution, quoted or not."""
_GLUED_SUBSTITUTION = lazy_re(r"""([^$`"'\\\s]*)(\$\([^()]*\)|`[^`]*`)([^$`"'\\\s]*)""")
"""A word of literal text and one command substitution (`/etc/$(echo c2hhZG93 | base64 -d)`)."""
PRINTED_WORDS = 8
"""Substitutions of one command whose output is computed to check the command with it."""


def _herestring_of(sink: Sink, raw: str) -> str | None:
    text = substitution_output(sink, raw)
    return None if text is None else text.rstrip("\n") + "\n"


_TERMINALS = frozenset({"/dev/tty", "/dev/console"})
_OWN_INPUT = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0"})


def _words_after_target(redirect: Node) -> list[Node]:
    """The words the grammar hangs on a file redirection after its target: arguments of the command, except
    a number glued to the next redirection (`0` of `>& x 0>&1`), which is that redirection's descriptor."""
    if redirect.type != "file_redirect":
        return []
    targets = [c for c in redirect.named_children if c.type not in ("file_descriptor", "comment")][1:]
    if targets and targets[-1].type == "number":
        after = redirect.next_sibling
        if after is not None and after.start_byte == targets[-1].end_byte:
            targets = targets[:-1]
    return targets


def _redirects_of(node: Node) -> list[Node]:
    """The redirections of a `redirected_statement` (the grammar tags some, after a compound body, with no
    field name: `if ...; fi <<< 'x'`)."""
    return [c for c in node.children if c.type in _REDIRECTS]


_BACKTICKS = lazy_re(r"`((?:[^`\\]|\\.)*)`", re.DOTALL)


_DEFAULT_OPERATORS = frozenset({":-", "-", ":+", "+"})
_RUN_TIME_TEXT = lazy_re(r"[$`\\*?\[{}~'\"]")
"""Characters that make a default's text more than itself (expansions, escapes, quotes, globs, tildes)."""
"""Expansion operators that give a variable's value or a literal instead (`${X:-}`, `${X+set}`)."""


def _joined(first: Arg, second: Arg) -> Arg:
    """Two arguments the grammar split that the shell reads as one word."""
    return Arg(first.text + second.text, first.raw + second.raw)


def _emptiness_probe(argv: list[Arg]) -> bool:
    """`test -z WORD`, `test -n WORD`, `[ -n WORD ]`: a command that only asks whether WORD is empty (when
    WORD is quoted: unquoted, the words it splits into are named in test's error)."""
    if argv and argv[0].text == "[" and argv[-1].text == "]":
        argv = argv[:-1]
    return len(argv) == 3 and argv[0].text in ("test", "[") and argv[1].text in ("-z", "-n")


_HANDLERS: dict[str, Callable[[PosixWalker, Node, Stdin | None], None]] = {
    "command": PosixWalker._command,
    "unary_expression": PosixWalker._unary,
    "declaration_command": PosixWalker._declaration,
    "unset_command": PosixWalker._declaration,
    "redirected_statement": PosixWalker._redirected,
    "pipeline": PosixWalker._pipeline,
    "variable_assignment": PosixWalker._assignment,
    "simple_expansion": PosixWalker._expansion,
    "expansion": PosixWalker._expansion,
    "file_redirect": PosixWalker._file_redirect,
    "herestring_redirect": PosixWalker._children,
    "heredoc_redirect": PosixWalker._heredoc,
    "function_definition": PosixWalker._function,
    "for_statement": PosixWalker._for,
    "while_statement": PosixWalker._while,
    "command_substitution": PosixWalker._substitution,
}


def _join_continued_lines(text: str) -> str | None:
    """`text` with every backslash-newline outside single quotes removed, as bash reads it; None when it
    holds a here-document or a comment (where the removal differs), so the text is taken as it is."""
    if "<<" in text or "#" in text:
        return None
    out: list[str] = []
    i = 0
    n = len(text)
    quote = ""
    while i < n:
        ch = text[i]
        if quote == "'":
            out.append(ch)
            if ch == "'":
                quote = ""
            i += 1
            continue
        if ch == "\\" and i + 1 < n:
            if text[i + 1] == "\n":
                i += 2
                continue
            out.append(text[i : i + 2])
            i += 2
            continue
        if ch == "'" and not quote:
            quote = "'"
        elif ch == '"':
            quote = "" if quote == '"' else '"'
        out.append(ch)
        i += 1
    return "".join(out)


_BRACE_COMMAND = lazy_re(r"(^|[;&|(\n])([ \t]*)\{(?=[^\s{}]*(?:,|\.\.)\S*\})")
"""A brace expansion in command position (`{rm,-rf,x}`, `{r..r}m`): a word to bash, a broken group to the
grammar."""


def walk(sink: Sink, frame: Frame, src: bytes, root: Node, text: str | None = None) -> None:
    """Report every command in `root` (a parsed POSIX script, `text` its decoded source) to `sink`."""
    if text is not None and "\\\n" in text:
        joined = _join_continued_lines(text)
        if joined is not None and joined != text:
            # `r\<newline>m -rf x` is `rm -rf x`: the grammar reads a backslash-newline as a blank.
            text = joined
            src = joined.encode("utf-8", "replace")
            root = parse(src).root_node
    if root.has_error and text is not None and "{" in text:
        # `{rm,-rf,x}` runs `rm -rf x`, `{r..r}m` runs `rm`; written `''{rm,-rf,x}` (the same word) the
        # grammar reads it.
        fixed = _BRACE_COMMAND.sub(r"\1\2''{", text)
        if fixed != text:
            text = fixed
            src = fixed.encode("utf-8", "replace")
            root = parse(src).root_node
    walker = PosixWalker(sink, frame, src, text)
    walker.word_room = MAX_WORK - root.descendant_count
    walker.visit(root)


# -- fast path --
_PLAIN = lazy_re(r"[\w./:@%+,=~^*?-]+(?: [\w./:@%+,=~^*?-]+)*", re.ASCII)
"""A line of words made only of characters that bash takes literally (no quotes, expansions, operators)."""
_WORD = r"""(?:[\w./:@%+,=~^*?-]|'[^'\n]*'|"[^"$`\\!\n]*")+"""
_QUOTED_LINE = lazy_re(f"{_WORD}(?: {_WORD})*", re.ASCII)
_QUOTED_WORD = lazy_re(_WORD, re.ASCII)
"""The same with quoted parts: single quotes hold anything, double quotes nothing bash expands."""
_PIECE = lazy_re(r"[\w./:@%+,=~^*?-]+|'([^']*)'|" + r'"([^"]*)"', re.ASCII)
_NOT_A_COMMAND_NAME = frozenset(
    {
        "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done",
        "in", "function", "time", "coproc", "declare", "export", "local", "readonly", "typeset", "unset",
        "unsetenv", "and", "or", "not",
    }
)  # fmt: skip


def simple_command(text: str, root: Node) -> list[Arg] | None:
    """The words of a script that is one simple command of literal words (`git status`,
    `sed -n '1,80p' f`, `git log --grep="fix"`), else None.

    Such words are their values with the quotes taken off, so they are cut from the text instead of
    walking the tree; the tree only confirms the shape (one command, its words parsed as the nodes their
    quoting makes), and anything else takes the walk.
    """
    if "'" not in text and '"' not in text:
        if not _PLAIN.fullmatch(text):
            return None
        words = text.split(" ")
        first = words[0]
        if "=" in first or first in _NOT_A_COMMAND_NAME or _GLOB_CHARS.search(first):
            return None  # an assignment, a keyword, or a file-name pattern as the program: take the walk
        # program > command > (command_name > word), word...: any other node means another shape.
        if root.descendant_count != len(words) + 3 or root.child(0).type != "command":
            return None
        return [_new(Arg, (w, w, False, False, False, False)) for w in words]
    if not _QUOTED_LINE.fullmatch(text):
        return None
    argv: list[Arg] = []  # the quotes make concatenations and strings: count the nodes they make
    nodes = 3  # program > command > command_name
    for word in _QUOTED_WORD.findall(text):
        quote = word[0]
        if (quote == "'" or quote == '"') and word[-1] == quote and word.count(quote) == 2:
            # One quoted string: a raw_string, or a string with its two quotes and its content.
            argv.append(_new(Arg, (word[1:-1], word, False, False, False, False)))
            nodes += 1 if quote == "'" else (4 if len(word) > 2 else 3)
            continue
        if "'" not in word and '"' not in word:
            argv.append(_new(Arg, (word, word, False, False, False, False)))
            nodes += 1
            continue
        values = []
        count = 0
        for match in _PIECE.finditer(word):
            piece = match.group(0)
            if piece[0] == "'":
                values.append(match.group(1))
                count += 1  # raw_string
            elif piece[0] == '"':
                values.append(match.group(2))
                count += 4 if match.group(2) else 3  # string > '"', string_content, '"'
            else:
                values.append(piece)
                count += 1  # word
        nodes += count + 1 if len(values) > 1 else count  # a concatenation node joins the parts
        argv.append(Arg("".join(values), word))
    head = argv[0]
    if "=" in head.raw or head.text in _NOT_A_COMMAND_NAME or not head.text or _GLOB_CHARS.search(head.raw):
        return None
    if root.descendant_count != nodes or root.child(0).type != "command":
        return None
    return argv


_AT_NAME = lazy_re(r"(?m)(^|[;&|(]\s*|\s(?:then|do|else)\s+)([A-Za-z_][\w.+-]*@[\w.@+:-]*)(?=[ \t]|$)")
"""`poetry@main --version`: a command word holding `@`, which the grammar reads as the start of `$@`."""


_LITERAL_DOLLAR = lazy_re(r"""'[^']*'|"(?:\\.|[^"\\])*"|\\.|\$(?=[%+,./:=\]^~};&|<>)])""")
"""A `$` that starts no expansion (`regex=/_$/`, `sed s/x$/y/`, `a$.b`): bash keeps it as a literal `$`, the
grammar stops there. Quoted strings and escapes are matched only to be skipped."""


_PLACEHOLDER = lazy_re(
    r"""'[^']*'|"(?:\\.|[^"\\])*"|\\."""
    r"|(?<![<>&|\w$])<([A-Za-z_][\w.:/-]*(?: [A-Za-z_][\w.:/-]*){0,3})>(?![>&(])"
)
"""A reference's placeholder (`git tag -a <tagname>`, `grep -r <pattern> <dir>`, `docker exec <container
id> sh`): to a shell, a redirection from `tagname` and one to whatever word follows; glued to a pipe
(`echo <payload>|base64 -d`) the `>|` is bash's clobbering redirection to the word after it. Quoted strings
and escapes are matched only to be skipped."""
_NO_REDIRECT_WORD = lazy_re(r"[ \t]*(?:\Z|[|;&<>)]|(?<=[ \t])#)")
"""What may follow a `>` where a shell needs the word to write to: the line's end, an operator, a comment."""


def _placeholders_filled(text: str) -> str | None:
    """`text` with its placeholders written as the values they stand for, known only when someone fills
    them in (`git tag -a ${tagname}`, `exploit.py ${DC_IP}`), when one of them leaves a `>` with nothing
    to write to: a shell refuses such a line whole (bash: "syntax error near unexpected token"), so none of
    it runs, and the filled-in line is what it would run once completed. None when the shell would run the
    line as written (`cmd <in> out` writes `out`; see `placeholders_filled_in`) or it spans lines (the lines
    before one a shell refuses run)."""
    found = _placeholders(text)
    if not any(_refused_after(text, m.end()) for m in found):
        return None
    return placeholders_as_values(text, found)


def _refused_after(text: str, end: int) -> bool:
    """Does the `>` closing a placeholder that ends at `end` leave nothing to write to? `<x>|y` is bash's
    `>|y`, a redirection it runs; `<x> | y` and `<x>` at the end are not."""
    if text.startswith("|", end) and _NO_REDIRECT_WORD.match(text, end + 1) is None:
        return False
    return _NO_REDIRECT_WORD.match(text, end) is not None


def placeholders_filled_in(text: str) -> str | None:
    """The other reading of a one-line `text` the shell runs as written although it holds placeholders
    (`docker exec -it <container> sh` reads the file `container` and writes the file `sh`): the line as it
    runs once someone fills them in (`docker exec -it ${container} sh`); None for a line with none, or one
    the shell refuses (which `repair` completes)."""
    found = _placeholders(text)
    if not found or any(_refused_after(text, m.end()) for m in found):
        return None
    return placeholders_as_values(text, found)


def _placeholders(text: str) -> list[re.Match[str]]:
    if "\n" in text or "<" not in text:
        return []
    return [m for m in _PLACEHOLDER.finditer(text) if m[1]]


_MAKE_AUTOMATIC = lazy_re(r"(?<!\$)\$[<^+]")
"""make's automatic variables a shell cannot read (`$<` is a `$` and a redirection to bash): the first
prerequisite, all of them. make puts their file names there before the shell runs the line."""
_MAKE_BRACED = lazy_re(r"\$\{(?:[<^+%][DF]?(?::[^{}\s'\"]*)?|[@*?][DF]|[@*][DF]?:[^{}\s'\"]*=[^{}\s'\"]*)\}")
"""The same and `$@` braced, whole or with a substitution reference (`${^}`, `${<:.md=.tex}`,
`"${@:.pdf=}.tex"`, `${@D}`), which no shell reads either (`$(@:.pdf=)` reads as a command substitution)."""


_MARKED_COMPOUND = lazy_re(r"\A[ \t]*[@+-][@+ \t-]*(?=(?:for|if|while|until|case|select)[ \t]|[({[!])")
"""`@for f in $(FILES); do …; done`, `-@(cd docs && make)`: a make recipe line whose marks (echo off, ignore
errors, run under -n) stand before a compound command; make strips them, the grammar cannot read them."""


_BRACED_NAME = lazy_re(
    r"(?m)(^|[;&|(]\s*|\s(?:then|do|else)\s+)(\{[A-Za-z_](?:[\w:-]|\.(?!\.))*\}[\w./-]*)(?=[ \t]|$)"
)
"""`{envpython} -m pytest`, `{envbindir}/pytest` (tox's substitutions, copied from a tox.ini): a command word
opening with a brace, which the grammar takes for a group; with no comma or `..` in it the shell expands
nothing and runs the word as written."""


_JUST_INTERPOLATION = lazy_re(r"(?<![$\\{])\{\{(?!\{)([^{}\n]{1,200})\}\}")
"""`cargo test -- {{ args }}`, `{{ _cargo }} fmt` (a justfile's recipe line): just puts the expression's value
there before the shell runs the line, so it is a word only known at run time, like `$args`. A CI system's
`${{ secrets.X }}` is no such word: the line stays unreadable."""


def _just_value(match: re.Match[str]) -> str:
    name = re.sub(r"\W+", "_", match[1].strip()).strip("_") or "value"
    return "${just_" + name[:40] + "}"


_LAST_OPERATOR_WORD = lazy_re(
    r"""'[^']*'|"(?:\\.|[^"\\])*"|(?<=[ \t])(==|=~)(?=[ \t]*(?:$|[|;&)\n]))""", re.MULTILINE
)
"""`grep ==` (before the end, `|`, `;`, `&`, `)`): a plain word, which the grammar takes for half a test;
quoted strings are matched first only to be skipped."""


def marked_compound(source: str) -> bool:
    """Does `source` start with make's marks before a compound command (`@for …`), which the grammar reads
    without an error but wrongly (`@for` as a command, `do …` as another), so `repair` must respell it?"""
    return source[:1] in "@+- \t" and _MARKED_COMPOUND.match(source) is not None


_SHELL_TOKEN = lazy_re(
    r"""'[^']*'?|"(?:\\.|[^"\\])*"?|\\.|<<<|<<|&&|\|\||[;&|()\n]|(?<![^\s;&|()])#|[^\s;&|()'"\\]+"""
)
"""One token of a shell line, roughly: a quoted string, an escape, an operator, a comment's start, a word. A
here-string (`<<<`) is a token of its own: its word is on the line, unlike a here-document's (`<<`)."""
_OPENERS = {"if": "fi", "for": "done", "while": "done", "until": "done", "select": "done", "{": "}"}
_LEADS_TO_COMMAND = frozenset({"then", "do", "else", "elif", "{", "!", "if", "while", "until"})


def _closed(text: str) -> str | None:
    """`text` with the closing words it leaves open appended (`if git status; then` + ` :; fi`), or None when
    nothing is left open or the line is too unusual to close safely (a `case`, a here-document, a comment,
    a line ending in `&&`, `|` or `&`). Given a line that opens a compound without closing it, a shell runs
    none of that line; the closed line is what it would run once complete, and is judged as such."""
    body = text.rstrip()
    if body.endswith(";") and not body.endswith(";;"):
        body = body[:-1].rstrip()
    stack: list[list[str]] = []  # [opener, its middle word seen ("then"/"do") or ""]
    at_command = True
    last = ""
    for m in _SHELL_TOKEN.finditer(body):
        token = m[0]
        last = token
        unclosed = token[:1] in ("'", '"') and (len(token) < 2 or token[-1] != token[0])
        # A comment would swallow the closers; case patterns and here-documents read otherwise.
        if unclosed or token in ("#", "<<", "case", "esac"):
            return None
        if token in (";", "&&", "||", "|", "&", "(", "\n"):
            at_command = True
            continue
        if not at_command:
            continue
        at_command = token in _LEADS_TO_COMMAND
        if token in _OPENERS:
            stack.append([token, ""])
        elif token in ("then", "do"):
            if not stack or _OPENERS[stack[-1][0]] != ("fi" if token == "then" else "done"):
                return None
            stack[-1][1] = token
        elif token in ("elif", "else"):
            if not stack or stack[-1][0] != "if":
                return None
            stack[-1][1] = "" if token == "elif" else "then"
        elif token in ("fi", "done", "}"):
            if not stack or _OPENERS[stack[-1][0]] != token:
                return None
            stack.pop()
    if not stack or last in ("&&", "||", "|", "&", "(", "!"):
        return None
    parts: list[str] = []
    needs_command = last in _LEADS_TO_COMMAND
    for opener, middle in reversed(stack):
        closer = _OPENERS[opener]
        if opener != "{" and not middle:
            if needs_command:
                return None  # `if` or `while` with no condition yet
            parts.append("then :" if closer == "fi" else "do :")
        elif needs_command:
            parts.append(":")
        parts.append(closer)
        needs_command = False
    joined = "; ".join(parts)
    return f"{body} {joined}" if last in _LEADS_TO_COMMAND else f"{body}; {joined}"


_CLOSERS = frozenset({"fi", "done", "esac", "}"})
_CLOSER_PAIR = lazy_re(r"(?:(?<![\w$./-])(?:fi|done|esac)|(?<=\s)\})[ \t]+(?:fi|done|esac|\})(?![\w./-])")
"""A closing word right after another (`fi done`), screened before `_closers_separated` walks the tokens."""


def _closers_separated(text: str) -> str:
    """`text` with a `;` between a compound's closing word and the next closing word (`…; fi done`, `…; }
    done`, `…; esac done`: a Makefile recipe's lines ending in `fi` and `done`, joined by make). Bash reads
    the second word as closing the outer compound, as after a `;`; the grammar wants the `;`. Quoted strings
    are left as they are; a line with a comment or a here-document is not respelled."""
    if _CLOSER_PAIR.search(text) is None:
        return text
    parts: list[str] = []
    at = 0
    at_command = True
    closed = False  # the previous token closed a compound where a command could start
    for m in _SHELL_TOKEN.finditer(text):
        token = m[0]
        if token in ("#", "<<"):
            return text
        if token in (";", "&&", "||", "|", "&", "(", ")", "\n"):
            at_command, closed = True, False
            continue
        if not at_command:
            continue
        if token in _CLOSERS:
            if closed:
                parts.append(text[at : m.start()].rstrip(" \t") + "; ")
                at = m.start()
            closed = True
            continue
        at_command, closed = token in _LEADS_TO_COMMAND, False
    return "".join(parts) + text[at:] if parts else text


def repair(source: str) -> str | None:
    """Respell valid shell text the grammar rejects without changing its words: a command name holding an
    `@` (`pipx run poetry@main`, `poetry@main --version`) or opening with a brace that expands nothing
    (`{envpython} -m pytest`) is quoted, which is the same word to the shell; so is a word `==` or `=~` that
    ends a command (`… | grep == | sort`). A justfile's `{{ expr }}` becomes the run-time word it stands
    for. A Makefile's `$$` (`GIT_TAG=$$(git describe) go generate`, which no shell reads as written: the line
    runs only through make) becomes the `$` make hands the shell, its automatic variables that no shell
    reads (`re2c -o $@ $<`, `$^`, `$+`) the run-time words make fills in, and a `$` that starts no expansion
    (`sed s/x$/y/`) is escaped, which bash keeps as the same literal `$`. A line a shell refuses whole is
    judged as it would run once completed: its placeholders filled in (`_placeholders_filled`), its open
    compounds closed (`_closed`)."""
    text = _MARKED_COMPOUND.sub("", source, count=1)
    if "$" in text:
        text = _MAKE_AUTOMATIC.sub(MAKE_AUTOMATIC_WORD, text)
        if "${" in text:
            text = _MAKE_BRACED.sub(MAKE_AUTOMATIC_WORD, text)
    if "$$" in text:
        text = text.replace("$$", "$")
    text = _AT_NAME.sub(lambda m: f"{m[1]}'{m[2]}'", text)
    if "{" in text:
        text = _JUST_INTERPOLATION.sub(_just_value, text)
        text = _BRACED_NAME.sub(lambda m: f"{m[1]}'{m[2]}'", text)
    if "=" in text:
        text = _LAST_OPERATOR_WORD.sub(lambda m: f"'{m[1]}'" if m[1] else m[0], text)
    if "$" in text and "<<" not in text:  # a quoted here-document would keep the backslash
        text = _LITERAL_DOLLAR.sub(lambda m: "\\$" if m[0] == "$" else m[0], text)
    if "<" in text:
        text = _placeholders_filled(text) or text
    if "done" in text or "fi" in text or "}" in text:
        text = _closers_separated(text)
    closed = _closed(text)
    if closed is not None:
        text = closed
    return text if text != source else None


def substitution_output(sink: Sink, raw: str) -> str | None:
    """What a substitution used as a whole word prints, when its commands' output is knowable from their
    words: `<(echo 'rm -rf x')`, `"$(printf ...)"`, `` `echo x` ``, `$(echo ... | base64 -d)`; else None."""
    inner = raw
    if inner[:1] == '"' and inner[-1:] == '"' and len(inner) > 1:
        inner = inner[1:-1]
    if inner.startswith(("<(", "$(")) and inner.endswith(")") and not inner.startswith("$(("):
        inner = inner[2:-1]
    elif len(inner) > 1 and inner[0] == "`" and inner[-1] == "`" and inner.count("`") == 2:
        inner = inner[1:-1]
    else:
        return None
    src = inner.encode("utf-8", "replace")
    root = parse(src).root_node
    if root.has_error:
        return None
    statements = [c for c in root.named_children if c.type != "comment"]
    if len(statements) != 1:
        return None
    walker = PosixWalker(sink, Frame("posix"), src, inner)
    node = statements[0]
    if node.type != "pipeline":
        return walker._output_of(node, None)
    stdin: Stdin | None = None
    previous: Node | None = None
    for child in node.named_children:
        if child.type == "comment":
            continue
        if previous is not None:
            stdin = walker._pipe_from(previous, stdin)
        previous = child
    return walker._output_of(previous, stdin) if previous is not None else None
