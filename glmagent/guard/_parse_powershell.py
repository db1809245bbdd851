"""Walk a tree-sitter-powershell tree and report commands, variables, .NET types and redirections."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from ._lazy import lazy_re
from ._listings import LISTINGS, bound_reference, listing_patterns, rebinds
from ._normalise import command_key, fold_arg, ps_unescape
from ._paths import DOTNET_WRITERS, install_folder_variable
from ._sink import Sink
from ._syntax import DYN, Arg, Feed, Frame, Stdin, new_parser, parse_within_budget, placeholders_as_values

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

_new = tuple.__new__
"""Makes an `Arg` of all five fields without the named tuple's Python-level `__new__` (see `_parse_posix`)."""

_local = threading.local()


def parser() -> Parser:
    """A PowerShell parser for this thread."""
    p = getattr(_local, "parser", None)
    if p is None:
        p = new_parser("powershell")
        _local.parser = p
    return p


def parse(source: bytes) -> Any:
    """Parse PowerShell source; callers check `root_node.has_error`."""
    try:
        return parse_within_budget(_local.parser, source)
    except AttributeError:
        return parse_within_budget(parser(), source)


# Expression levels that wrap a single operand; peeled off to see whether an argument is a plain literal.
_WRAPPERS = frozenset(
    {
        "logical_expression",
        "bitwise_expression",
        "comparison_expression",
        "additive_expression",
        "multiplicative_expression",
        "format_expression",
        "range_expression",
        "array_literal_expression",
        "unary_expression",
        "pipeline",
        "pipeline_chain",
        "argument_expression",
        "logical_argument_expression",
        "bitwise_argument_expression",
        "comparison_argument_expression",
        "additive_argument_expression",
        "multiplicative_argument_expression",
        "format_argument_expression",
        "range_argument_expression",
        "left_assignment_expression",
        "integer_literal",
    }
)
_LEAVES = frozenset(
    {
        "command_argument_sep",
        "comment",
        "verbatim_string_characters",
        "verbatim_here_string_characters",
        "decimal_integer_literal",
        "hexadecimal_integer_literal",
        "real_literal",
        "simple_name",
        "type_identifier",
        "empty_statement",
        "assignement_operator",
        "comparison_operator",
        "format_operator",
        "file_redirection_operator",
        "merging_redirection_operator",
    }
)
_EXPRESSIONS = (_WRAPPERS - {"pipeline", "pipeline_chain"}) | {
    "string_literal",
    "expression_with_unary_operator",
}
"""Expression kinds: in them variables need `$`/`@`, types `[`, and commands `(`, `$(`, `@(` or `{`."""
_REPORTABLE = lazy_re(r"[$@\[({]")
_SAME_SPAN = _WRAPPERS - {"pipeline", "pipeline_chain", "integer_literal"}
"""Expression levels that wrap one operand with nothing around it, so the whole chain shares one span."""
_CHAIN_ENDS = frozenset(
    {"variable", "decimal_integer_literal", "hexadecimal_integer_literal", "real_literal", "string_literal"}
)
_STRING_BODIES = frozenset(
    {
        "verbatim_string_characters",
        "expandable_string_literal",
        "verbatim_here_string_characters",
        "expandable_here_string_literal",
    }
)


def _chain_end(node: Node) -> Node | None:
    """The operand at the bottom of a chain of single-operand expression levels, found in one step.

    Every level of such a chain spans the same bytes, so the smallest named node spanning them is the
    operand (or, for a string, its body, whose parent is the string). None unless the result is one of the
    operands that stepping level by level would stop at; the caller then steps.
    """
    end = node.named_descendant_for_byte_range(node.start_byte, node.end_byte)
    if end is None:
        return None
    kind = end.type
    if kind in _STRING_BODIES:
        end = end.parent
        kind = end.type if end is not None else ""
    return end if kind in _CHAIN_ENDS else None


_DASHES = ("-", "\u2013", "\u2014", "\u2015")
_REPORTING_PARAMETERS = frozenset({
    "erroraction", "warningaction", "informationaction", "progressaction", "verbose", "debug", "encoding",
})  # fmt: skip
"""Common parameters a default may set without changing what a command acts on (see `_reporting_default`)."""
_NOW = lazy_re(r"\(*\s*(?:get-date|\[(?:system\.)?datetime\]::(?:utc)?now)\s*\)*", re.IGNORECASE)
"""A value that is the current time: setting a file's time to it is `touch`."""
_HIDING = lazy_re(r"hidden|system", re.IGNORECASE)
_MEMBER_OF = frozenset({"member_access", "invokation_expression", "element_access"})
"""Expressions whose first operand is the object they read from (`$f.FullName`, `$f[0]`, `$f.Name.Trim()`)."""
_FOREACH_OBJECT = frozenset({"foreach-object", "%", "foreach"})
_TO_UNDO = lazy_re(r"[$`\"']")
"""What a bare command name may hold that PowerShell expands, unescapes or joins (`v"ssadmin"`, `n`et`)."""
_READ_ONLY_MEMBER = lazy_re(r"(?i)\$executioncontext\.sessionstate\.languagemode")
"""Properties of an object that is otherwise code to the policy, read as plain values: the session's language
mode (whether it is constrained) runs, loads and expands nothing."""
_REFERENCES = frozenset({"variable", "member_access", "string_literal"})
"""Expressions that may be a loop's whole item (`$f`, `$_.FullName`, `"$_"`)."""
_RENAMES = frozenset({"rename-item", "rni", "ren"})
_HIDDEN_NAMES = lazy_re(r"(?i)\.(?:git|hazina)\b|\{.*\{")
"""A new name's block that may name the folders nothing writes into, or holds a block of its own."""
_WHERE_OBJECT = frozenset({"where-object", "?", "where"})
_FILTER_STRINGS_MAX = 16
"""String literals of a `Where-Object` block checked as its words (a filter compares a few values)."""
_FILTER_PARAMETERS = {"get-nettcpconnection": frozenset({"state"})}
"""Cmdlets with a parameter that filters their output as a `Where-Object` comparing the property of that name
does: `Get-NetTCPConnection | ? State -eq Listen` lists what `Get-NetTCPConnection -State Listen` does."""
_EQUALITY_FILTER = lazy_re(
    r"(?i)(?:where-object|where|\?)\s+(?:\{\s*\$(?:_|psitem)\.(\w+)\s+-[ic]?eq\s+(['\"]?)(\w+)\2\s*\}"
    r"|(\w+)\s+-[ic]?eq\s+(['\"]?)(\w+)\5)\s*"
)
"""A `Where-Object` stage that only keeps objects whose one property equals one plain word."""
_FOLDABLE = frozenset({"additive_expression", "format_expression", "expression_with_unary_operator"})
_FORMAT_FIELD = lazy_re(r"\{(\d+)\}")
_SUBSTITUTIONS = frozenset({"command", "pipeline_chain", "sub_expression", "array_expression"})
"""Argument kinds (after peeling) whose value is a command's output: `(gci -r)`, `$(...)`, `@(...)`."""
_RANGE = lazy_re(r"[-+]?\d+(?:\.\d+)?\.\.")
"""`1..$n`: a statement starting with a number is an expression, never a command."""
_SIGNED_NUMBER = lazy_re(r"[-+]\d+(?:\.\d+)?")
_VAR_IN_WORD = lazy_re(r"\$(?:\{([^}]*)\}|([\w:?]+|[$^]))")
"""A variable in an expandable word: `${any name}`, `$name` (letters, digits, `_`, `?`, a scope's or drive's
`:`), or `$$` and `$^`. A name ends at the next `$`: `x$env:KEY$HOME` reads `env:KEY`, then `HOME`."""
_PLAIN_VARIABLE = lazy_re(r"\$([\w:?]+|[$^])")
_VAR_NAME_CHARS = lazy_re(r"[\w:?^$]*")
"""A run of the characters any variable's name or `$` may be made of (a superset, looked back over)."""


def _variables_in(raw: str) -> Iterator[tuple[str, str]]:
    """The variables PowerShell expands in a bare word, as (name, spelling): `${any name}` and `$name`, as
    `_VAR_IN_WORD` finds them, one at a time (a word may hold thousands: the reader stops once the line
    is too large). Where no `}` follows, that expression looked for one from each `${` through the rest
    of the word (`${${${…` of 9 kB took 160 ms): from the first such `${` (and the name characters just
    before it, which `$$` may run into) only plain names are looked for."""
    cut = raw.find("${", raw.rfind("}") + 1)
    if cut == -1:
        cut = len(raw)
    else:
        cut -= _VAR_NAME_CHARS.match(raw[cut - 1 :: -1] if cut else "").end()  # the name run before it
    for m in _VAR_IN_WORD.finditer(raw, 0, cut):
        yield m.group(1) or m.group(2) or "", m.group(0)
    for m in _PLAIN_VARIABLE.finditer(raw, cut):
        yield m.group(1), m.group(0)


_SIMPLE_EXPANDABLE = lazy_re(r'"([^"`$]*+(?:\$(?:\{[^}]*\}|[\w:?]++|[$^])[^"`$]*+)+)"')
"""A double-quoted word whose only expansions are plain variables (`"env:$name"`, no `$(...)`). Possessive:
a run of variables (`$a$a…`) is read one way only, not again in others when the word then fails to match
(a backtick or quote further on)."""


_PLAIN_VALUE = frozenset(
    {
        "pipeline", "pipeline_chain", "logical_expression", "bitwise_expression", "comparison_expression",
        "additive_expression", "multiplicative_expression", "format_expression", "range_expression",
        "array_literal_expression", "unary_expression", "string_literal", "expandable_string_literal",
        "verbatim_string_characters", "variable", "braced_variable", "comparison_operator",
        "parenthesized_expression", "array_expression", "statement_list",
    }
)  # fmt: skip
"""Syntax a value made of strings, variables and operators alone is built from (`-join`, `-replace`, an array
of such values: `@($env:PSModulePath, '.\\modules') -join ';'`): no command, subexpression, member or
script block that could print it or pass it on."""


_SEPARATOR_CONSTANT = lazy_re(
    r"\[(?:system\.)?io\.path\]::(?:pathseparator|directoryseparatorchar|altdirectoryseparatorchar)", re.I
)
"""`[System.IO.Path]::PathSeparator` and its kin: a constant character, as plain as a string."""


def _plain_value(node: Node) -> bool:
    """Is `node` made of strings, variables, operators and path-separator constants alone, one pipeline stage
    (no `| Tee-Object`)?"""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "member_access" and _SEPARATOR_CONSTANT.fullmatch(
            (current.text or b"").decode("utf-8", "replace")
        ):
            continue
        if current.type not in _PLAIN_VALUE or (
            current.type == "pipeline_chain" and current.named_child_count > 1
        ):
            return False
        stack.extend(current.named_children)
    return True


def _variable_name(raw: str) -> str:
    """`$env:PATH` / `${env:PATH}` / `@splat` -> `env:PATH` / `env:PATH` / `splat`."""
    name = raw[1:]
    if name.startswith("{") and name.endswith("}"):
        name = name[1:-1]
    return ps_unescape(name, False)


