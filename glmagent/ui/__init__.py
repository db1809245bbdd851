"""What the terminal shows while a task runs and when it ends; only the CLI imports this package.

    TaskScreen        a header, the live progress (a `LoopObserver`), the summary panel
    inert(text)       untrusted text with control characters made visible, never interpreted

Built on rich. Every string that came from the model, a command or a file passes through `inert` (or
`inert_text`) before it reaches a console, and consoles are created with markup off, so neither the terminal
nor rich ever reads such text as instructions. Names are imported lazily: `inert` alone costs no rich import.
"""

from __future__ import annotations

__all__ = ["TaskScreen", "colour_wanted", "inert", "outcome_sentence", "review_command"]

_LAZY = {
    "TaskScreen": "glmagent.ui._screen",
    "colour_wanted": "glmagent.ui._console",
    "inert": "glmagent.inert",
    "outcome_sentence": "glmagent.ui._summary",
    "review_command": "glmagent.ui._summary",
}

TYPE_CHECKING = False
if TYPE_CHECKING:
    from glmagent.inert import inert
    from glmagent.ui._console import colour_wanted
    from glmagent.ui._screen import TaskScreen
    from glmagent.ui._summary import outcome_sentence, review_command


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'glmagent.ui' has no attribute {name!r}")
