"""A Python file sent whole in a JSON string, read in the file's own style where only the style moved.

To write a `"` inside a JSON string a model must escape it (`\\"`); small models avoid that by turning the
file's double-quoted strings into single-quoted ones and by leaving docstrings (`\"\"\"…\"\"\"`) out. The
content is then the fix plus a handful of lines that differ from the file only in how they spell the same
strings, and the check that most lines come back refused it as other content (in the live bench, the 1.5B
model's first reply to http_status_branch was the right branch, refused so five times in a row).

So before that check, for Python files:
- a new line that differs from a line of the file only in its string literals' quotes, each literal with the
  same value (compared token by token, literal by literal, `ast.literal_eval`), is taken as the file's line;
- a function, class or the module that the file documents with a docstring and the content sends without
  one gets the file's docstring back (one whose docstring the content changed keeps the content's).
Nothing else is touched: a line whose tokens or values differ in any other way stays as sent. The note names
what was read so.
"""

from __future__ import annotations

import ast
import io
import tokenize

from glmagent.python_defs import DefinitionNode

_Documented = DefinitionNode | ast.Module
_LAYOUT = (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT)


def in_file_style(old: list[str], new: list[str]) -> tuple[list[str], list[str]]:
    """`new` with quote-only changes of the file's lines undone and dropped docstrings put back (see the
    module docstring), and the notes saying so (none: `new` unchanged)."""
    notes = []
    old_tree = _parse(old)  # read once: both readings need it
    new, requoted = _requoted(old, old_tree, new)
    if requoted:
        notes.append(
            f"{requoted} line{'s' if requoted > 1 else ''} differing from the file's only in the quotes of "
            "their strings kept as the file writes them"
        )
    new, restored = _docstrings_kept(old, old_tree, new)
    if restored:
        notes.append(f"the docstring{'s' if len(restored) > 1 else ''} of {', '.join(restored)} kept")
    return new, notes


def _requoted(old: list[str], old_tree: ast.Module | None, new: list[str]) -> tuple[list[str], int]:
    own = {line.strip() for line in old}
    by_key: dict[str, str | None] = {}
    for line in old:
        text = line.strip()
        if "'" in text or '"' in text:
            key = _quote_key(text)
            # Two lines of the file that read the same way: which one is meant is unknown.
            by_key[key] = text if by_key.get(key, text) == text else None
    docstrings: dict[str, str | None] = {}
    # Only content that does not parse as sent: a docstring the content rewrote over several lines opens
    # with the file's words and is the content's own (its first line alone is no docstring).
    for text in _docstring_lines(old, old_tree) if _parse(new) is None else ():
        key = _bare(text)
        docstrings[key] = text if docstrings.get(key, text) == text else None
    out, count = [], 0
    for line in new:
        text = line.strip()
        match = None if text in own or ("'" not in text and '"' not in text) else by_key.get(_quote_key(text))
        if match is None or not _same_tokens(match, text):
            # A docstring re-quoted so that it no longer parses (`"Price: "12.50 EUR"."` for the file's
            # `"""Price: "12.50 EUR"."""`): the same words in a docstring's place are the file's docstring.
            match = None if text in own else docstrings.get(_bare(text))
        if match is not None:
            out.append(line[: len(line) - len(line.lstrip())] + match)
            count += 1
        else:
            out.append(line)
    return out, count


def _bare(text: str) -> str:
    """The line without quotes and backslashes: a docstring's words however it is quoted."""
    return text.strip().replace('"', "").replace("'", "").replace("\\", "").strip()


def _docstring_lines(old: list[str], tree: ast.Module | None) -> list[str]:
    """The file's one-line docstrings, as written (stripped)."""
    if tree is None:
        return []
    found = []
    for _name, node in _named(tree):
        doc = node.body[0] if node.body else None
        if (
            isinstance(doc, ast.Expr)
            and isinstance(doc.value, ast.Constant)
            and isinstance(doc.value.value, str)
            and doc.lineno == doc.end_lineno
        ):
            found.append(old[doc.lineno - 1].strip())
    return found


def _quote_key(text: str) -> str:
    """The line with every quote, escaped or not, single or triple, spelled `'`: lines differing in quotes
    only share it (a docstring's triple quotes sent as single ones too)."""
    text = text.replace('"""', "'").replace("'''", "'")
    return text.replace("\\'", "'").replace('\\"', "'").replace('"', "'")


def _tokens(text: str) -> list[tokenize.TokenInfo] | None:
    try:
        return [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type not in _LAYOUT]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None


def _same_tokens(file_line: str, sent: str) -> bool:
    """Whether the two lines are the same tokens, string literals compared by their values."""
    a, b = _tokens(file_line), _tokens(sent)
    if a is None or b is None or len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x.type != y.type:
            return False
        if x.string == y.string:
            continue
        if x.type != tokenize.STRING or not _same_literal(x.string, y.string):
            return False
    return True


def _same_literal(a: str, b: str) -> bool:
    try:
        x, y = ast.literal_eval(a), ast.literal_eval(b)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False  # an f-string or anything that is not a plain literal: only the same text counts
    return type(x) is type(y) and x == y


def _docstrings_kept(
    old: list[str], old_tree: ast.Module | None, new: list[str]
) -> tuple[list[str], list[str]]:
    new_tree = _parse(new)
    if old_tree is None or new_tree is None:
        return new, []
    documented = {
        name: node for name, node in _named(old_tree) if ast.get_docstring(node, clean=False) is not None
    }
    inserts = []
    for name, node in _named(new_tree):
        source = documented.get(name)
        if source is None or type(source) is not type(node) or not node.body:
            continue  # a function sent back as a class is another thing: its docstring is not the file's
        if ast.get_docstring(node, clean=False) is not None:
            continue
        doc, first = source.body[0], node.body[0]
        if doc.col_offset != first.col_offset:
            continue  # put back only where its lines fit as they are (a docstring's text is its value)
        at = first.lineno - 1
        if isinstance(first, DefinitionNode) and first.decorator_list:
            at = first.decorator_list[0].lineno - 1
        inserts.append((at, old[doc.lineno - 1 : doc.end_lineno or doc.lineno], name))
    if not inserts:
        return new, []
    out = list(new)
    for at, doc_lines, _name in sorted(inserts, reverse=True):
        out[at:at] = doc_lines
    if _parse(out) is None:
        return new, []
    return out, sorted(name for _at, _doc, name in inserts)


def _parse(lines: list[str]) -> ast.Module | None:
    try:
        return ast.parse("\n".join(lines))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _named(tree: ast.Module) -> list[tuple[str, _Documented]]:
    """The module (named "the module") and every function and class, by dotted name; names used twice are
    left out (which one is meant is unknown)."""
    found: list[tuple[str, _Documented]] = [("the module", tree)]

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, DefinitionNode):
                name = f"{prefix}{child.name}"
                found.append((name, child))
                walk(child, f"{name}.")

    walk(tree, "")
    counts: dict[str, int] = {}
    for name, _node in found:
        counts[name] = counts.get(name, 0) + 1
    return [(name, node) for name, node in found if counts[name] == 1]