class PowerShellWalker:
    """One walk over one parsed PowerShell script."""

    __slots__ = (
        "ascii",
        "bound",
        "empty_output",
        "extending",
        "filter",
        "folded",
        "frame",
        "glued",
        "listed",
        "namespaces",
        "next_reportable",
        "opaque",
        "piped",
        "read_into",
        "sink",
        "splats",
        "src",
        "stage_feed",
        "var_feeds",
        "writer",
    )

    def __init__(self, sink: Sink, frame: Frame, src: bytes, text: str | None = None) -> None:
        self.sink = sink
        self.frame = frame
        self.src = src
        self.ascii = text if text is not None and text.isascii() else None
        """The source as text when it is pure ASCII: byte offsets are then character offsets, so node text
        is sliced out of it directly instead of slicing and decoding bytes per node."""
        self.glued: tuple[str, int] | None = None
        """A redirection operator that ended a bare word with the file in the next one (`echo x>> f.txt`):
        the operator and the index of that next word among the command's words."""
        self.next_reportable = (-1, -1)
        """The last `_inert` search of the ASCII source: where it started and the first `$ @ [ ( {` from there
        (the source's length if none)."""
        self.extending: str | None = None
        """The environment variable (`env:path`, folded) an assignment sets from a plain string holding its
        own value (`$env:Path = "C:\\tools;$env:Path"`): that read hands the value back, printing nothing."""
        self.stage_feed: Feed | None = None
        """What feeds the pipeline stage whose script blocks are being walked (`$_` is its output)."""
        self.bound: dict[str, list[str]] = {}
        """Loop variables over a listing of the project's files (`$_`, `$f`), by folded name: the globs the
        item they hold matches, which a word that is the whole item (`$f`, `$_.FullName`) is read as."""
        self.listed: dict[tuple[int, int], list[Arg]] = {}
        """The words of the listing commands read so far (`gci *.md`), by their span: a loop over one's
        output reads it back."""
        self.splats: dict[str, list[Arg]] = {}
        """Variables assigned a literal hashtable or array, by folded name: the words `@name` passes."""
        self.var_feeds: dict[str, Feed] = {}
        self.read_into: dict[str, str] = {}
        """Variables assigned a file's whole content (`$c = Get-Content f -Raw | ConvertFrom-Json`), by folded
        name: the file read. Written back from the variable, the file is edited in place."""
        self.namespaces: list[str] = []
        self.piped: Node | None = None
        """The pipeline stage whose output feeds the command about to be read."""
        self.filter: Node | None = None
        """The pipeline stage the output of the command about to be read is piped into."""
        self.empty_output = False
        """The expression whose redirections are being read writes nothing (`$null > f`, `'' > f`)."""
        self.writer: list[Arg] | None = None
        """The command whose own redirections are being read (`echo x > f.ps1`): what it prints is written."""
        self.folded: list[tuple[Arg, str]] = []
        """Arguments of the command being read joined from strings and variables the script gave literals
        (`$x = 'en'; gci ($x + 'v:')`), with the value they then have."""
        self.opaque: list[Arg] = []
        """Arguments of the command being read that are computed from literals alone in a way the policy
        does not evaluate (`'env:'.Trim()`, `([string]'env:')`): any value, a drive name included."""
        """Namespaces of `using namespace N` statements: `[TcpClient]` may then be `[N.TcpClient]`."""
        """Variables holding a command's output (`$f = gci -r`), by folded name: what feeds their readers."""

    def visit(self, node: Node, stdin: Stdin | None = None) -> None:
        while True:
            kind = node.type
            handler = _HANDLERS.get(kind)
            if handler is not None:
                handler(self, node, stdin)
                return
            if kind in _EXPRESSIONS and self._inert(node):
                return
            count = node.named_child_count
            if count == 1:
                # Expression levels nest one operand deep many times over; descend without recursing.
                # A chain of them spans the same bytes and holds nothing but the operand: jump to it.
                if kind in _SAME_SPAN:
                    end = node.named_descendant_for_byte_range(node.start_byte, node.end_byte)
                    node = end if end is not None and end != node else node.named_child(0)
                else:
                    node = node.named_child(0)
                stdin = None
                continue
            if count:
                for child in node.named_children:
                    if child.type not in _LEAVES:
                        self.visit(child)
            return

    def _inert(self, node: Node) -> bool:
        """An expression without `$ @ [ ( {` holds no variable, .NET type or command: nothing to report.

        Literals sit ten expression levels deep; one search of their text replaces the descent.
        """
        s = self.ascii
        if s is not None:
            # Nested levels start further in and the first reportable character is the same for all of
            # them: one search serves the whole chain (`-not -not … $a` stays linear).
            start = node.start_byte
            searched, found = self.next_reportable
            if not searched <= start <= found:
                m = _REPORTABLE.search(s, start)
                found = m.start() if m is not None else len(s)
                self.next_reportable = (start, found)
            return found >= node.end_byte
        return _REPORTABLE.search(self.text(node)) is None

    def text(self, node: Node) -> str:
        s = self.ascii
        if s is not None:
            return s[node.start_byte : node.end_byte]
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    # -- values --
    @staticmethod
    def peel(node: Node) -> Node:
        """Descend through single-operand expression levels (and plain parentheses) to the operand."""
        jumped = False
        while True:
            kind = node.type
            if (kind in _WRAPPERS or kind == "parenthesized_expression") and node.named_child_count == 1:
                if not jumped and kind in _SAME_SPAN:
                    jumped = True  # one try per chain: a miss means the chain ends in something else
                    end = _chain_end(node)
                    if end is not None:
                        node = end
                        continue
                node = node.named_child(0)
                continue
            return node

    def value(self, node: Node) -> str:
        """Literal value of an expression, with DYN for anything computed at run time."""
        node = self.peel(node)
        kind = node.type
        raw = self.text(node)
        if self.bound and kind in _REFERENCES:
            patterns = self._bound_patterns(raw)
            if patterns:
                return patterns[0] if len(patterns) == 1 else DYN  # `gci *.md | % { "$_" }` is `*.md`
        if kind == "string_literal":
            return self._string(node, raw)
        if kind == "generic_token":
            return self._bare(raw)
        if kind in ("decimal_integer_literal", "hexadecimal_integer_literal", "real_literal", "command_name"):
            return raw
        if kind == "expression_with_unary_operator" and _SIGNED_NUMBER.fullmatch(raw):
            return raw  # `kill -9 -1`: negative numbers are values, not parameters
        if kind in _FOLDABLE:
            return self._fold(node, kind)
        return DYN

    def _strings(self, nodes: list[Node]) -> list[str] | None:
        """The values of string literals, or None unless every node is one with a literal value."""
        out = []
        for n in nodes:
            n = self.peel(n)
            if n.type != "string_literal":
                return None
            text = self._string(n, self.text(n))
            if DYN in text:
                return None
            out.append(text)
        return out

    def _items(self, node: Node) -> list[str] | None:
        """The strings of `'a', 'b'` (or of one string literal), else None."""
        node = self.peel(node)
        if node.type == "array_literal_expression":
            return self._strings([c for c in node.named_children if c.type != "comment"])
        return self._strings([node])

    def _fold(self, node: Node, kind: str) -> str:
        """String operators on literals, evaluated as PowerShell does: `'Remove' + '-Item'`,
        `'{0}-{1}' -f 'Remove', 'Item'`, `-join ('Remove', '-Item')`. Anything else is DYN."""
        parts = [c for c in node.named_children if c.type != "comment"]
        if kind == "additive_expression":
            ops = [c.type for c in node.children if not c.is_named]
            if ops and all(op == "+" for op in ops):
                strings = self._strings(parts)
                if strings is not None:
                    return "".join(strings)
        elif kind == "format_expression" and len(parts) == 3 and self.text(parts[1]).strip().lower() == "-f":
            fmt = self._strings([parts[0]])
            items = self._items(parts[2])
            if fmt is not None and items is not None:
                pieces = _FORMAT_FIELD.split(fmt[0])
                if not any("{" in p or "}" in p for p in pieces[::2]):
                    out = []
                    for i, piece in enumerate(pieces):
                        if i % 2 == 0:
                            out.append(piece)
                        elif int(piece) < len(items):
                            out.append(items[int(piece)])
                        else:
                            return DYN
                    return "".join(out)
        elif kind == "expression_with_unary_operator" and len(parts) == 1:
            first = node.children[0] if node.child_count else None
            if first is not None and first.type.lower() == "-join":
                items = self._items(parts[0])
                if items is not None:
                    return "".join(items)
        return DYN

    def _string(self, node: Node, raw: str) -> str:
        if raw.startswith("@'"):
            return raw[2:-2].strip("\r\n")
        if raw.startswith("'"):
            return raw[1:-1].replace("''", "'")
        # Expandable string: any variable or $( ) inside makes the value dynamic, unless every `$( )` holds
        # only a literal (`"$('En' + 'v'):"` is the word `Env:`).
        inner = node.named_children[0] if node.named_child_count else None
        if inner is not None and inner.named_child_count:
            return self._expand(node, inner, raw)
        body = raw[2:-2].strip("\r\n") if raw.startswith('@"') else raw[1:-1].replace('""', '"')
        if "$" in body.replace("`$", ""):
            return DYN
        return ps_unescape(body, True)

    def _expand(self, node: Node, inner: Node, raw: str) -> str:
        """`"a$('b')c"`: the value of a one-line expandable string whose `$( )` parts are all literals."""
        if raw[:1] != '"' or raw[-1:] != '"' or len(raw) < 2:
            return DYN
        src = self.src
        pos = node.start_byte + 1
        out = []
        for part in inner.named_children:
            if part.start_byte == node.start_byte + 1 and self._location(part, node.end_byte - 1):
                # `"$PWD\build"`, `"$PWD"`: the working directory, followed through the moves
                out.append(".")
                pos = part.end_byte
                continue
            if part.type != "sub_expression":
                return DYN
            statements = [c for c in part.named_children if c.type not in _LEAVES]
            while len(statements) == 1 and statements[0].type == "statement_list":
                statements = [c for c in statements[0].named_children if c.type not in _LEAVES]
            if len(statements) != 1:
                return DYN
            value = self.value(statements[0])
            if DYN in value:
                return DYN
            out.append(src[pos : part.start_byte].decode("utf-8", "replace"))
            out.append(value.replace("`", "``").replace("$", "`$").replace('"', '""'))
            pos = part.end_byte
        out.append(src[pos : node.end_byte - 1].decode("utf-8", "replace"))
        body = "".join(out)
        if "$" in body.replace("``", "").replace("`$", ""):
            return DYN
        return ps_unescape(body.replace('""', '"'), True)

    def _location(self, part: Node, closing: int = -1) -> bool:
        """Is `part` of a string the working directory (`$PWD`, `$(Get-Location)`) followed by a path
        separator (or by the string's `closing` quote: `"$PWD"` is that folder itself), in the line's own
        script, which gives neither another meaning?"""
        after = self.src[part.end_byte : part.end_byte + 1]
        if after not in (b"\\", b"/") and part.end_byte != closing:
            return False
        if _LOCATION.fullmatch(self.text(part)) is None or self.frame.depth:
            return False
        source = self._source()
        return (
            _LOCATION_REDEFINED.search(source) is None
            and _LOCATION_REDEFINED.search(source.translate(_PS_QUOTING)) is None
        )

    @staticmethod
    def _bare(raw: str) -> str:
        if "$" in raw.replace("`$", ""):
            return DYN
        if '"' in raw or "'" in raw:
            raw = _joined_quotes(raw)
        return ps_unescape(raw, False)

    def arg(self, node: Node) -> Arg:
        raw = self.text(node)
        return Arg(fold_arg(self.value(node)), raw)

    # -- commands --
    def _command_name(self, node: Node) -> tuple[Arg, str | None]:
        if node.type == "command_name":
            raw = self.text(node)
            if ">" in raw and _GLUED_REDIRECT.search(raw) is not None:
                # `2>nul Remove-Item x`: a redirection written first hides the command name from the grammar.
                return Arg(DYN, raw), None
            if self.ascii is not None and not _TO_UNDO.search(raw):
                return Arg(raw, raw), None  # nothing to undo or expand
            # `v"ssadmin"`, `ne''t`: PowerShell joins a bare word's quoted pieces, as in arguments; a name
            # that leaves nothing is no name the policy can read (fail closed)
            name = fold_arg(self._bare(raw))
            return Arg(name if name.strip() else DYN, raw), None
        # `& <expr>` / `. <expr>`: a literal string or path is a name; anything else is decided at run time.
        inner = self.peel(node)
        if inner.type == "command_name_expr" and inner.named_child_count == 1:
            inner = self.peel(inner.named_children[0])
        if inner.type == "script_block_expression" or (
            inner.type == "command_name_expr" and any(c.type == "script_block" for c in inner.named_children)
        ):
            return Arg(DYN, self.text(inner), block=True), None
        if inner.type == "command_name":
            raw = self.text(inner)
            return Arg(fold_arg(self._bare(raw)), raw), None
        if inner.type == "path_command_name":
            raw = self.text(inner)
            resolved = None
            if inner.named_child_count == 1 and inner.named_children[0].type == "variable":
                resolved = self.frame.variables.get(_variable_name(raw).casefold())
            first = inner.named_children[0] if inner.named_child_count else None
            if (
                first is not None
                and first.start_byte == inner.start_byte
                and first.type == "variable"
                and self._location(first)
                and sum(c.type == "variable" for c in inner.named_children) == 1
            ):
                # `. $PWD\scripts\common.ps1`: a script of the working directory
                rest = self.src[first.end_byte : inner.end_byte].decode("utf-8", "replace")
                return Arg(fold_arg(ps_unescape("." + rest, False)), raw), None
            if any(c.type == "variable" for c in inner.named_children):
                return Arg(DYN, raw), resolved
            return Arg(fold_arg(ps_unescape(raw, False)), raw), None
        if inner.type == "variable":
            raw = self.text(inner)
            return Arg(DYN, raw), self.frame.variables.get(_variable_name(raw).casefold())
        if inner.type in _FOLDABLE or (
            inner.type == "string_literal"
            and inner.named_child_count
            and inner.named_children[0].named_child_count
        ):
            # `& ('Remove' + '-Item')`: a name computed when the command runs, even from literals; it is
            # checked as what it evaluates to, and still blocks as a run-time name.
            folded = self.value(inner)
            return Arg(DYN, self.text(inner)), folded if DYN not in folded else None
        return self.arg(inner), None

    def _elements(self, node: Node, argv: list[Arg], later: list[Node]) -> None:
        outer, self.glued = self.glued, None
        try:
            self._element_words(node, argv, later)
            if self.glued is not None and self.glued[1] < len(argv):
                # `echo LIB=%LIB%>> %GITHUB_ENV%`: the word after the operator is the file it writes
                op, index = self.glued
                self.sink.redirect(op, argv.pop(index), self.frame)
        finally:
            self.glued = outer

    def _element_words(self, node: Node, argv: list[Arg], later: list[Node]) -> None:
        children = node.named_children
        s = self.ascii
        n = len(children)
        i = 0
        while i < n:
            child = children[i]
            kind = child.type
            i += 1
            if kind == "command_argument_sep":
                if i < n and ":" in self.text(child) and children[i].type not in _NOT_GLUED:
                    # `"x":F` (how cmd writes `icacls … /grant "x":F`): PowerShell ends the word at the
                    # closing quote and passes `:F` as the next one; the grammar reads the colon as a
                    # separator.
                    first = len(argv)
                    self._append_argument(children[i], argv, later)
                    i += 1
                    if len(argv) > first and DYN not in argv[first].text:
                        glued = argv[first]
                        argv[first] = glued._replace(text=":" + glued.text, raw=":" + glued.raw)
                continue
            if kind == "generic_token" and s is not None:
                raw = s[child.start_byte : child.end_byte]
                if (
                    "$" not in raw
                    and "`" not in raw
                    and ">" not in raw
                    and "," not in raw
                    and '"' not in raw
                    and "'" not in raw
                ):
                    # A bare ASCII word without escapes, quotes or variables is its own value, holds nothing.
                    argv.append(Arg(raw, raw, raw[:1] == "-" and len(raw) > 1))
                    continue
            elif kind == "command_parameter":
                raw = self.text(child)
                # `-Recurse`:$true`: a backtick before the `:` escapes nothing the binder reads; fail closed.
                text = (
                    raw if s is not None and "`" not in raw else fold_arg(ps_unescape(raw, False)).rstrip("`")
                )
                # `-Name:value` arrives as parameter, ':' separator, value.
                if (
                    i + 1 < len(children)
                    and children[i].type == "command_argument_sep"
                    and ":" in self.text(children[i])
                ):
                    value_node = children[i + 1]
                    # Keep `$false` readable: `-Recurse:$false` switches the parameter off.
                    value = self.value(value_node)
                    text += ":" + (self.text(value_node).strip() if value == DYN else value)
                    raw += ":" + self.text(value_node)
                    later.append(value_node)
                    i += 2
                argv.append(Arg(text, raw, True))
                continue
            elif kind == "stop_parsing":
                # `--%`: the rest is passed as written; a dash word still reads as a parameter (fail closed).
                argv.extend(
                    Arg(w, w, param=w[:1] in _DASHES and len(w) > 1) for w in self.text(child)[3:].split()
                )
                continue
            if kind == "redirection":
                later.append(child)
                continue
            if (
                kind == "argument_list"
                and argv
                and i >= 2
                and children[i - 2].end_byte == child.start_byte
                and self.peel(children[i - 2]).type == "member_access"
            ):
                # `(gc f -Raw).Replace('a', 'b')`, `$x.Trim()`: one argument, a method's result; the grammar
                # ends the word before the call's parentheses
                merged = argv[-1]._replace(text=DYN, raw=argv[-1].raw + self.text(child))
                self.opaque = [merged if a is argv[-1] else a for a in self.opaque]  # (`'env:'.Trim()`)
                argv[-1] = merged
                later.append(child)
                continue
            self._append_argument(child, argv, later)

    def _append_argument(self, node: Node, argv: list[Arg], later: list[Node]) -> None:
        inner = self.peel(node)
        kind = inner.type
        if kind == "expression_with_unary_operator" and inner.named_child_count == 1:
            op = inner.named_children[0]
            if op.type == "pre_decrement_expression" and op.child_count == 2 and op.children[0].type == "--":
                # `git grep x -- '*.py'`: in an argument list `--` is a word of its own (the end of the
                # options), not a decrement of the string after it.
                argv.append(Arg("--", "--"))
                self._append_argument(op.children[1], argv, later)
                return
        if kind == "array_literal_expression":
            # `a, b` passes each element as its own argument; the later ones bind where the first does.
            first = len(argv)
            for element in inner.named_children:
                if element.type != "comment":
                    self._append_argument(element, argv, later)
            for k in range(first + 1, len(argv)):
                argv[k] = argv[k]._replace(follows=True)
            return
        raw = self.text(inner)
        if kind == "generic_token" and ">" in raw and (m := _GLUED_REDIRECT.search(raw)) is not None:
            # `echo hi>out.txt`, `2>err.txt`: PowerShell ends a bare word at `>` and reads a redirection; the
            # grammar keeps one word.
            if m.start():
                head = raw[: m.start()]
                text = fold_arg(self._bare(head))
                argv.append(Arg(text, head, param=text[:1] in _DASHES and len(text) > 1))
            target = raw[m.end() :]
            if target:
                self.sink.redirect(m.group(1), Arg(fold_arg(self._bare(target)), target), self.frame)
            else:
                self.glued = (m.group(1), len(argv))  # the file is the next word (`echo x>> out.txt`)
            return
        if kind == "generic_token" and "," in raw and raw[:1] not in _DASHES and _PLAIN_LIST.fullmatch(raw):
            # `gci .,env:` / `gci ., env:` (the grammar glues the comma to a word): an array, one word each; a
            # leading comma (`x.txt ,C:\y`, how `repair` spaces a list) continues the word before.
            first = len(argv) - (raw[:1] == ",")
            for piece in raw.split(","):
                if piece:
                    argv.append(Arg(fold_arg(piece), piece, follows=len(argv) > first))
            return
        if kind == "generic_token":
            text = fold_arg(self._bare(raw))
            argv.append(Arg(text, raw, param=text[:1] in _DASHES and len(text) > 1))
        elif kind == "variable" and raw.startswith("@"):
            # A literal `$p = @{Recurse = $true}` is passed as its words; the splat itself stays, since
            # the table may have been changed since (`$p.Force = $true`): rules it does not decide block.
            name = _variable_name(raw).casefold()
            words = self.splats.get(name)
            if words is None and (value := self.frame.variables.get(name)) is not None:
                words = [Arg(fold_arg(value), raw)]  # `$a = 'env:'; gci @a` splats one value
            argv.extend(words or ())
            argv.append(Arg(DYN, raw, splat=True))
        elif kind == "script_block_expression":
            argv.append(Arg(DYN, raw, block=True))
        elif kind == "array_expression" and (words := self._splat_words(inner)):
            argv.extend(words)  # `gci @('.', 'env:')`: the array's items, one word each
        elif self.bound and kind in _REFERENCES and (patterns := self._bound_patterns(raw)):
            # `Remove-Item $_` in `gci bin | % { … }`: the globs the item matches, as one array of paths
            argv.extend(Arg(p, p if k else raw, follows=k > 0) for k, p in enumerate(patterns))
        else:
            value = self.value(inner)
            if value == DYN and (constant := _BOOLEANS.get(raw.lower())) is not None:
                value = constant  # `$true`/`$false` are constants no script can change: `tool -Flag $false`
            arg = Arg(fold_arg(value), raw)
            argv.append(arg)
            if arg.text == DYN and "$" not in raw and kind not in _NOT_OPAQUE and not _runs_command(inner):
                self.opaque.append(arg)
            elif arg.text == DYN and kind == "additive_expression" and self.frame.variables:
                joined = self._join_known(inner)
                if joined is not None:
                    self.folded.append((arg, joined))
        if kind not in _LEAVES:
            later.append(inner)

    def _command(self, node: Node, stdin: Stdin | None) -> None:
        self.opaque.clear()
        self.folded.clear()
        piped, self.piped = self.piped, None
        filtered, self.filter = self.filter, None
        argv: list[Arg] = []
        later: list[Node] = []
        resolved: str | None = None
        for child in node.children:
            kind = child.type
            if kind in ("command_name", "command_name_expr"):
                name, resolved = self._command_name(child)
                argv.insert(0, name)
                if child.type == "command_name_expr":
                    later.append(child)
            elif kind == "command_elements":
                self._elements(child, argv, later)
        head = argv[0].text.lower() if argv else ""
        if filtered is not None and command_key(head) in _FILTER_PARAMETERS:
            argv += self._filter_parameter(argv, filtered)
        if head in LISTINGS:
            self.listed[(node.start_byte, node.end_byte)] = argv
        elif piped is not None and head in _RENAMES:
            self._rename_in_listing(argv, piped)
        feeds: tuple[Feed, ...] = ()
        for child in later:
            if child.type in _SUBSTITUTIONS:
                feed = self._feed_of(child)  # `Remove-Item (Get-ChildItem -Recurse)`
                if feed is not None:
                    feeds += (feed,)
            elif self.var_feeds or child.type in _MEMBER_OF:
                if self.bound and self._bound_patterns(self.text(self.peel(child))):
                    continue  # the item of a listing read as its glob
                feed = self._variable_feed(child)  # `$f = gci -r; Remove-Item $f`, `(gci -r).FullName`
                if feed is not None:
                    feeds += (feed,)
        if len(argv) > 2 and argv[0].text.lower() == "using" and argv[1].text.lower() == "namespace":
            self.namespaces.append(argv[2].text.strip().rstrip(";"))
        if argv and command_key(argv[0].text) in _FOREACH_OBJECT:
            self._foreach_member(argv)
        if len(argv) > 1 and command_key(argv[0].text) in _BLOCK_PARAMETERS:
            self._block_from_variable(argv)
        if self.stage_feed is not None and any(
            ("$_" in a.raw or "$psitem" in a.raw.lower()) and (not self.bound or DYN in a.text)
            for a in argv[1:]
        ):
            feeds += (self.stage_feed,)  # `gci -r | % { Remove-Item $_ }`
        if head in ("function", "filter") and len(argv) > 2:
            # The grammar reads `a && function f { f | f }` as a command named `function`.
            self._check_fork_bomb(argv[1].raw, [c for c in later if c.type == "script_block_expression"])
        if argv and _RANGE.match(argv[0].raw):
            # `foreach ($i in 1..$n)`: the grammar reads the range as a command; PowerShell, seeing a number
            # first, reads an expression. Only the variables in it are read.
            for name, spelling in _variables_in(argv[0].raw):
                self.sink.variable(name, self.frame, spelling)
            for child in later:
                self.visit(child)
            return
        # The command itself first, so its own rule explains a block before anything nested in its words.
        if argv and argv[0].text[:2] in _UNC_STARTS:
            # `& \\server\share\x.exe` runs a program from another machine: its path is checked as a word is.
            self.sink.command([Arg("&", "&"), argv[0]], self.frame, None)
        if head in _REWRITERS:
            target = _file_operand(argv, _REWRITERS)
            value = _value_word(argv, target) if target is not None else None
            if target is not None and value is not None:
                if self.read_into:
                    self._written_from_variable(target, value)
                if later:
                    self._written_from_read(target, value, later)
        if len(argv) > 1 and argv[1].block and command_key(argv[0].text) in _WHERE_OBJECT:
            words = self._filter_strings(later)
            if words:
                # `? { $_.Name -like '*falcon*' }` filters as `? Name -like '*falcon*'` does: checked once
                # more with the block's strings as its words (only ever stricter).
                self.sink.command([argv[0], *words], self.frame, stdin, resolved, feeds)
        if feeds:
            self.sink.command(argv, self.frame, stdin, resolved, feeds)
        else:
            self.sink.command(argv, self.frame, stdin, resolved)
        if piped is not None and argv and command_key(argv[0].text) in _PATH_FROM_PIPELINE:
            words = self._piped_words(piped)
            if words:
                # `'env:' | gci`, `[pscustomobject]@{Path = 'env:'} | gi`: input binds to the path parameters.
                self.sink.command(argv + words, self.frame, stdin, resolved, feeds)
        if len(argv) > 1 and (
            self.frame.variables
            or self.opaque
            or any(a.text == DYN and a.raw[:1] not in "$@({" for a in argv)
        ):
            known = self._known_values(argv)
            if known is not None:
                # `$d = 'env:'; gci $d`: checked once more with the value the script gave the variable. Only
                # ever stricter: the words as written were checked above, and a loop may change the value.
                self.sink.command(known, self.frame, stdin, resolved, feeds)
        if later and stdin is not None and stdin.feed is not None:
            # Script blocks of a pipeline stage see each input object as `$_`.
            saved, self.stage_feed = self.stage_feed, stdin.feed
            items = self._items(piped) if piped is not None else None
            variables = self.frame.variables
            if items:
                variables["_"] = variables["psitem"] = items[-1]  # `'env:' | % { gci $_ }`
            patterns = None
            if piped is not None and command_key(argv[0].text) in _FOREACH_OBJECT:
                patterns = self._stage_patterns(piped, later)
            try:
                if patterns:
                    self._walk_bound(("_", "psitem"), patterns, later)  # `gci *.md | % { sc $_ … }`
                else:
                    for child in later:
                        self.visit(child)
            finally:
                self.stage_feed = saved
                if items:
                    variables.pop("_", None)
                    variables.pop("psitem", None)
        else:
            saved_writer, self.writer = self.writer, argv
            try:
                for child in later:
                    self.visit(child)
            finally:
                self.writer = saved_writer

    # -- pipelines --
    def _pipeline_chain(self, node: Node, stdin: Stdin | None) -> None:
        # The quote is looked at first: asking a node for its parent costs its depth in tree-sitter, so
        # asking it at every level of `((((…))))` would cost the square of the nesting.
        if (
            node.named_child_count == 1
            and self.src[node.start_byte : node.start_byte + 1] in (b"'", b'"')
            and node.parent is not None
            and node.parent.parent is not None
        ):
            self._quoted_program(node, node.parent.parent)
        elif node.named_child_count > 1:
            self._in_place_edit(node)
        prev: Node | None = None
        children = node.named_children
        for i, child in enumerate(children):
            kind = child.type
            if kind in _LEAVES:
                continue
            if kind == "redirections":
                self.empty_output = prev is None or self.text(prev).strip().lower() in _NOTHING
                saved_writer, self.writer = self.writer, self._printed_literal(prev)
                try:
                    self.visit(child)
                finally:
                    self.empty_output = False
                    self.writer = saved_writer
                continue
            if prev is not None:
                stdin = self._pipe_from(prev, stdin)
            self.piped = prev
            after = next((c for c in children[i + 1 :] if c.type not in _LEAVES), None)
            into = after is not None and after.type == "command"
            self.filter = after if kind == "command" and into else None
            self.visit(child, stdin)
            self.piped = None
            self.filter = None
            prev = child

    def _filter_parameter(self, argv: list[Arg], stage: Node) -> list[Arg]:
        """`Get-NetTCPConnection | Where-Object State -eq Listen` as `-State Listen` (`_FILTER_PARAMETERS`):
        the words the filter stands for, when the command does not set that parameter itself."""
        m = _EQUALITY_FILTER.fullmatch(self.text(stage))
        if m is None:
            return []
        name, value = (m.group(1), m.group(3)) if m.group(1) else (m.group(4), m.group(6))
        if name.lower() not in _FILTER_PARAMETERS[command_key(argv[0].text)]:
            return []
        if any(a.param and a.text.lstrip("-").split(":", 1)[0].lower() == name.lower() for a in argv[1:]):
            return []
        return [Arg("-" + name, "-" + name, True), Arg(value, value)]

    def _printed_literal(self, node: Node | None) -> list[Arg] | None:
        """A lone string expression (`'text' > f`) as the command printing it (`Write-Output 'text'`); None
        for any other expression, whose output is not known here."""
        inner = self.peel(node) if node is not None else None
        if inner is None or inner.type != "string_literal":
            return None
        value = self.arg(inner)
        return None if DYN in value.text else [Arg("Write-Output", "Write-Output"), value]

    def _in_place_edit(self, node: Node) -> None:
        """`(Get-Content f) -replace 'a', 'b' | Set-Content f`: a file read whole inside parentheses (so
        the read ends before the pipeline runs) and written back by the pipeline's last command is edited in
        place, like `sed -i f`; the sink is told so before the write is judged."""
        stages = [c for c in node.named_children if c.type not in _LEAVES and c.type != "redirections"]
        if len(stages) < 2 or len(self.text(stages[0])) > _IN_PLACE_SPAN:
            return
        commands = _commands_under(stages[0], 2)  # (one command is all an in-place read may hold)
        last = self.peel(stages[-1])
        if last.type != "command":
            return
        if not commands and self.read_into:
            # `$c = gc f -Raw; $c -replace 'a', 'b' | Set-Content f`: the read ended with its statement.
            source_text = self.read_into.get(self._head_variable(stages[0]) or "")
        elif len(commands) == 1 and _read_whole_first(commands[0], stages[0]):
            source_text = self._read_file(commands[0])
        else:
            return
        written = self._stage(last, None)
        target = _file_operand(written[0], _REWRITERS) if written is not None else None
        if source_text is not None and target is not None and source_text == target.text:
            self.sink.in_place_edit(target, self.frame)

    def _written_from_variable(self, target: Arg, value: Arg) -> None:
        """`$c = gc f -Raw; Set-Content f -Value ($c -replace 'a', 'b')`: a file (`target`) written back from
        a variable that holds its whole content is edited in place (see `_in_place_edit`)."""
        head = _HEAD_VARIABLE.match(value.raw)
        if head is not None and self.read_into.get(head.group(1).casefold()) == target.text:
            self.sink.in_place_edit(target, self.frame)

    def _written_from_read(self, target: Arg, value: Arg, later: list[Node]) -> None:
        """`Set-Content f -Value ((Get-Content f) -replace 'a', 'b')`, `sc f (gc f -Raw).Replace('a', 'b')`: a
        value computed in parentheses from the file's whole content alone is read before the write begins,
        so the file (`target`) is edited in place (see `_in_place_edit`)."""
        if len(value.raw) > _IN_PLACE_SPAN:
            return
        node = call = None
        for k, n in enumerate(later):
            text = self.text(n)
            if text == value.raw:
                node = n
                break
            after = later[k + 1] if k + 1 < len(later) else None
            if after is not None and after.type == "argument_list" and text + self.text(after) == value.raw:
                node, call = n, after  # `(gc f -Raw).Replace('a', 'b')`: the object, then the call
                break
        if node is None:
            return
        commands = [node] if node.type == "command" else _commands_under(node, 2)  # `-Value (gc f -Tail 9)`
        top = node
        while top.parent is not None and top.parent.type != "command_elements":
            top = top.parent  # the whole word, parentheses included
        if (
            len(commands) == 1
            and (call is None or not _commands_under(call, 1))
            and _read_whole_first(commands[0], top)
            and self._read_file(commands[0]) == target.text
        ):
            self.sink.in_place_edit(target, self.frame)

    def _read_file(self, command: Node) -> str | None:
        """The literal file a `Get-Content`-like command reads; None for any other command."""
        name = command.named_children[0] if command.named_child_count else None
        if name is None or self.text(name).lower() not in _READERS:
            return None  # (its words are read by the walk anyway: not twice for every assignment)
        read = self._stage(command, None)
        source = _file_operand(read[0], _READERS) if read is not None else None
        return source.text if source is not None else None

    def _head_variable(self, node: Node) -> str | None:
        """The folded name of the variable an expression starts from (`$c`, `$c -replace 'a', 'b'`,
        `$c.Replace('a', 'b')`, `$p.Content`); None when it starts from anything else."""
        node = self.peel(node)
        while node.type in _WRAPPERS or node.type in _MEMBER_OF:
            if not node.named_child_count or node.type in ("pipeline", "pipeline_chain"):
                return None
            node = self.peel(node.named_children[0])
        return _variable_name(self.text(node)).casefold() if node.type == "variable" else None

    def _whole_read(self, value: Node) -> str | None:
        """The file whose content an assigned value starts from: its first stage reads it (`Get-Content f
        -Raw | ConvertFrom-Json`, `(gc f)`), or a variable holding it; the assignment ends only after the
        whole file was read."""
        if len(self.text(value)) > _IN_PLACE_SPAN:
            return None
        node = self.peel(value)
        while node.type != "command":
            if node.type == "variable":  # `$c = $c -replace 'a', 'b'`: still that file's content
                name = _variable_name(self.text(node)).casefold()
                return self.read_into.get(name) if self.read_into else None
            if node.type == "pipeline_chain":
                stages = [c for c in node.named_children if c.type not in _LEAVES]
                if not stages or stages[-1].type == "redirections" or self._outputs_nothing(stages[-1]):
                    return None
                node = self.peel(stages[0])
            elif (node.type in _WRAPPERS or node.type in _MEMBER_OF) and node.named_child_count:
                node = self.peel(node.named_children[0])  # `(gc f) -replace 'a', 'b'`: its first operand
            else:
                return None
        return self._read_file(node)

    def _outputs_nothing(self, stage: Node) -> bool:
        """Does a pipeline's last stage write its input away (`| Out-File x`, `| Out-Null`)?"""
        node = self.peel(stage)
        name = node.named_children[0] if node.type == "command" and node.named_child_count else None
        return name is not None and self.text(name).lower() in _SWALLOWERS

    def _quoted_program(self, node: Node, statements: Node) -> None:
        """A statement that is only a quoted path to a program file (`"C:\\Tools Dir\\x.exe"`) is how cmd
        runs a program whose path holds spaces. PowerShell would print the path, but the line was written
        to run it: report it as the command it names, so its path is judged like `& "C:\\...\\x.exe"`."""
        if node.parent.type != "pipeline" or statements.parent is None or statements.parent.type != "program":
            return  # a string inside a block is the block's value (`if ($w) { "./x.exe" } else { ... }`)
        inner = self.peel(node.named_child(0))
        if inner.type != "string_literal":
            return
        raw = self.text(inner)
        if raw[:1] not in "'\"":
            return
        value = self._string(inner, raw)
        if DYN not in value and _PROGRAM_PATH.fullmatch(value):
            self.sink.command([Arg(value, raw)], self.frame, None)

    def _pipe_from(self, node: Node, stdin: Stdin | None = None) -> Stdin:
        upstream = stdin.feed if stdin is not None else None
        return Stdin(
            "pipe", compute=lambda: self._output_of(node), feed=Feed(partial(self._stage, node, upstream))
        )

    def _stage(self, node: Node, upstream: Feed | None) -> tuple[list[Arg], Feed | None] | None:
        """The words of a command whose output feeds another command, and what feeds it in turn."""
        inner = self.peel(node)
        if inner.type != "command":
            if inner.type == "invokation_expression" and self._lists_tree(inner):
                return self._tree_listing(inner), upstream
            feed = self._variable_feed(inner)  # `$f = gci -r; $f | Remove-Item`
            if feed is None and inner.type in ("pipeline_chain", "pipeline"):
                # `(Get-Process | ? { … }) | Stop-Process`: the inner pipeline's last stage and what feeds it
                feed = self._feed_of(inner)
            return feed.producer() if feed is not None else None
        argv: list[Arg] = []
        for child in inner.children:
            kind = child.type
            if kind in ("command_name", "command_name_expr"):
                argv.insert(0, self._command_name(child)[0])
            elif kind == "command_elements":
                self._elements(child, argv, [])
        return (argv, upstream) if argv else None

    def _feed_of(self, node: Node) -> Feed | None:
        """The feed of what an expression outputs: its last command, chained through a pipeline."""
        inner = self.peel(node)
        kind = inner.type
        if kind == "command":
            return Feed(partial(self._stage, inner, None))
        if kind == "pipeline_chain":
            feed = None
            for child in inner.named_children:
                if child.type not in _LEAVES and child.type != "redirections":
                    feed = Feed(partial(self._stage, child, feed))
            return feed
        if kind in ("sub_expression", "array_expression", "statement_list", "pipeline"):
            statements = [c for c in inner.named_children if c.type not in _LEAVES]
            return self._feed_of(statements[-1]) if statements else None
        if kind == "invokation_expression" and self._lists_tree(inner):
            listing = self._tree_listing(inner)
            return Feed(lambda: (listing, None))
        if kind in _WRAPPERS:
            # `$null ?? (gci -r)`, `@() + (gci -r)`: an operator passes its operands' items on.
            for child in inner.named_children:
                if child.type not in _LEAVES:
                    feed = self._feed_of(child) or self._variable_feed(child)
                    if feed is not None:
                        return feed
        return None

    # -- functions --
    def _function(self, node: Node, stdin: Stdin | None = None) -> None:
        name_node = next((c for c in node.named_children if c.type == "function_name"), None)
        if name_node is not None:
            self._check_fork_bomb(self.text(name_node), [node])
        for child in node.named_children:
            if child.type not in _LEAVES and child.type != "function_name":
                self.visit(child)

    def _check_fork_bomb(self, shown: str, bodies: list[Node]) -> None:
        name = command_key(ps_unescape(shown, False))
        if name and any(self._spawns_itself(body, name, False) for body in bodies):
            self.sink.event(
                "fork-bomb", self.frame, f"the function `{shown}` runs copies of itself in parallel", [shown]
            )

    def _spawns_itself(self, node: Node, name: str, parallel: bool) -> bool:
        """Does `node` run the command `name` in a pipeline (`b | b`)?"""
        kind = node.type
        if kind == "command":
            if not parallel:
                return False
            head = next((c for c in node.children if c.type in ("command_name", "command_name_expr")), None)
            return head is not None and command_key(self._command_name(head)[0].text) == name
        parallel = parallel or (kind == "pipeline_chain" and node.named_child_count > 1)
        return any(self._spawns_itself(c, name, parallel) for c in node.named_children)

    def _output_of(self, node: Node) -> str | None:
        inner = self.peel(node)
        if inner.type == "command":
            argv: list[Arg] = []
            for child in inner.children:
                if child.type in ("command_name", "command_name_expr"):
                    argv.insert(0, self._command_name(child)[0])
                elif child.type == "command_elements":
                    for element in child.named_children:
                        if element.type not in ("command_argument_sep", "redirection"):
                            self._collect_quiet(element, argv)
            return self.sink.static_output(argv, None, "powershell")
        if inner.type == "array_literal_expression":
            parts = [self.value(c) for c in inner.named_children if c.type != "comment"]
            return None if any(DYN in p for p in parts) else "\n".join(parts)
        text = self.value(inner)
        return None if DYN in text else text

    def _collect_quiet(self, node: Node, argv: list[Arg]) -> None:
        inner = self.peel(node)
        if inner.type == "array_literal_expression":
            for element in inner.named_children:
                self._collect_quiet(element, argv)
        elif inner.type == "command_parameter":
            argv.append(Arg(self.text(inner), self.text(inner), param=True))
        else:
            argv.append(self.arg(inner))

    # -- expressions --
    def _assignment(self, node: Node, stdin: Stdin | None) -> None:
        left = None
        value: Node | None = None
        plain = False
        assigned: Arg | None = None
        extended: str | None = None
        for child in node.named_children:
            if child.type == "assignement_operator":
                plain = self.text(child).strip() == "="
            elif child.type == "left_assignment_expression":
                left = self.peel(child)
            elif child.type not in _LEAVES:
                value = child
                if left is not None and left.type == "variable":
                    name = _variable_name(self.text(left)).casefold()
                    literal = self.value(value)
                    assigned = Arg(literal, self.text(value))
                    if DYN not in literal:
                        self.frame.variables[name] = literal
                    else:
                        self.frame.variables.pop(name, None)
                    feed = self._feed_of(value) or self._variable_feed(value)
                    if feed is not None:
                        self.var_feeds[name] = feed
                    else:
                        self.var_feeds.pop(name, None)
                    read = self._whole_read(value) if plain else None
                    if read is not None:
                        self.read_into[name] = read
                    else:
                        self.read_into.pop(name, None)
                    words = self._splat_words(value) if plain else None
                    if words is not None:
                        self.splats[name] = words
                    else:
                        self.splats.pop(name, None)
                elif left is not None and self.splats and left.type in ("member_access", "element_access"):
                    self._splat_entry(left, value)  # `$p.Recurse = $true` adds to a splatted table
                extended = self._extended(left, value)
                if extended is not None:
                    self.extending = extended
                    try:
                        self.visit(child)
                    finally:
                        self.extending = None
                else:
                    self.visit(child)
        # Writing `$env:NAME = value` sets a variable for child processes; only reads inspect the environment.
        # (`$env:PATH += ';x'` reads it too, only to hand it back: see `_extended`.)
        writes_env = left is not None and left.type == "variable" and (plain or extended is not None)
        if left is not None and left.type == "element_access" and self._reporting_default(left):
            # `$PSDefaultParameterValues['*:ErrorAction'] = 'Stop'`: how commands report, not what they do (a
            # default read elsewhere, or set for another parameter, is still the redefinition it is)
            pass
        elif left is not None and not (writes_env and self.text(left).lower().startswith("$env:")):
            self.visit(left)
            if left.type == "member_access" and value is not None:
                self._property_set(left, self.text(value))
        elif left is not None and assigned is not None:
            # `$env:COR_PROFILER_PATH = 'x.dll'` is judged like `COR_PROFILER_PATH=x.dll` in a POSIX shell;
            # `$env:Path += ';C:\\x'` sets the value it had with the text after it.
            if not plain:
                assigned = Arg(DYN + assigned.text, assigned.raw)
            self.sink.assignment(self.text(left)[5:].strip("{}"), assigned, self.frame)

    def _reporting_default(self, left: Node) -> bool:
        """Is `left` one entry of `$PSDefaultParameterValues` whose literal key names a parameter that only
        changes how a command reports (errors, warnings, progress, verbosity) or encodes the text it writes
        (`'*:ErrorAction'`, `'Out-File:Encoding'`), never what it acts on?"""
        parts = left.named_children
        if len(parts) != 2 or parts[0].type != "variable":
            return False
        if _variable_name(self.text(parts[0])).casefold().rpartition(":")[2] != "psdefaultparametervalues":
            return False
        key = self.peel(parts[1])
        text = self.value(key) if key.type == "string_literal" else DYN
        return DYN not in text and text.rpartition(":")[2].strip().casefold() in _REPORTING_PARAMETERS

    def _extended(self, left: Node | None, value: Node | None) -> str | None:
        """`env:NAME` (folded) when `left = value` sets an environment variable from a plain string or sum
        of strings and variables (`$env:Path = "C:\\tools;$env:Path"`, `$env:Path += ";C:\\tools"`): reading
        the variable there only hands its value back. Anything that could print it or pass it on (a
        command, a subexpression, a script block) is no such string."""
        if left is None or value is None or left.type != "variable":
            return None
        name = _variable_name(self.text(left))
        if not name.lower().startswith("env:") or not _plain_value(value):
            return None
        return name.casefold()

    def _property_set(self, left: Node, value: str) -> None:
        """`$f.LastWriteTime = '1/1/1970'` calls the property's setter: report it as .NET names it
        (`set_LastWriteTime`) so rules can tell setting a property from reading it. Setting a time to now
        (`= Get-Date`) is PowerShell's `touch`, and attributes other than hidden or system hide nothing: those
        are not reported."""
        name = next((c for c in left.children if c.type == "member_name"), None)
        head = name.named_children[0] if name is not None and name.named_child_count == 1 else None
        if name is None or head is None or head.type != "simple_name":
            return
        member = self.text(name).lower()
        if member.endswith(("time", "timeutc")) and _NOW.fullmatch(value.strip()):
            return
        if member == "attributes" and not _HIDING.search(value):
            return
        obj = self.text(left)[: name.start_byte - left.start_byte].rstrip(".")
        self.sink.dotnet("*", "set_" + self.text(name), self.frame, obj)

    def _variable(self, node: Node, stdin: Stdin | None = None) -> None:
        raw = self.text(node)
        name = _variable_name(raw)
        rest = self.src[node.end_byte : node.end_byte + 200].decode("utf-8", "replace")
        if install_folder_variable(name, rest) and (
            self._starts_program_path(node) or self._starts_search_entry(node)
        ):
            return  # `& "${env:ProgramFiles(x86)}\…\vswhere.exe"`: the program is judged by its name
        self._read(name, raw)

    def _starts_search_entry(self, node: Node) -> bool:
        """Is the variable `node` the first folder of an entry of a search path a string assigns
        (`$env:Path = "$env:ProgramFiles\\Git\\bin;$env:Path"`, `$env:Path += ";$env:ProgramFiles\\7-Zip"`),
        or of a path a variable is given whole (`$7z = "$env:ProgramFiles\\7-Zip\\7z.exe"`)? The search-path
        rules judge the folders put first; one Windows installs programs in is fine."""
        parent = node.parent
        if parent is None or parent.type != "expandable_string_literal":
            return False
        if self.src[node.start_byte - 1 : node.start_byte] not in (b'"', b";"):
            return False
        if self.src[node.end_byte : node.end_byte + 1] not in (b"\\", b"/"):
            return False
        up = parent.parent
        while up is not None and up.type in _VALUE_LEVELS:
            up = up.parent
        if up is None or up.type != "assignment_expression" or not up.named_child_count:
            return False
        if self.src[node.start_byte - 1 : node.start_byte] == b'"' and parent.parent is not None:
            # `$msbuild = "${env:ProgramFiles(x86)}\…\MSBuild.exe"`: a path, the whole value
            whole = up.named_children[-1]
            if self.text(whole).strip() == self.text(parent.parent):
                return True
        return _SEARCH_PATH_TARGET.fullmatch(self.text(up.named_children[0]).strip()) is not None

    def _starts_program_path(self, node: Node) -> bool:
        """Is the variable `node` the first folder of the path of the program a command runs (`&
        "$env:ProgramFiles\\x\\x.exe"`, `& $env:windir\\x.exe`)?"""
        parent = node.parent
        if parent is None or self.src[node.end_byte : node.end_byte + 1] not in (b"\\", b"/"):
            return False
        if parent.type == "path_command_name":
            return node.start_byte == parent.start_byte
        if parent.type != "expandable_string_literal" or node.start_byte != parent.start_byte + 1:
            return False
        literal = parent.parent
        return (
            literal is not None and literal.parent is not None and literal.parent.type == "command_name_expr"
        )

    def _read(self, name: str, raw: str) -> None:
        """Report a variable read, unless it is the one an assignment extends with its own value."""
        if self.extending is None or name.casefold() != self.extending:
            self.sink.variable(name, self.frame, raw)

    def _condition(self, node: Node, stdin: Stdin | None = None) -> None:
        """`if (-not $env:NPM_TOKEN) { throw … }`: a condition that only asks whether one variable is set
        (`-not`, `!`, `$null -eq`, `[string]::IsNullOrEmpty`, the bare variable) reads nothing of its value
        into the output: that read is not reported; any other condition is walked as it is."""
        for child in node.named_children:
            if child.type == "pipeline" and _SET_PROBE.fullmatch(self.text(child)):
                continue
            if child.type not in _LEAVES:
                self.visit(child)

    def _generic_token(self, node: Node, stdin: Stdin | None = None) -> None:
        # The grammar leaves `a$x` as one token; PowerShell still expands the variable inside it.
        raw = self.text(node)
        if "$" in raw:
            for name, spelling in _variables_in(raw):
                self._read(name, spelling)

    def _type_literal(self, node: Node, stdin: Stdin | None = None) -> None:
        raw = self.text(node)
        name = raw.strip("[]").split("[", 1)[0].strip()
        member = None
        sibling = node.next_sibling
        if sibling is not None and sibling.type == "::":
            after = sibling.next_sibling
            if after is not None:
                member = self.text(after)
                named = self._environment_variable(name, member, after.next_sibling)
                if named is not None:
                    # `[Environment]::GetEnvironmentVariable('CI')` reads one variable, as `$env:CI` does.
                    self.sink.variable(f"env:{named}", self.frame, self.text(node.parent or node))
                    return
                setting = self._process_setting(name, member, after.next_sibling)
                if setting is not None:
                    # `[Environment]::SetEnvironmentVariable('CI', '1')` sets it for this process and its
                    # children only, as `$env:CI = '1'` does; a 'User' or 'Machine' scope persists.
                    self.sink.assignment(setting[0], setting[1], self.frame)
                    return
        self.sink.dotnet(name, member, self.frame, raw)
        for namespace in self.namespaces:
            self.sink.dotnet(f"{namespace}.{name}", member, self.frame, raw)

    def _environment_variable(self, type_name: str, member: str, arguments: Node | None) -> str | None:
        """The variable `[Environment]::GetEnvironmentVariable('NAME'[, scope])` reads, when its name is
        written out; None for any other member, or a name known only at run time."""
        if (
            member.lower() != "getenvironmentvariable"
            or arguments is None
            or arguments.type != "argument_list"
        ):
            return None
        if type_name.lower().removeprefix("system.") != "environment":
            return None
        listed = next((c for c in arguments.named_children if c.type == "argument_expression_list"), None)
        first = listed.named_children[0] if listed is not None and listed.named_child_count else None
        if first is None:
            return None
        named = self.value(first)
        return named if named and DYN not in named and _ENV_NAME.fullmatch(named) else None

    def _process_setting(self, type_name: str, member: str, arguments: Node | None) -> tuple[str, Arg] | None:
        """(name, value) that `[Environment]::SetEnvironmentVariable('NAME', value[, 'Process'])` sets for
        this process, when its name is written out; None for any other member, scope or a name known only
        at run time."""
        if (
            member.lower() != "setenvironmentvariable"
            or arguments is None
            or arguments.type != "argument_list"
            or type_name.lower().removeprefix("system.") != "environment"
        ):
            return None
        listed = next((c for c in arguments.named_children if c.type == "argument_expression_list"), None)
        given = listed.named_children if listed is not None else []
        if len(given) == 3:
            scope = self.text(self.peel(given[2])).strip("'\"").lower().replace(" ", "")
            if scope not in ("process", "[environmentvariabletarget]::process",
                             "[system.environmentvariabletarget]::process"):  # fmt: skip
                return None
        elif len(given) != 2:
            return None
        named = self.value(given[0])
        if not named or DYN in named or not _ENV_NAME.fullmatch(named):
            return None
        return named, Arg(self.value(given[1]), self.text(given[1]))

    def _splat_words(self, node: Node) -> list[Arg] | None:
        """The words splatting a literal passes: `@{Recurse = $true; Path = 'x'}` -> `-Recurse:$true`,
        `-Path:x`; `@('x', '-Recurse')` -> `x`, `-Recurse` (values, as from an array)."""
        node = self.peel(node)
        if node.type == "hash_literal_expression":
            out = []
            body = next((c for c in node.named_children if c.type == "hash_literal_body"), None)
            for entry in body.named_children if body is not None else ():
                if entry.type != "hash_entry":
                    continue
                named = [c for c in entry.named_children if c.type not in _LEAVES]
                if len(named) != 2:
                    continue
                key = self.value(named[0]) if named[0].type != "key_expression" else self._key(named[0])
                if DYN in key or not key:
                    continue
                value = self.value(named[1])
                shown = self.text(named[1]).strip()
                text = f"-{key}:{value if DYN not in value else shown}"
                out.append(Arg(fold_arg(text), f"-{key}:{shown}", param=True))
            return out
        if node.type == "array_expression":
            items = [c for c in node.named_children if c.type not in _LEAVES]
            while len(items) == 1 and items[0].type == "statement_list":
                items = [c for c in items[0].named_children if c.type not in _LEAVES]
            if len(items) == 1:
                found = self._items(self.peel(items[0]))
                if found is not None:
                    return [Arg(fold_arg(v), v) for v in found]
        return None

    def _splat_entry(self, left: Node, value: Node) -> None:
        named = [c for c in left.named_children if c.type not in _LEAVES]
        if len(named) != 2 or named[0].type != "variable":
            return
        words = self.splats.get(_variable_name(self.text(named[0])).casefold())
        if words is None:
            return
        key = self._key(named[1]) if named[1].type == "member_name" else self.value(named[1])
        if DYN in key or not key:
            return
        literal = self.value(value)
        shown = self.text(value).strip()
        words.append(
            Arg(fold_arg(f"-{key}:{literal if DYN not in literal else shown}"), f"-{key}:{shown}", True)
        )

    def _key(self, node: Node) -> str:
        inner = node.named_children[0] if node.named_child_count == 1 else None
        if inner is None:
            return DYN
        return self.text(inner) if inner.type == "simple_name" else self.value(inner)

    def _lists_tree(self, node: Node) -> bool:
        """`[IO.Directory]::GetFiles('.', '*', 'AllDirectories')`, `$d.EnumerateFiles('*', 'AllDirectories')`:
        a .NET call that lists a whole tree."""
        name = next((c for c in node.children if c.type == "member_name"), None)
        args = next((c for c in node.children if c.type == "argument_list"), None)
        if name is None or args is None:
            return False
        member = self.text(name).lower()
        return member.startswith(("enumerate", "get")) and "alldirectories" in self.text(args).lower()

    def _tree_listing(self, node: Node) -> list[Arg]:
        """The listing as the rules know it: `Get-ChildItem -Recurse`."""
        return [Arg("get-childitem", self.text(node)), Arg("-Recurse", "", param=True)]

    def _known_values(self, argv: list[Arg]) -> list[Arg] | None:
        """`argv` with each plain `$name` argument replaced by the literal the script assigned it, or None
        when no argument is such a variable. The value is one word and never a parameter, as in PowerShell."""
        out = None
        variables = self.frame.variables
        for i, a in enumerate(argv):
            if not i or a.text != DYN or a.splat:
                continue
            if self.folded and (joined := next((v for o, v in self.folded if o is a), None)) is not None:
                value = joined
            elif a.raw[:1] == "$":
                value = variables.get(_variable_name(a.raw).casefold())
            elif (
                m := _SIMPLE_EXPANDABLE.fullmatch(quoted := a.raw if a.raw[:1] == '"' else f'"{a.raw}"')
            ) is not None and " " not in m.group(1):
                # `gci env:$x`: a bare word expands its variables as a double-quoted one does.
                # `"env:$name"`: one value a path-like word may take is its text with every variable it was
                # given (`$x = 'env'; gci "${x}:"`) and every other variable empty.
                value = _VAR_IN_WORD.sub(
                    lambda v: variables.get(_variable_name(v.group(0)).casefold(), _EMPTIED), m.group(1)
                )
                # `bin\${env:Platform}\x`: an emptied folder leaves `bin\\x`, which Windows reads as `bin\x`
                # (only a word's start is a UNC path, and only one written so: `"$root\$name\x.txt"` is no
                # share, `"\\$server\share"` is one)
                value = _run_time_drive(quoted, _SEPARATOR_RUN.sub(_first_char, _emptied_start(value)))
            elif a.raw[:1] == '"':
                value = _run_time_drive(a.raw, None)
            elif (
                any(o is a for o in self.opaque)
                and ("'" in a.raw or '"' in a.raw)
                and _path_position(argv, i)
            ):
                value = (
                    "env:"  # `gci ('vne:'[-1..-4] -join '')`: a value computed from literals may be a drive
                )
            else:
                value = None
            if value:
                if out is None:
                    out = list(argv)
                out[i] = Arg(fold_arg(value), a.raw)
        return out

    def _variable_feed(self, node: Node) -> Feed | None:
        """The feed of a variable holding a command's output, also through its members (`$f.FullName`),
        and of a member of a command's output (`(gci -r).FullName`)."""
        node = self.peel(node)
        member = False
        if node.type == "invokation_expression" and self._lists_tree(node):
            return self._feed_of(node)
        while node.type in _MEMBER_OF and node.named_child_count:
            node = self.peel(node.named_children[0])
            member = True
        if node.type == "variable":
            if not self.var_feeds:
                return None
            return self.var_feeds.get(_variable_name(self.text(node)).casefold())
        if member and node.type in _SUBSTITUTIONS:
            return self._feed_of(node)
        return None

    def _foreach(self, node: Node, stdin: Stdin | None = None) -> None:
        """`foreach ($i in <listing>) { ... }`: `$i` is fed by the listing, like `$_` in a pipeline; over a
        listing of the project's files it is read as the glob they match."""
        named = [c for c in node.named_children if c.type not in _LEAVES]
        name = ""
        if len(named) >= 2 and named[0].type == "variable":
            collection = named[1]
            feed = self._feed_of(collection) or self._variable_feed(collection)
            name = _variable_name(self.text(named[0])).casefold()
            self.read_into.pop(name, None)
            if feed is not None:
                self.var_feeds[name] = feed
            else:
                self.var_feeds.pop(name, None)
            items = self._items(collection)
            if items:
                self.frame.variables[name] = items[-1]  # `foreach ($d in 'env:') { gci $d }`
            else:
                self.frame.variables.pop(name, None)
        if len(named) < 3 or not name:
            for child in named:
                self.visit(child)
            return
        for child in named[:-1]:
            self.visit(child)
        patterns = self._collection_patterns(named[1], name)
        if patterns:
            self._walk_bound((name,), patterns, named[-1:])
        else:
            self.visit(named[-1])

    def _collection_patterns(self, collection: Node, name: str) -> list[str] | None:
        """The globs of a foreach's collection that is one listing alone (`gci *.md`, `(gci src -r)`), when
        the script sets the loop variable nowhere else."""
        commands = _commands_under(collection, 2)
        if len(commands) != 1:
            return None
        command = commands[0]
        if self.text(collection).strip("$@() \t\r\n") != self.text(command).strip():
            return None
        argv = self.listed.get((command.start_byte, command.end_byte))
        if argv is None or rebinds(self._source(), name):
            return None
        return listing_patterns(argv, self._folder)

    def _stage_patterns(self, piped: Node, blocks: list[Node]) -> list[str] | None:
        """The globs of the listing piped into `ForEach-Object`, when its blocks hold no block of their own
        (where `$_` would be another object) and set `$_` nowhere."""
        argv = self.listed.get((piped.start_byte, piped.end_byte))
        if argv is None:
            return None
        for block in blocks:
            text = self.text(block)
            if text.count("{") > 1 or rebinds(text, "_") or rebinds(text, "psitem"):
                return None
        return listing_patterns(argv, self._folder)

    def _bound_patterns(self, raw: str) -> list[str] | None:
        """The globs a word that is a bound loop variable's whole item stands for (`$_`, `$f.FullName`)."""
        name = bound_reference(raw)
        return self.bound.get(name) if name is not None else None

    def _walk_bound(self, names: tuple[str, ...], patterns: list[str], nodes: list[Node]) -> None:
        """Walk `nodes` with `names` read as the globs `patterns`."""
        saved = {n: self.bound.get(n) for n in names}
        try:
            for n in names:
                self.bound[n] = patterns
            for child in nodes:
                self.visit(child)
        finally:
            for n, value in saved.items():
                if value is None:
                    self.bound.pop(n, None)
                else:
                    self.bound[n] = value

    def _rename_in_listing(self, argv: list[Arg], piped: Node) -> None:
        """`gci *.txt | Rename-Item -NewName { $_.Name -replace '.txt', '.log' }`: a new name computed for
        each item of a listing of the project's files names a file beside it (Rename-Item moves nothing to
        another folder and overwrites nothing): read as `*`, a new name; a block that may name `.git` or
        `.hazina` stays unknown."""
        listed = self.listed.get((piped.start_byte, piped.end_byte))
        if listed is None or not listing_patterns(listed, self._folder):
            return
        for i, word in enumerate(argv):
            if (
                word.block
                and i > 1
                and argv[i - 1].text.lower() == "-newname"
                and not _HIDDEN_NAMES.search(word.raw)
            ):
                argv[i] = word._replace(text="*")

    def _folder(self, path: str) -> bool:
        return self.sink.folder(path, self.frame)

    def _source(self) -> str:
        return self.ascii if self.ascii is not None else self.src.decode("utf-8", "replace")

    def _member(self, node: Node, stdin: Stdin | None = None) -> None:
        """`$o.M()`, `$o.M`, `(expr).M()`, `[T]::M()`: a member of an object whose type the policy does not
        know is reported with type `*`, so member rules (`Delete`) apply to any object; a member or a type
        named only at run time (`$o.$m()`, `[IO.File]::'Delete'`, `$t::M()`) cannot be checked."""
        if (
            node.type == "member_access"
            and _READ_ONLY_MEMBER.fullmatch(self.text(node))
            and not _assigned(node)
        ):
            return  # `$ExecutionContext.SessionState.LanguageMode`
        obj: Node | None = None
        op = ""
        name_node: Node | None = None
        for child in node.children:
            kind = child.type
            if kind == "member_name":
                name_node = child
            elif kind in (".", "::"):
                op = kind
            elif obj is None and child.is_named and kind != "argument_list":
                obj = child
        # What the object and the arguments hold first: a known type explains a block better than `*`.
        for child in node.named_children:
            if child.type not in _LEAVES and child.type != "member_name":
                self.visit(child)
        if name_node is None or obj is None:
            return
        head = name_node.named_children[0] if name_node.named_child_count == 1 else None
        member = self.text(name_node) if head is not None and head.type == "simple_name" else None
        invoked = node.type == "invokation_expression"
        typed = self.peel(obj).type == "type_literal"
        shown = self.text(node)[: name_node.end_byte - node.start_byte]
        if member is None:
            self.visit(name_node)
            if invoked or typed:
                self.sink.event(
                    "dynamic-command",
                    self.frame,
                    f"the method in `{shown}` is named only at run time",
                    [shown],
                )
        elif invoked and typed and _FILE_TYPE.match(self.text(obj)):
            self._method_paths(node, shown)
        if member is None:
            return
        if op == "::" and not typed:
            self.sink.event(
                "dynamic-command", self.frame, f"the type in `{shown}` is only known at run time", [shown]
            )
        elif not typed:
            self.sink.dotnet("*", member, self.frame, self.text(obj), invoked)
        elif op == ".":
            # `[Ref].Assembly`: a member of the type object itself, named after the type.
            self.sink.dotnet(self.text(self.peel(obj)), member, self.frame, self.text(obj))
        # After the member's own rules, which explain a block better (`$wc.DownloadString(url)`).
        if (
            invoked
            and member.lower() not in _TEXT_METHODS
            and not (typed and _TEXT_TYPE.match(self.text(obj)))
        ):
            self._method_url(node, shown)

    def _method_paths(self, node: Node, shown: str) -> None:
        """`[IO.File]::ReadAllText('~/.ssh/id_rsa')`: the string arguments of a static .NET call name files
        as a command's words do, so path rules (credential files) see them."""
        args = next((c for c in node.children if c.type == "argument_list"), None)
        listed = (
            next((c for c in args.named_children if c.type == "argument_expression_list"), None)
            if args
            else None
        )
        if listed is None:
            return
        argv = [Arg(shown.replace(" ", "").lower(), shown)]
        literal = False
        for item in listed.named_children:
            inner = self.peel(item)
            if inner.type == "string_literal":
                argv.append(Arg(fold_arg(self.value(inner)), self.text(inner)))
                literal = True
            else:
                argv.append(Arg(DYN, self.text(inner)))  # a run-time value keeps its place: a path may be it
        if literal or argv[0].text in DOTNET_WRITERS:  # `[IO.File]::AppendAllText($p, 'x')`: $p is written
            self.sink.command(argv, self.frame, None)

    def _join_known(self, node: Node) -> str | None:
        """`$x + 'v:'` with `$x` given a literal: the joined value, else None."""
        if not all(c.type == "+" for c in node.children if not c.is_named):
            return None
        out = []
        for part in node.named_children:
            inner = self.peel(part)
            if inner.type == "variable":
                value = self.frame.variables.get(_variable_name(self.text(inner)).casefold())
            else:
                value = self.value(inner)
            if value is None or DYN in value:
                return None
            out.append(value)
        return "".join(out)

    def _piped_words(self, node: Node) -> list[Arg]:
        """The words a literal pipeline input binds to: strings by value, a table's keys by name."""
        inner = self.peel(node)
        if inner.type == "expression_with_unary_operator" and inner.named_child_count == 1:
            inner = inner.named_children[0]
        if inner.type == "cast_expression" and inner.named_child_count == 2:
            inner = self.peel(inner.named_children[1])  # `[pscustomobject]@{...}`
        if inner.type == "hash_literal_expression":
            return self._splat_words(inner) or []
        items = self._items(inner)
        return [Arg(fold_arg(v), v) for v in items] if items else []

    def _method_url(self, node: Node, shown: str) -> None:
        """`[xml]::new().Load('https://host/x')`, `[Xml.XmlReader]::Create('https://host/x')`: a method
        given a URL may fetch it, whatever object it belongs to; reported as the pseudo-type `(url)`."""
        args = next((c for c in node.children if c.type == "argument_list"), None)
        if args is None:
            return
        text = self.text(args)
        if "://" not in text:
            return
        for m in _URL_IN_ARGS.finditer(text):
            self.sink.dotnet("(url)", None, self.frame, f"{shown}('{m.group(0)}')")
            return

    def _block_from_variable(self, argv: list[Arg]) -> None:
        """`Invoke-Command -ScriptBlock $sb`, `Start-Job $sb`: a script block the command runs that is not
        written in it (a variable, a member, a call) is code the policy cannot read."""
        args = argv[1:]
        cmdlet = command_key(argv[0].text)
        found = None
        for i, a in enumerate(args):
            if not a.param:
                continue
            key, colon, value = a.text.lstrip("-\u2013\u2014\u2015").partition(":")
            if not key or not _names_block_parameter(key.lower(), cmdlet):
                continue
            if colon:
                if not value.lstrip("(").startswith("{"):
                    found = a
            elif i + 1 < len(args) and not args[i + 1].block and not args[i + 1].param:
                found = args[i + 1]
        first = args[0]
        positional = not first.param and not first.block and DYN in first.text
        if found is None and positional and command_key(argv[0].text) in _BLOCK_FIRST:
            found = first
        if found is not None:
            shown = " ".join(a.raw for a in argv)
            self.sink.event(
                "dynamic-command",
                self.frame,
                f"`{shown}` runs a script block held in `{found.raw}`, known only at run time",
                [shown],
            )

    def _filter_strings(self, later: list[Node]) -> list[Arg]:
        """The literal strings a `Where-Object` script block compares with, as words (at most a few)."""
        out: list[Arg] = []
        stack = [n for n in later if n.type == "script_block_expression"]
        while stack and len(out) < _FILTER_STRINGS_MAX:
            node = stack.pop()
            if node.type == "string_literal":
                raw = self.text(node)
                text = self._string(node, raw)
                # A string holding a separator is a path or a pattern the filter only compares with
                # (`-notmatch '\\Dependencies\\'`): nothing it reaches, so not a word to check.
                if DYN not in text and "\\" not in text and "/" not in text:
                    out.append(Arg(fold_arg(text), raw))
                continue
            stack.extend(reversed(node.named_children))
        return out

    def _foreach_member(self, argv: list[Arg]) -> None:
        """`gci -r | % Delete` / `ForEach-Object -MemberName Delete` calls that method on every input."""
        args = argv[1:]
        named = False
        for i, a in enumerate(args):
            if a.param:
                key = a.text.lstrip("-\u2013\u2014\u2015").split(":", 1)[0].lower()
                if key and "membername".startswith(key) and len(key) > 1:
                    named = True
                    if ":" in a.text:
                        self._foreach_target(Arg(a.text.split(":", 1)[1], a.raw), argv)
                    elif i + 1 < len(args):
                        self._foreach_target(args[i + 1], argv)
                continue
        if named:
            return
        positional = [a for a in args if not a.param]
        if positional and not positional[0].block:
            self._foreach_target(positional[0], argv)

    def _foreach_target(self, target: Arg, argv: list[Arg]) -> None:
        if target.block:
            return
        if DYN in target.text:
            shown = " ".join(a.raw for a in argv)
            self.sink.event(
                "dynamic-command", self.frame, f"`{shown}` calls a method named only at run time", [shown]
            )
        else:
            self.sink.dotnet("*", target.text, self.frame, argv[0].raw)

    def _redirection(self, node: Node, stdin: Stdin | None = None) -> None:
        op = ""
        target: Node | None = None
        for child in node.named_children:
            if child.type == "file_redirection_operator":
                op = self.text(child).strip()
            elif child.type == "merging_redirection_operator":
                return
            elif child.type == "redirected_file_name":
                named = [c for c in child.named_children if c.type != "command_argument_sep"]
                target = named[0] if named else None
        if target is not None and op:
            self.sink.redirect(op, self.arg(target), self.frame, self.empty_output, self.writer)
            self.visit(target)


