"""The functions and classes a Python text defines, with their lines: what edits of one function and the
prompt's pointers into a file are both read by."""

from __future__ import annotations

import ast
from dataclasses import dataclass

DefinitionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass(frozen=True, slots=True)
class Definition:
    """A function or class: its name and its lines, 1-based and inclusive (decorators included), and the
    column its `def`/`class` starts at (0: top level). With no name, a line that no definition holds."""

    name: str
    first: int
    last: int
    column: int = 0

    def label(self) -> str:
        lines = f"line {self.first}" if self.first == self.last else f"lines {self.first}-{self.last}"
        return f"{self.name} ({lines})" if self.name else lines


def first_line(node: DefinitionNode) -> int:
    """Where a definition starts: its first decorator, or its `def`/`class` line."""
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def definitions(text: str) -> list[Definition] | None:
    """Every function and class of the text, nested ones included, in no particular order; None when it
    does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return [
        Definition(node.name, first_line(node), node.end_lineno or node.lineno, node.col_offset)
        for node in ast.walk(tree)
        if isinstance(node, DefinitionNode)
    ]