_NOTHING = frozenset({"$null", "''", '""', "@()", "[void]0"})
"""Expressions that write nothing: redirected, they only empty the file (`$null > f`)."""
_PARAM_THEN_CODE = lazy_re(r"(?i)(\bparam\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))[ \t]+(?=[^\s;])")
"""`param(...)` with code after it on the same line; its attributes' parentheses nest up to three deep
(`param([Parameter(Mandatory)][string]$n) $n`)."""
_LABELLED_JUMP = lazy_re(
    r"(?im)((?:^|[;{}])[ \t]*(?:break|continue)[ \t]+)([A-Za-z_]\w*)(?=[ \t]*(?:$|[;}]))"
)
"""`break outer`: a jump to a loop's label (`:outer foreach (…)`), which the grammar takes only as an
expression (`break 'outer'`, the same label to PowerShell)."""
_OPENERS = "([{;|&,)}"
_CLAUSE_THEN_CLAUSE = lazy_re(
    r"""(?i)\}[ \t]+(?!(?:else|catch|finally|begin|process|end|clean|dynamicparam)[ \t]*\{)"""
    r"""(?=(?:'[^'\n]*'|"[^"\n]*"|\$?[\w.*?\[\]]+)[ \t]*\{)"""
)
"""A switch clause after another on the same line (`switch ($x) { 1 { 'a' } 2 { 'b' } }`, `… default { }`):
the grammar wants a line break or `;` between them, PowerShell does not. Its condition is a plain word, a
variable or a quoted string (a script-block condition is left as written)."""
_STATEMENT_START = ";|&{(\n"
_WORD_END = frozenset(" \t\r\n;|&)},<>")
_UNQUOTABLE = frozenset("'\"`$(){}")
"""A dash word holding any of these is left alone: a quote is glued below, the rest expands or nests."""
_NUMBER_SUFFIX = lazy_re(r"(?<![\w.$-])(\d+(?:\.\d+)?)([KMGTP][Bb]|[kmgtp]B)(?![\w.])")
"""`10KB`: the grammar knows the multiplier suffixes only in lower case."""
_UNGLUED = lazy_re(r"[$\[\](){}@]|::|^-\w+:$")
"""Prefixes that are no bare word glued to a string: `$d.'Delete'()`, `[IO.File]::'Delete'`, `-Name:'x'`."""


_VARIABLE_END = lazy_re(r"\$[\w:]+$")
_READERS = frozenset({"get-content", "gc", "cat", "type"})
_REWRITERS = frozenset({"set-content", "sc", "out-file"})
_HEAD_VARIABLE = lazy_re(r"\(*\$\{?(\w+)")
"""The variable a value starts from (`$c`, `($c -replace 'a', 'b')`, `$c.Replace('a', 'b')`)."""
_SWALLOWERS = _REWRITERS | {"out-null", "add-content", "ac"}
"""Cmdlets that pass none of their input on."""
_PATH_PARAMETERS = frozenset({"-path", "-literalpath", "-filepath", "-lp", "-pspath"})


_IN_PLACE_SPAN = 2000
"""Longest first stage (characters) looked through for an in-place edit's read."""
_EVALUATED_FIRST = frozenset({"parenthesized_expression", "array_expression", "sub_expression"})


def _value_word(argv: list[Arg], target: Arg) -> Arg | None:
    """The word a rewriting cmdlet writes: its `-Value`, or the operand after the file (`sc f $c`)."""
    words = argv[1:]
    for i, a in enumerate(words):
        key = a.text.lower()
        if a.param and len(key) >= 3 and "-value".startswith(key):  # `-v` is also -Verbose
            return words[i + 1] if i + 1 < len(words) else None
    operands = [a for a in words if not a.param]
    if len(operands) == 2 and operands[0] is target:
        return operands[1]  # `Set-Content f $c`: Path, then Value
    return None


def _commands_under(node: Node, limit: int) -> list[Node]:
    """The commands under `node`, found level by level, at most `limit` of them: the search stops there, so
    pipelines nested in each other's first stage (`((gci | ? {…}) | ? {…}) | …`) are not each searched
    whole."""
    found: list[Node] = []
    level = [node]
    while level:
        below: list[Node] = []
        for n in level:
            for child in n.children:
                if child.type == "command":
                    found.append(child)
                    if len(found) >= limit:
                        return found
                below.append(child)
        level = below
    return found


def _read_whole_first(command: Node, stage: Node) -> bool:
    """Whether `command` runs to its end before `stage`'s pipeline goes on: inside `( )`, `@( )` or `$( )`."""
    node = command.parent
    while node is not None and node != stage.parent:
        if node.type in _EVALUATED_FIRST:
            return True
        node = node.parent
    return False


def _file_operand(argv: list[Arg], names: frozenset[str]) -> Arg | None:
    """The one literal file a `Get-Content`/`Set-Content`-like command names (by `-Path` or first
    operand), when `argv` is such a command; None otherwise."""
    if not argv or argv[0].text.lower() not in names:
        return None
    words = argv[1:]
    for i, a in enumerate(words):
        if a.text.lower() in _PATH_PARAMETERS:
            found = words[i + 1] if i + 1 < len(words) else None
            break
    else:
        found = next((a for a in words if not a.text.startswith("-")), None)
    if found is None or DYN in found.text or not found.text:
        return None
    return found


_BRACED_WORD_REST = lazy_re(r"\$\{[^{}`'\"]+\}[^\s;|&)},<>'\"`(){}]*(?=[\s;|&)},<>]|$)")
"""A braced variable and the rest of the bare word it stands in (`${env:OUT}\\bin`)."""
_GLUED_PREFIX = lazy_re(r"[\w./\\:=+][\w./\\:=+-]*")
"""The plain start of a bare word a braced variable is glued to (`/p:Out=`, `x`); never a `-Param:` whose
value it is, which quoting would turn into a string."""
_BRACKET_GLOB = lazy_re(r"\[[\w!^-]+\](?:[\w.*?\[\]-]*[*?][\w.*?\[\]-]*|[\w.\[\]-]+)(?=[\s;|&)},<>]|$)")
"""A wildcard word starting with a character class (`[0-9]*`, `[a-c]?.txt`, `[p]sake`): never a type name."""
_DOTTED_PARAMETER = lazy_re(r"(-[A-Za-z_][A-Za-z_-]*)(\..*)")
"""`-I.`, `-H.`, `-Dmaven.test.skip`: a dash word holding a `.`, which PowerShell's tokenizer breaks in two
there (PowerShell/PowerShell#6291); the grammar rejects it whole."""
_PATH_PARAMETER = lazy_re(r"-[A-Za-z][\w-]*[\\/][\w\\/-]*")
"""`-Iinclude\\x`, `-L/opt/lib`: a native flag glued to a path. PowerShell passes it as one word (it splits
such a word only at a `.`, so one holding a `.` keeps the parse error); the grammar ends the name at `\\`."""
_BOOLEANS = {"$true": "True", "$false": "False"}
"""PowerShell's constant booleans, as a native program receives them."""
_EXPANDING_OPTION = lazy_re(r"--?[A-Za-z_][\w.-]*+=(?:[^\s'\"`$(){}@;|&<>,]++|(?>\$(?:env:)?[A-Za-z_]\w*))*+")
"""`--processes=$env:N`, `-DOUT=$dir/x`: a native option whose value holds plain variables only (no quotes,
subexpressions, splats or commas), which PowerShell expands like a double-quoted string. Atomic and
possessive: a long word that is no such option is refused in one pass."""
_AT_WORD = lazy_re(r"@[A-Za-z_][\w?]*[^\w?:.\[=\s;|&(){},<>'\"`$][^\s;|&)},<>'\"`$(){}]*(?=[\s;|&)},<>]|$)")
"""`@scope/pkg`, `@react-native-windows/x`: in a command's arguments, an `@` name followed by anything but
a variable's own characters, `.`, `[` or `=` is one bare word to PowerShell (npm's scoped packages), never a
splatted variable; the grammar splits it."""
_VARIABLE_PATH = lazy_re(
    r"(?:\$[\w:]++|\$\{[^{}`'\"]+\})[\\/](?:[^\s;|&)},<>'\"`$(){}]|\$[\w:]++)*+(?=[\s;|&)},<>]|$)"
)
"""`$HOME\\x`, `${env:ProgramFiles}/x`, `$root/bin/$Configuration/x.dll`: variables and a path that the
grammar cannot join into one word."""


_SEARCH_PATH_TARGET = lazy_re(
    r"(?i)\$(?:env:|\{env:)(?:path|psmodulepath|lib|libpath|include|classpath|pythonpath)\}?"
)
"""A search path's variable, assigned (`$env:Path = …`): where programs, modules, libraries are looked for."""
_VALUE_LEVELS = frozenset(
    {
        "string_literal", "unary_expression", "array_literal_expression", "range_expression",
        "format_expression", "multiplicative_expression", "additive_expression", "comparison_expression",
        "bitwise_expression", "logical_expression", "pipeline_chain", "pipeline",
    }
)  # fmt: skip
"""The expression levels between an assigned value and its `assignment_expression`."""


_LOCATION = lazy_re(r"\$(?:pwd|\{pwd\})|\$\(\s*(?:get-location|gl|pwd)\s*\)", re.IGNORECASE)
"""The working directory as a string holds it: `$PWD`, `${pwd}`, `$(Get-Location)`."""
_LOCATION_REDEFINED = lazy_re(
    r"\$\{?(?:(?:global|script|local|private):)?pwd\}?\s*[-+*/%?]?=|-variable\b|\b(?:[gsnr]v|clv)\b|variable:"
    r"|-alias\b|\b(?:sal|nal)\b|\bfunction\s+(?:global:|script:)?(?:pwd|gl|get-location)\b",
    re.IGNORECASE,
)
"""A script that may give `$PWD` or `Get-Location` another meaning (a `Set-Location` only moves it, and the
walk follows the moves as it does for `.`): an assignment in any scope (`$script:PWD = …`, `$PWD += …`), the
variable cmdlets and their aliases, the `variable:` drive, an alias or a function of that name."""
_PS_QUOTING = str.maketrans("", "", "`'\"")
"""Backticks and quotes, which PowerShell removes from a name before it looks the command up
(`` S`et-V`ariable ``, `& 'sv'`)."""


_ENV_NAME = lazy_re(r"[A-Za-z_][\w()]*+")
"""An environment variable's name as one can write it after `$env:` (`CI`, `ProgramFiles(x86)`)."""
_UNC_STARTS = frozenset({"\\\\", "//", "\\/", "/\\"})
"""How a UNC path (`\\\\server\\share`) starts; PowerShell takes either slash."""
_PROGRAM_PATH = lazy_re(
    r'(?:[a-z]:|[\\/]|\.{1,2}[\\/]|~[\\/]|%[\w()]+%|[\w.()-][\w .()-]*[\\/])[^\n"<>|]*'
    r"\.(?:exe|com|bat|cmd|ps1|vbs|vbe|js|jse|wsf|hta|msi|scr|cpl|lnk)",
    re.IGNORECASE,
)
"""A path to a file cmd (or Explorer's file associations) runs when it is named on its own, from the root, a
drive, the home, a `%VAR%` folder or a folder of the working directory (`"tools\\x.exe"`)."""
_PATH_FROM_PIPELINE = frozenset(
    {
        "get-childitem",
        "gci",
        "dir",
        "ls",
        "get-item",
        "gi",
        "get-content",
        "gc",
        "cat",
        "type",
        "get-itemproperty",
        "gp",
        "get-itempropertyvalue",
        "gpv",
        "copy-item",
        "cpi",
        "cp",
        "copy",
        "move-item",
        "mi",
        "mv",
        "move",
        "resolve-path",
        "rvpa",
        "test-path",
        "invoke-item",
        "ii",
        "set-location",
        "sl",
        "cd",
        "chdir",
        "push-location",
        "pushd",
        "convert-path",
        "cvpa",
        "get-acl",
        "export-clixml",
        "format-list",
        "fl",
        "select-object",
        "select",
    }
)
"""Provider cmdlets whose path parameters take pipeline input: `'env:' | gci` lists `env:`."""
_PLAIN_LIST = lazy_re(r"[^\s'\"`$(){}@;|&<>\[\]]+")
"""A bare word of plain characters and commas: PowerShell reads `a,b` as the array of `a` and `b`."""
_GLUED_REDIRECT = lazy_re(r"(?<!`)((?:(?<![\w.])[1-6*])?>>?)(?!&)")
"""A redirection operator inside a bare word (`hi>out.txt`, `2>>log`), not a merge (`2>&1`)."""
_COMMON_PARAMETERS = (
    "verbose", "debug", "erroraction", "warningaction", "informationaction", "progressaction",
    "errorvariable", "warningvariable", "informationvariable", "outvariable", "outbuffer", "pipelinevariable",
)  # fmt: skip
"""The parameters every cmdlet takes: an abbreviation that could name one of them names no one parameter."""
_WHERE_OPERATORS = (
    "eq", "ceq", "ne", "cne", "gt", "cgt", "lt", "clt", "ge", "cge", "le", "cle", "like", "clike", "notlike",
    "cnotlike", "match", "cmatch", "notmatch", "cnotmatch", "contains", "ccontains", "notcontains",
    "cnotcontains", "in", "cin", "notin", "cnotin", "is", "isnot", "not",
)  # fmt: skip
"""Where-Object's comparison switches (`Where-Object Name -in $names`)."""
_JOB_PARAMETERS = ("name", "credential", "filepath", "literalpath", "inputobject", "argumentlist")
_EVENT_PARAMETERS = ("sourceidentifier", "messagedata", "supportevent", "forward", "maxtriggercount")
_BLOCK_PARAMETERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "invoke-command": (
        ("scriptblock", "command"),
        ("session", "sessionoption", "sessionname", "sshconnection", "sshtransport", "subsystem",
         "computername", "connectionuri", "configurationname", "containerid", "connecttimeout",
         "certificatethumbprint", "credential", "filepath", "argumentlist", "inputobject", "asjob",
         "hidecomputername", "jobname", "throttlelimit", "port", "usessl", "applicationname",
         "authentication", "enablenetworkaccess", "indisconnectedsession", "allowredirection",
         "runasadministrator", "nonewscope", "keyfilepath", "username", "hostname", "options", "remotedebug",
         "vmid", "vmname"),
    ),
    "start-job": (
        ("scriptblock", "command", "initializationscript"),
        (*_JOB_PARAMETERS, "authentication", "runas32", "psversion", "definitionname", "definitionpath",
         "type", "workingdirectory"),
    ),
    "start-threadjob": (
        ("scriptblock", "initializationscript"),
        (*_JOB_PARAMETERS, "throttlelimit", "streaminghost"),
    ),
    "new-module": (
        ("scriptblock",),
        ("name", "function", "cmdlet", "returnresult", "ascustomobject", "argumentlist"),
    ),
    "measure-command": (
        ("expression",),
        ("inputobject",),
    ),
    "trace-command": (
        ("expression",),
        ("name", "option", "filepath", "debugger", "pshost", "listeneroption", "argumentlist", "force",
         "inputobject", "command"),
    ),
    "where-object": (
        ("filterscript",),
        ("property", "value", "inputobject", *_WHERE_OPERATORS),
    ),
    "foreach-object": (
        ("process", "begin", "end", "remainingscripts", "parallel"),
        ("membername", "argumentlist", "inputobject", "throttlelimit", "timeoutseconds", "asjob",
         "usenewrunspace"),
    ),
    "register-engineevent": (
        ("action",),
        (*_EVENT_PARAMETERS,),
    ),
    "register-objectevent": (
        ("action",),
        ("inputobject", "eventname", *_EVENT_PARAMETERS),
    ),
    "register-wmievent": (
        ("action",),
        ("class", "query", "namespace", "credential", "computername", "timeout", *_EVENT_PARAMETERS),
    ),
    "register-cimindicationevent": (
        ("action",),
        ("namespace", "classname", "query", "querydialect", "operationtimeoutsec", "session", "computername",
         *_EVENT_PARAMETERS),
    ),
    "set-psbreakpoint": (
        ("action",),
        ("script", "line", "column", "command", "variable", "mode", "runspace"),
    ),
    "register-scheduledjob": (
        ("scriptblock", "initializationscript"),
        ("name", "filepath", "argumentlist", "authentication", "credential", "trigger", "scheduledjoboption",
         "maxresultcount", "runas32", "runevery", "runnow"),
    ),
}  # fmt: skip
"""Per cmdlet that runs a script block given to a parameter: those parameters (with their aliases), and its
other parameters, against which PowerShell resolves an abbreviation (`Where-Object X -in $list` is the `-In`
operator, not `-InitializationScript`). A parameter left out of the second list only makes an abbreviation
read as the script block's: blocked, never allowed."""
for _alias, _name in (
    ("icm", "invoke-command"),
    ("sajb", "start-job"),
    ("nmo", "new-module"),
    ("trcm", "trace-command"),
    ("?", "where-object"),
    ("where", "where-object"),
    ("%", "foreach-object"),
    ("foreach", "foreach-object"),
    ("sbp", "set-psbreakpoint"),
):
    _BLOCK_PARAMETERS[_alias] = _BLOCK_PARAMETERS[_name]


def _names_block_parameter(key: str, cmdlet: str) -> bool:
    """Does `-key` bind a script-block parameter of `cmdlet` (see `_BLOCK_PARAMETERS`), as PowerShell binds
    a parameter name: exactly, or by a prefix of one parameter only (an ambiguous one is refused)?"""
    blocks, others = _BLOCK_PARAMETERS[cmdlet]
    if key in blocks:
        return True
    if key in others or key in _COMMON_PARAMETERS:
        return False
    return any(b.startswith(key) for b in blocks) and not any(
        o.startswith(key) for o in (*others, *_COMMON_PARAMETERS)
    )


_BLOCK_FIRST = frozenset({"invoke-command", "icm", "start-job", "sajb", "start-threadjob", "measure-command"})
"""Cmdlets whose first positional parameter is the script block they run."""
_URL_IN_ARGS = lazy_re(
    r"(?i)(?<![\w.+-])(?:https?|ftps?|wss?|sftp|smb|ldaps?|gopher)://[\w\[\]@%.:-]*\w[^\s'\"]*"
)
"""A URL with a host written in a method's arguments."""
_TEXT_METHODS = frozenset(
    {
        "replace",
        "startswith",
        "endswith",
        "contains",
        "indexof",
        "lastindexof",
        "split",
        "trim",
        "trimstart",
        "trimend",
        "equals",
        "compare",
        "compareto",
        "format",
        "join",
        "concat",
        "escapedatastring",
        "unescapedatastring",
        "escapeuristring",
        "ismatch",
        "match",
        "matches",
        "tolower",
        "toupper",
        "substring",
        "padleft",
        "padright",
        "insert",
        "remove",
        "add",
        "append",
        "appendline",
        "writeline",
        "write",
        "tostring",
        "getbytes",
        "iswellformeduristring",
        "trycreate",
        "parse",
        "tryparse",
        "combine",
    }
)
"""Methods that only handle the text of a URL (`$s.Replace('http://a', 'https://a')`)."""
_TEXT_TYPE = lazy_re(
    r"(?i)\(*\[\s*(?:system\.)?(?:uri|uribuilder|string|regex|text\.\w+|console|math|io\.path)\s*\]"
)
"""Types whose methods only handle text (`[uri]::new('https://host')` fetches nothing)."""
_FILE_TYPE = lazy_re(
    r"(?i)\(*\[\s*(?:system\.)?(?:io\.|microsoft\.visualbasic\.fileio\.|(?:file|directory|fileinfo|"
    r"directoryinfo|streamreader|streamwriter|filestream|binaryreader|filesystem)\s*\])"
)
"""Types whose static methods and constructors open files by path (`[IO.File]`, `[System.IO.StreamReader]`,
`[File]` under `using namespace System.IO`, Visual Basic's `FileSystem`)."""
_RUN_TIME_PART = lazy_re(r"\$(?:\{[^}]*\}|[\w:?^$]+|\((?:[^()]|\([^()]*\))*\))")
"""A variable or `$( )` inside an expandable word."""


_NOT_OPAQUE = _SUBSTITUTIONS | {"hash_literal_expression", "type_literal", "script_block_expression"}
_PATH_OR_SWITCH = (
    "path",
    "literalpath",
    "pspath",
    "lp",
    "recurse",
    "force",
    "name",
    "directory",
    "file",
    "hidden",
    "readonly",
    "system",
    "raw",
    "wait",
    "asbytestream",
    "followsymlink",
    "verbose",
    "debug",
    "whatif",
    "confirm",
)
"""Parameters after which a word is a path: the path parameters, and switches (which take no value)."""


def _path_position(argv: list[Arg], i: int) -> bool:
    """Is `argv[i]` a positional word or the value of a path parameter (`-Path`, `-LiteralPath`)?"""
    before = argv[i - 1] if i > 1 else None
    if before is None or not before.param or ":" in before.text:
        return True
    key = before.text.lstrip("-\u2013\u2014\u2015").lower()
    return any(name.startswith(key) for name in _PATH_OR_SWITCH)


def _runs_command(node: Node) -> bool:
    """Does the expression hold a command (`(Get-Location).Path`) or a script block?"""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in ("command", "script_block", "script_block_expression"):
            return True
        stack.extend(n.named_children)
    return False


_SEPARATOR_RUN = lazy_re(r"(?<=[^\\/])[\\/]{2,}")
"""Separators repeated inside a path, not at its start."""


def _first_char(m: re.Match[str]) -> str:
    return m.group(0)[0]


_EMPTIED = "\x01"
"""Where a variable the line gave no value stood in a word's one known value (see `_emptied_start`)."""
_LEADING_SEPARATORS = lazy_re(r"[\\/\x01]+")
_WRITTEN_SHARE = lazy_re(r"[\\/]{2}")


def _emptied_start(value: str) -> str:
    """A word's value with its emptied variables (`_EMPTIED`) taken out. Separators that only meet at its
    start because the variables between them are empty (`$root\\$name\\x.txt`, `$a/$b/Public`) are one: a
    UNC path is one written with two separators together (`\\\\$server\\share`), not one the values made."""
    if _EMPTIED not in value:
        return value
    lead = _LEADING_SEPARATORS.match(value)
    if lead is not None and _WRITTEN_SHARE.search(lead.group(0)) is None:
        run = lead.group(0).replace(_EMPTIED, "")
        if len(run) > 1:
            value = run[0] + value[lead.end() :]
    return value.replace(_EMPTIED, "")


def _run_time_drive(raw: str, value: str | None) -> str | None:
    """`"$($_.Name):"`, `"${d}:\\x"`: a path whose drive is named only at run time may name any drive,
    `Env:` (the environment) included; read as that drive. Otherwise `value` is returned unchanged."""
    body = raw[1:-1] if len(raw) > 1 and raw[-1:] == '"' else raw[1:]
    marked = _RUN_TIME_PART.sub("\0", body)
    head = re.split(r"[\\/]", marked, maxsplit=1)[0]
    if ":" in head and "\0" in head.split(":", 1)[0]:
        return "env:" + marked.split(":", 1)[1].replace("\0", "")
    return value


def _ends_operand(out: list[str]) -> bool:
    """Does the text so far end an operand (`$a`, `)`, `]`, `}`) that an operator can follow directly?"""
    if not out:
        return False
    last = out[-1]
    if last in ")]}":
        return True
    if not (last.isalnum() or last in "_:"):
        return False
    tail = "".join(out[-64:])
    return _VARIABLE_END.search(tail) is not None


def _ps7_operator(source: str, i: int, out: list[str]) -> tuple[str, int] | None:
    """PowerShell 7 operators the grammar lacks, respelled as ones it knows that read the same operands:
    `$a ?? $b` / `$a ??= $b` as `+` / `+=`, `$a?.M()` / `$a?[0]` as `.` / `[`, and `$c ? x : y` as
    `$c + x + y`. Only a `?` that stands alone or follows an operand is touched, never one inside a word
    (`id_??.txt`); as a word of a command `+` is as inert as the `??` it replaces, and it never looks like
    a parameter (`-or` would: `rm -rf -or` reads as a usage error to the rules, a `+` does not)."""
    nxt = source[i + 1 : i + 2]
    before_space = bool(out) and out[-1] in " \t"
    if nxt == "?":
        after = source[i + 2 : i + 3]
        if after == "=":
            after = source[i + 3 : i + 4]
            if (before_space or _ends_operand(out)) and after in (
                "",
                " ",
                "\t",
                "$",
                "(",
                "'",
                '"',
                "@",
                "[",
            ):
                return "+=", 3
            return None
        if (before_space or _ends_operand(out)) and (
            after in ("", " ", "\t", "$", "(", "'", '"', "@", "[") or after.isdigit()
        ):
            return "+", 2
        return None
    if nxt in (".", "[") and _ends_operand(out):
        return "", 1  # drop the `?` of `?.` / `?[`
    if before_space and not _at_statement_start(out):
        if source[i + 1 :].lstrip(" \t")[:1] in ("", "|", ";", ")", "}", "\n"):
            return "'?'", 1  # `Invoke-Build ? | …`: a word of its own (the task list), never a `? :`
        if nxt in (" ", "\t"):
            return "+", 1  # the `?` of `$c ? a : b`, not Where-Object after `|`
    return None


_NAMED_BLOCK = lazy_re(r"(?im)(?:^|[;}])\s*(?:begin|process|end|clean|dynamicparam)\s*\{")
_PARAM_BLOCK = lazy_re(r"(?im)^\s*(?:\[[^\]\n]*\]\s*)*param\s*\(")
_COMMENTS = lazy_re(r"<#.*?#>|#[^\n]*", re.DOTALL)
_DIGIT_PARAMETER = lazy_re(r"--?[A-Za-z_][\w-]*\d[\w-]*")
"""`-Run1`, `--no-x86`: the grammar ends a parameter name at its first digit and reads the digit as a
redirection."""
_DIGIT_FLAG = lazy_re(r"-\d+[A-Za-z_][\w-]*")
"""`ls -1t`, `zip -9r`: short flags that start with a digit; PowerShell passes them as they are written."""
_NEGATIVE_NUMBER = lazy_re(
    r"-\d+(?:[eE][+-]?\d+)?(?:[lLdDnNsSyY]|[uU][lLsSyY]?)?(?:[kKmMgGtTpP][bB])?", re.ASCII
)
"""`-1kb`, `-5l`, `-2e3`: a negative number with a type or multiplier suffix, which PowerShell computes."""


def _last_index(out: list[str]) -> int:
    """Where in `out` the last piece that is not a blank stands (-1 when there is none)."""
    k = len(out) - 1
    while k >= 0 and out[k] in " \t":
        k -= 1
    return k


def _last_written(out: list[str]) -> str:
    """The last piece written to `out` that is not a blank ("" when there is none)."""
    k = _last_index(out)
    return out[k] if k >= 0 else ""


def _at_statement_start(out: list[str]) -> bool:
    last = _last_written(out)
    return not last or last in _STATEMENT_START


def _after_call_operator(out: list[str]) -> bool:
    """Is the last piece written the call operator `&` that starts a statement (not `&&`, nor the `&` that
    sends a pipeline to the background)?"""
    k = _last_index(out)
    if k < 0 or out[k] != "&" or (k > 0 and out[k - 1] == "&"):
        return False
    return _at_statement_start(out[:k])


_POSIX_PROGRAM_PATH = lazy_re(r"/[\w.+-]+(?:/[\w.+-]+)+")
"""A program named by an absolute POSIX path of two parts or more (`/usr/bin/env`); `/C` or `/s` is a
Windows switch, which stays the parse error it is at a statement's start."""
_FOREACH_OBJECT_WORD = lazy_re(r"foreach-object(?=[\s{])", re.IGNORECASE)


_EXPRESSION_START = frozenset("$(@[0123456789'\"")
"""First characters of a statement that is an expression (`$_.A - $_.B`), where a lone `-` subtracts."""
_EXPRESSION_LOOKBACK = 64
"""Pieces of `out` looked back through for the statement's start; past them it counts as a command."""


_LAST_STATEMENT_START = lazy_re("(?s:.*)[" + re.escape(_STATEMENT_START + "=") + "]")
"""Everything up to the last place a statement may start (see `_in_expression`)."""


def _in_expression(out: list[str]) -> bool:
    """Does the statement being written (after the last `;`, `|`, `&`, `{`, `(`, `=` or line break) start
    as an expression, so that a lone `-` in it is the minus operator (`@{ Exp = { $_.A - $_.B } }`), not a
    word (`Set-Location -`)? Looks back a bounded number of pieces: a long statement counts as a command."""
    tail = "".join(out[-_EXPRESSION_LOOKBACK:])
    start = _LAST_STATEMENT_START.match(tail)
    first = tail[start.end() if start is not None else 0 :].lstrip()[:1]
    found = first in _EXPRESSION_START
    return found if start is not None else found and len(out) <= _EXPRESSION_LOOKBACK


def _word_start(out: list[str]) -> int:
    """Where in `out` the bare word being written starts."""
    k = len(out)
    while k > 0 and not out[k - 1].isspace() and out[k - 1] not in _OPENERS:
        k -= 1
    return k


def _assigned(node: Node) -> bool:
    """Whether `node` is (within) the left side of an assignment (`$o.P = 1`), up to its statement."""
    parent = node.parent
    while parent is not None and parent.type not in ("pipeline", "statement_list", "program"):
        if parent.type == "left_assignment_expression":
            return True
        parent = parent.parent
    return False


def _joined_quotes(raw: str) -> str:
    """A bare word with quoted parts as PowerShell passes it: the quotes go, their text stays
    (`/C:"password"` is `/C:password`, `a'b c'd` is `ab cd`; `''` inside single quotes is one `'`).
    Backtick escapes outside single quotes are kept for `ps_unescape`."""
    out: list[str] = []
    quote = ""
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch == "`" and quote != "'" and i + 1 < n:
            out.append(raw[i : i + 2])
            i += 2
            continue
        if not quote and ch in "'\"":
            quote = ch
        elif ch == quote:
            if ch == "'" and raw[i + 1 : i + 2] == "'":
                out.append("'")
                i += 1
            else:
                quote = ""
        else:
            out.append(ch)
        i += 1
    return "".join(out)


_NOT_GLUED = frozenset(
    {"command_argument_sep", "redirection", "command_parameter", "stop_parsing", "comment"}
)
"""Elements after a `:` separator that are no word glued to it."""

_MAGIC_METHOD = lazy_re(r"[\w)\]]\.where$", re.IGNORECASE)
_FOREACH_CALL = lazy_re(r"[\w)\]]\.foreach$", re.IGNORECASE)
"""`.ForEach(`: the grammar reads `foreach (` as the loop statement even after a dot."""


_SPLITS_STRING = lazy_re(r"[\s;|&<>(){}]")
"""Characters at which the grammar ends a bare word, even inside a string glued to it."""
_GLUED_MAX = 256
"""Strings glued to bare words `repair` respells in one line; a line with more is left a parse error."""
_GLUED_CHARS = 16_384
"""Pieces of bare words `repair` reads back, in all, to find where each word glued to a string starts (a
few milliseconds); a line that needs more is left a parse error."""
_GLUED_TAIL = lazy_re(r"[^\s;|&<>(){},'\"#`$@\[\]]*(?=[\s;|&<>(){},]|\Z)")
"""Literal text after a string glued to a bare word, up to where the word ends (`\\` of `/p:Out="$o"\\`)."""
_COLON_PARAMETER = lazy_re(r"(?:^|(?<=[\s;|&{(]))-[A-Za-z_]\w*:\Z")
"""`-Types:` just before a string: a parameter whose value is the string, its own token to PowerShell too."""
_NOT_BARE = frozenset("$@[('\"")
"""First characters of a word that is an expression or a string, not a bare word (`$x="a b"`)."""
_VALUE_START = frozenset("$@[('\"")
"""First characters of a statement or parenthesis that PowerShell reads as an expression."""
_VALUE_KEYWORDS = frozenset(("return", "throw"))
"""Keywords whose operand is an expression (`throw 'failed: ' +'exit 1'`)."""
_OPERATOR_WORD = lazy_re(r"[-+*/%]|-[A-Za-z]+")
"""An operator written before a string in an expression (`'a' +'b c'`, `'{0} x' -f'y z'`)."""
_GLUE_TOKENS = lazy_re(
    r"""(?s)'[^']*(?:''[^']*)*'?|"[^"`]*(?:`.[^"`]*)*"?"""  # a string, to its close or the end
    r"""|#|\s+|[;|&{()},]|[^\s'"#;|&{()},]+"""
)
"""The pieces `splits_glued_string` reads: a quoted string (to its close, or the end), a `#`, blanks, one
separator, or a run of other characters."""


def splits_glued_string(source: str) -> bool:
    """Does a bare word run into a quoted string that holds a blank or an operator (`/C"set x&&call %x%"`,
    `/p:Title="a b"`, `--grep='a b'`)? PowerShell reads one argument there; the grammar ends the word at
    the blank and reads the rest as more words, or as other commands after `&&`, without an error:
    `repair` quotes such a word whole. One pass over the line's pieces, following quotes and comments as
    PowerShell does."""
    if '"' not in source and "'" not in source:
        return False
    global _LAST_GLUE_ANSWER
    last = _LAST_GLUE_ANSWER
    if last[0] is source:
        return last[1]  # the same line again: the fast path asked first, the walk asks now
    answer = _splits_glued_string(source)
    _LAST_GLUE_ANSWER = (source, answer)  # one assignment: a reader sees a whole pair
    return answer


_LAST_GLUE_ANSWER: tuple[str | None, bool] = (None, False)
"""The last line `splits_glued_string` read and its answer, kept by identity."""


def _splits_glued_string(source: str) -> bool:
    prev = " "
    first = ""  # the first character of the word being read
    start = 0  # where that word starts
    # Expression mode (a statement or parenthesis that starts with a value: `$v = 'a' +'b c'`, `('a'
    # +'b c')`): there `+`, `-f` and the like before a string are operators, not a word glued to it.
    expr, opening, outer = False, True, []
    i, n = 0, len(source)
    while i < n:
        m = _GLUE_TOKENS.match(source, i)
        if m is None:  # pragma: no cover - every character starts some piece
            return False
        piece = m.group()
        head = piece[0]
        if opening and not head.isspace() and head not in ";|&{)},":
            expr, opening = head in _VALUE_START or head.isdigit(), head == "("
        if head in "'\"":
            bare = first not in _NOT_BARE and first != head
            if (
                bare
                and not prev.isspace()
                and prev not in _STATEMENT_START
                and _SPLITS_STRING.search(piece)
                and not (prev == ":" and _COLON_PARAMETER.search(source, max(0, i - 64), i))
                and not (expr and _OPERATOR_WORD.fullmatch(source, start, i))
            ):
                return True
            if not first:
                first, start = head, i
            prev = piece[-1]
        elif head == "#" and (
            prev.isspace()
            or prev in _STATEMENT_START
            or (prev == "<" and (i < 2 or source[i - 2].isspace() or source[i - 2] in _STATEMENT_START))
        ):
            # a comment, to the line's end (`<# … #>`: to its close)
            end = source.find("#>", i) if prev == "<" else source.find("\n", i)
            if end < 0:
                return False
            i = end
            continue
        elif head.isspace() or head in _STATEMENT_START or head in ",)}":
            first = ""
            prev = piece[-1]
            if head == "(":
                outer.append(expr)
                opening = True
            elif head == ")":
                expr = outer.pop() if outer else False
            elif head in ";|&{\n":
                opening = True
        else:
            if not first:
                first, start = head, i
            prev = piece[-1]
            if piece == "=" or (first == head and piece.lower() in _VALUE_KEYWORDS):
                opening = True  # (an assignment's value, also a hashtable entry's; `return 'a' +'b c'`)
        i = m.end()
    return False


_PLACEHOLDER = lazy_re(
    r"""'(?:[^']|'')*'|"(?:`.|""|[^"`])*"|`."""
    r"|(?<![\w$])<([A-Za-z_][\w.:/-]*(?: [A-Za-z_][\w.:/-]*){0,3})>"
)
"""A reference's placeholder (`icacls <file> /grant Everyone:F`). Quoted strings and escapes are matched only
to be skipped."""


def placeholders_filled(text: str) -> str | None:
    """A one-line `text` with its placeholders written as the run-time values they stand for
    (`icacls ${file} /grant Everyone:F`); None when it has none. PowerShell reserves `<`, so it refuses such
    a line whole and runs none of it: the filled-in line is what it would run once completed (the grammar
    reads `<file>` as a word and a redirection, which PowerShell never does)."""
    if "\n" in text:
        return None
    found = [m for m in _PLACEHOLDER.finditer(text) if m[1]]
    return placeholders_as_values(text, found) if found else None


def repair(source: str) -> str | None:
    """Respell valid PowerShell that the grammar rejects, without changing what the policy reads.

    The grammar fails on `Select-Object Name, Length` (a bare word before a comma), on code after
    `param(...)` on the same line, on a switch clause after another on the same line, on a jump to a
    loop's label (`break outer`, respelled `break 'outer'`), on native-style
    words such as `--`, `--opt=val`, `-run=X` and `-Run1`, on a dash word holding a `.` (`-I.`, which
    PowerShell breaks in two there), on a lone `-` or `+` (`Set-Location -`), on `10KB`, on `./build.ps1`
    starting a statement or assigned (`$x = ./build.ps1`: a leading `.` reads as dot-sourcing) and on a
    script of comments only. Spacing the comma as `Name ,Length`, breaking the line, breaking the dotted
    word where PowerShell does (`-I '.'`), quoting the dash word (`'--'`: the same text, still read as an
    option by the rules of native programs; one holding plain variables, `--jobs=$env:N`, in double quotes,
    where they expand as they did), lower-casing the suffix, calling the script with `&`, dropping the
    comments, giving a bare block to `.Where{…}` or after a comma (`Name,{$_.Length}`) in parentheses and
    the block given in parentheses to `.ForEach({…})` bare mean the same to PowerShell and nothing to the
    policy.
    A word that expands anything else is never quoted: it keeps the parse error, and the parse error blocks.
    """
    if _COMMENTS.sub("", source).isspace() or not _COMMENTS.sub("", source):
        return ""  # only comments: nothing runs (the grammar wants at least one statement)
    out: list[str] = []
    quote = ""
    escaped = False  # the string being read holds a backtick escape
    opened_at = 0  # where in `out` that string starts
    opened: list[str] = []  # the brackets open here: `h` for a hash literal `@{`, else the bracket
    glued = 0  # bare words quoted whole so far (see `_GLUED_MAX`)
    glued_chars = 0  # pieces of those words read back so far (see `_GLUED_CHARS`)
    i = 0
    n = len(source)
    while i < n:
        ch = source[i]
        if quote:
            if ch == "#" and quote == '"' and escaped and "$(" not in "".join(out[opened_at:]):
                # `"b`n# F"`: after an escape the grammar reads a `#` in the string as a comment; "`#" is
                # the same character to PowerShell
                out.append("`")
            out.append(ch)
            if ch == "`" and quote == '"' and i + 1 < n:
                out.append(source[i + 1])
                escaped = True
                i += 2
                continue
            if ch == quote:
                quote = ""
            i += 1
            continue
        if ch == "-" and out and out[-1] in " \t":
            j = i + 1
            while j < n and source[j] not in _WORD_END:
                j += 1
            word = source[i:j]
            # `--`, `--opt=val`, `-Run1`, and a lone `-` (`Set-Location -`: the previous location).
            native = (
                word in ("--", "-")
                or "=" in word
                or _DIGIT_PARAMETER.fullmatch(word) is not None
                or _PATH_PARAMETER.fullmatch(word) is not None
                or (_DIGIT_FLAG.fullmatch(word) is not None and _NEGATIVE_NUMBER.fullmatch(word) is None)
            )
            dotted = _DOTTED_PARAMETER.fullmatch(word)
            plain = _UNQUOTABLE.isdisjoint(word)
            if dotted is not None and not native and plain and not _at_statement_start(out):
                # `gcc -I. x.c`, `cmake -H. -Bbuild`, `mvn -Dmaven.test.skip`: PowerShell ends a parameter's
                # name at a `.` and passes the rest as the next word (`-I` `.`); so does the respelling (an
                # operator in an expression, `$a -f.5`, keeps its operand: a string, as the policy reads it).
                out.append(f"{dotted.group(1)} '{dotted.group(2)}'")
                i = j
                continue
            if native and not _at_statement_start(out) and not (word == "-" and _in_expression(out)):
                if _UNQUOTABLE.isdisjoint(word):
                    out.append(f"'{word}'")  # an argument of a command, never an operator
                    i = j
                    continue
                if _EXPANDING_OPTION.fullmatch(word):
                    out.append(f'"{word}"')  # `--jobs=$env:N` expands as in "...": the same word
                    i = j
                    continue
        if (
            ch == "+"
            and out
            and out[-1] in " \t"
            and (i + 1 == n or source[i + 1] in _WORD_END)
            and not _at_statement_start(out)
            and not _in_expression(out)
        ):
            out.append("'+'")  # `Set-Location +` (the next location): a word of a command, never an operator
            i += 1
            continue
        if (
            ch == "@"
            and out
            and out[-1] in " \t"
            and (m := _AT_WORD.match(source, i)) is not None
            and not _at_statement_start(out)
        ):
            out.append(f"'{m.group(0)}'")  # `yarn workspace @scope/pkg build`: the same word, quoted
            i = m.end()
            continue
        if ch == "$" and out and out[-1] in " \t" and (m := _VARIABLE_PATH.match(source, i)) is not None:
            # `$HOME\projects`: a variable glued to a path is one word; PowerShell expands it as in "...".
            out.append(f'"{m.group(0)}"')
            i = m.end()
            continue
        if ch == "$" and source[i + 1 : i + 2] == "{" and out and not out[-1].isspace():
            # `/p:Out=${env:WORKSPACE}\x`: a braced variable inside a bare word expands as in "..."
            k = _word_start(out)
            prefix = "".join(out[k:])
            m = _BRACED_WORD_REST.match(source, i)
            if (
                m is not None
                and prefix
                and _GLUED_PREFIX.fullmatch(prefix)
                and not _at_statement_start(out[:k])
            ):
                del out[k:]
                out.append('"' + prefix + m.group(0) + '"')
                i = m.end()
                continue
        if (
            ch == "["
            and out
            and out[-1] in " \t,"
            and (m := _BRACKET_GLOB.match(source, i)) is not None
            and not _at_statement_start(out)
            and _last_written(out) not in "=+-*/%"
        ):
            # `Get-ChildItem [0-9]*`: in a command's arguments a bracket starts a wildcard word, not a type
            # (the grammar reads `[0-9]` as one and fails on what follows)
            out.append(f"'{m.group(0)}'")
            i = m.end()
            continue
        if (
            ch == "."
            and source.startswith(("./", "../"), i)
            and (_at_statement_start(out) or (out[-1] in " \t" and _last_written(out) == "="))
        ):
            # `./build.ps1 -Test`, `$x = ./build.ps1`: the grammar reads a leading `.` as dot-sourcing
            out.append("& ")
        if ch == "/" and _at_statement_start(out):
            # `/usr/bin/env x`, `& /usr/libexec/PlistBuddy -c …` (pwsh on Linux and macOS): the grammar
            # rejects a command named by an absolute POSIX path; `& '/usr/bin/env'` is the same call
            j = i
            while j < n and source[j] not in _WORD_END:
                j += 1
            word = source[i:j]
            if _POSIX_PROGRAM_PATH.fullmatch(word) is not None and _UNQUOTABLE.isdisjoint(word):
                out.append(f"'{word}'" if _after_call_operator(out) else f"& '{word}'")
                i = j
                continue
        if (
            ch in "Ff"
            and _FOREACH_OBJECT_WORD.match(source, i) is not None
            and _at_statement_start(out)
            and not _after_call_operator(out)
        ):
            # `ForEach-Object { … }` starting a statement: the grammar takes its `ForEach` for the keyword
            out.append("& ")
        if ch in "'\"" and out and not out[-1].isspace() and out[-1] not in _OPENERS:
            # `--grep='a b'`: a bare word glued to a string is one argument; quote it as a whole.
            k = _word_start(out)
            prefix = "".join(out[k:])
            glued += 1
            glued_chars += len(out) - k
            if len(prefix) > n or glued > _GLUED_MAX or glued_chars > _GLUED_CHARS:
                # respelling a respelled word again doubles its quotes each time, and each respelling copies
                # the word so far (one of strings glued on and on, `a="a="a="…`, is read again for each):
                # give up (the parse error blocks)
                return None
            # `@{n='S'}`: in a hash literal `key=` before a string is an entry, not a word.
            entry = bool(opened) and opened[-1] == "h" and prefix.endswith("=")
            if _UNGLUED.search(prefix) is None and not entry:
                del out[k:]
                j = i + 1
                while j < n:
                    if source[j] == ch and not (ch == "'" and j + 1 < n and source[j + 1] == "'"):
                        break
                    j += 2 if (source[j] == "`" and ch == '"') or (ch == "'" and source[j] == "'") else 1
                if j >= n:
                    return None  # `cmd.exe" /c …`: a string never closed is PowerShell's parse error too
                body = source[i + 1 : j]
                tail = _GLUED_TAIL.match(source, j + 1)
                if tail is not None and tail.end() > j + 1:
                    # `/p:OutDir="$o"\\`: literal text after the string is the same word
                    body += tail.group(0)
                    j = tail.end() - 1
                if ch == "'":
                    out.append("'" + prefix.replace("'", "''") + body + "'")
                else:
                    out.append('"' + prefix.replace('"', '`"') + body + '"')
                i = j + 1
                continue
        if ch in "'\"":
            quote = ch
            escaped = False
            opened_at = len(out)
        elif ch == "," and out and not out[-1].isspace() and out[-1] not in ",([{":
            j = i + 1
            while j < n and source[j] in " \t":
                j += 1
            if source[j : j + 1] == "{":
                # `Select-Object Name,{$_.Length}`: the grammar takes no bare block after a comma; in
                # parentheses (`Name ,({$_.Length})`) it is the same element
                out.extend((" ", ",", "({"))
                opened.append("m")
                i = j + 1
                continue
            # A string before a string (`'a ', 'b '`) reads as written; respaced, it would not.
            if out[-1] not in "'\"" or source[j : j + 1] not in ("'", '"'):
                out.extend((" ", ",", " ") if source[j : j + 1] == "@" else (" ", ","))  # `Name ,@{...}` too
                i = j
                continue
        elif ch == "," and out and out[-1] in (" ", "\t") and source[i + 1 : i + 2] in (" ", "\t"):
            j = i + 1
            while j < n and source[j] in " \t":
                j += 1
            before = _last_written(out)[-1:]
            if before and before not in ",([{|;=&'\"" and source[j : j + 1] == "{":
                out.append(",({")  # `Name , {$_.Length}`: as above
                opened.append("m")
                i = j + 1
                continue
            if before and before not in ",([{|;=&'\"" and source[j : j + 1] not in ("", "'", '"', "@", "("):
                out.append(",")  # `build , dist` is `build ,dist` (the grammar takes only the latter)
                i = j
                continue
        elif ch == "?" and (step := _ps7_operator(source, i, out)) is not None:
            out.append(step[0])
            i += step[1]
            continue
        elif ch == ":" and out and out[-1] in " \t" and source[i + 1 : i + 2] in (" ", "\t"):
            out.append("+")  # the `:` of `$c ? a : b`; as a word (`echo a : b`) `+` is as inert
            i += 1
            continue
        elif ch.isdigit() and (m := _NUMBER_SUFFIX.match(source, i)) is not None:
            out.append(m.group(1) + m.group(2).lower())
            i = m.end()
            continue
        if ch == "{" and _MAGIC_METHOD.search("".join(out[-12:])) is not None:
            # `$list.Where{ $_.Ok }`: PowerShell calls `.Where` with a bare block; the grammar wants the
            # parentheses of a method call (`.Where({ $_.Ok })`, which means the same). It reads
            # `.ForEach{ }` as it is, and fails on `.ForEach({ })`: that one is given its block bare.
            opened.append("m")
            out.append("({")
            i += 1
            continue
        if ch == "(" and source[i + 1 :].lstrip()[:1] == "{" and _FOREACH_CALL.search("".join(out[-14:])):
            # `$list.ForEach({ $_.Name })`: the block given to `.ForEach` bare (`.ForEach{ … }`, which means
            # the same and which the grammar reads), its parentheses dropped
            opened.append("d")
            i += 1
            continue
        if ch in "({":
            opened.append("h" if ch == "{" and out and out[-1] == "@" else ch)
        elif ch in ")}" and opened:
            kind = opened.pop()  # popped either way
            if kind == "m":
                out.append("})")  # the end of a block given to `.Where`
                i += 1
                continue
            if kind == "d":
                i += 1  # the `)` around a block given to `.ForEach`
                continue
        out.append(ch)
        i += 1
    text = "".join(out)
    text = _PARAM_THEN_CODE.sub("\\1\n", text)
    if "switch" in text.lower():
        text = _CLAUSE_THEN_CLAUSE.sub("}\n", text)
    text = _LABELLED_JUMP.sub("\\1'\\2'", text)
    if _NAMED_BLOCK.search(text):
        # `begin { } process { } end { }`: the grammar knows named blocks only in a function's body.
        text = f"function _ {{\n{text}\n}}"
    elif _PARAM_BLOCK.search(text):
        text += "\n$null"  # the grammar wants a statement after a script's `param(...)`
    return text if text != source else None


_HANDLERS: dict[str, Callable[[PowerShellWalker, Node, Stdin | None], None]] = {
    "command": PowerShellWalker._command,
    "pipeline_chain": PowerShellWalker._pipeline_chain,
    "assignment_expression": PowerShellWalker._assignment,
    "variable": PowerShellWalker._variable,
    "type_literal": PowerShellWalker._type_literal,
    "redirection": PowerShellWalker._redirection,
    "generic_token": PowerShellWalker._generic_token,
    "function_statement": PowerShellWalker._function,
    "braced_variable": PowerShellWalker._variable,
    "invokation_expression": PowerShellWalker._member,
    "member_access": PowerShellWalker._member,
    "foreach_statement": PowerShellWalker._foreach,
    "if_statement": PowerShellWalker._condition,
    "elseif_clause": PowerShellWalker._condition,
    "while_condition": PowerShellWalker._condition,
}
_ENV_READ = r"\$(?:env:\w+|\{env:\w+\})"
_SET_PROBE = lazy_re(
    rf"(?i)(?:(?:-not\s*|!\s*)?{_ENV_READ}"
    rf"|\$null\s*-[ci]?(?:eq|ne)\s*{_ENV_READ}|{_ENV_READ}\s*-[ci]?(?:eq|ne)\s*\$null"
    rf"|(?:-not\s*|!\s*)?\[(?:system\.)?string\]::IsNullOr(?:Empty|WhiteSpace)\(\s*{_ENV_READ}\s*\))"
)
"""A condition asking only whether one environment variable is set: its value reaches no output."""


def walk(sink: Sink, frame: Frame, src: bytes, root: Node, text: str | None = None) -> None:
    """Report every command in `root` (a parsed PowerShell script, `text` its decoded source) to `sink`."""
    PowerShellWalker(sink, frame, src, text).visit(root)


# -- fast path --
_PLAIN = lazy_re(r"[\w./:\\*?~+-]+(?: [\w./:\\*?~+-]+)*", re.ASCII)
"""A line of bare words without variables, strings, escapes, operators, arrays or script blocks."""
_WORD = r"[\w./:\\*?~+-]+|'(?:[^'\n]|'')*'|" + r'"[^"$`\n]*"'
_QUOTED_LINE = lazy_re(f"(?:{_WORD})(?: (?:{_WORD}))*", re.ASCII)
"""The same with quoted arguments: single quotes hold anything, double quotes nothing PowerShell expands."""
_QUOTED_WORD = lazy_re(_WORD, re.ASCII)
_DASH_WORD = lazy_re(r"-.", re.DOTALL)
_KEYWORDS = frozenset(
    {
        "begin", "break", "catch", "class", "continue", "data", "define", "do", "dynamicparam", "else",
        "elseif", "end", "enum", "exit", "filter", "finally", "for", "foreach", "from", "function", "hidden",
        "if", "in", "param", "process", "return", "static", "switch", "throw", "trap", "try", "until",
        "using", "var", "while", "workflow", "parallel", "sequence", "inlinescript", "configuration",
    }
)  # fmt: skip


def simple_command(text: str, root: Node) -> list[Arg] | None:
    """The words of a script that is one command of literal words (`git status`, `Remove-Item -Recurse x`,
    `Select-String -Pattern 'TODO' -Path src`, `git log -n 5`), else None.

    Bare words and parameters without `$` or backticks are their own values, quoted strings without `$` or
    backticks their contents, so they are cut from the text; the tree confirms the shape word for word,
    and anything else (`-Name:value`, `-5`, paths run as commands, keywords) takes the walk.
    """
    if " - " in text or text.endswith(" -") or text[:2] in _UNC_STARTS:
        # The grammar reads `- 0` as one negated operand; a program on a share is a path to check: the walk.
        return None
    if _PLAIN.fullmatch(text):
        words = text.split(" ")
        if words[0].lower() in _KEYWORDS:
            return None
        # program > statement_list > pipeline > pipeline_chain > command > command_name, and per argument
        # command_elements > (separator > ' '), token: numbers, `-Name:value` and the like add nodes.
        expected = 6 if len(words) == 1 else 4 + 3 * len(words)
        if root.descendant_count == expected:
            command = root.child(0).child(0).child(0).child(0)
            if command.type != "command" or command.child(0).type != "command_name":
                return None
            # A bare word or parameter starting with a dash binds as a parameter (as `_elements` says).
            head = _new(Arg, (words[0], words[0], False, False, False, False))
            return [
                head,
                *[_new(Arg, (w, w, _DASH_WORD.match(w) is not None, False, False, False)) for w in words[1:]],
            ]
        # Numbers make more nodes: count them below.
    elif not _QUOTED_LINE.fullmatch(text):
        return None
    words = _QUOTED_WORD.findall(text)
    first = words[0]
    if first[0] in "'\"" or first.isdigit() or first.lower() in _KEYWORDS:
        return None
    argv = [Arg(first, first)]
    nodes = 7  # program > statement_list > pipeline > pipeline_chain > command > command_name, elements
    for word in words[1:]:
        quote = word[0]
        if quote == "'":
            argv.append(Arg(word[1:-1].replace("''", "'"), word))
            nodes += 6  # separator > ' ', then array > unary > string_literal > characters
        elif quote == '"':
            argv.append(Arg(word[1:-1], word))
            nodes += 6
        else:
            argv.append(_new(Arg, (word, word, len(word) > 1 and quote == "-", False, False, False)))
            nodes += 6 if word.isdigit() else 3  # a number is array > unary > integer > decimal
    if root.descendant_count != nodes:
        return None
    command = root.child(0).child(0).child(0).child(0)
    if command.type != "command" or command.child(0).type != "command_name":
        return None
    return argv
