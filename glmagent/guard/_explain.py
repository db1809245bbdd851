"""`Policy.explain`: every simple command the policy found in a line, the layers that wrap it, and the rules.

The trace comes from the same evaluation that decides (it records what the walk reports instead of
re-deriving it), run once more collecting every finding instead of stopping at the first deny.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ._allowlist import AllowlistEvaluation
from ._findings import Finding
from ._models import AllowEntry, Decision
from ._syntax import DYN, Arg, Feed, Frame, Stdin


class ExplainedFinding(BaseModel):
    """A rule that matched, and the sentence saying where and why."""

    rule_id: str
    category: str
    reason: str
    decides: bool = False
    """This is the finding the decision reports."""


class ExplainedCommand(BaseModel):
    """One simple command the evaluation found, at the layer it runs in."""

    depth: int
    """How many wrappers or nested scripts it sits inside (0: written in the line itself)."""
    via: list[str]
    """The layers around it, outermost first (`sudo`, `sh -c`, ...)."""
    dialect: str
    program: str
    """The program as the rules name it (lower case, no `.exe`, an alias resolved)."""
    words: list[str]
    """The words after quote removal and normalisation; a word known only at run time as written."""
    raw: list[str]
    """The words as written."""
    allowed_by: list[str] | None = None
    """Allowlist mode: the entry that allows it on each layer, or None when it is not on the allowlist."""
    findings: list[ExplainedFinding] = []


class Explanation(BaseModel):
    """Why a command is allowed or blocked: the decision, the parse, and every layer the policy unwrapped."""

    decision: Decision
    mode: str
    parse_status: str
    commands: list[ExplainedCommand]
    line_findings: list[ExplainedFinding] = []
    """Findings about the line as a whole (a parse error) rather than one of its commands."""
    tree: str | None = None
    """The parser's syntax tree of the line, when asked for."""


class _Findings(list[Finding]):
    """The evaluation's findings list, telling the trace about each one as it is added."""

    def __init__(self, added: Any) -> None:
        super().__init__()
        self._added = added

    def append(self, item: Finding) -> None:
        super().append(item)
        self._added(item)


class TracingEvaluation(AllowlistEvaluation):
    """An evaluation that records each simple command (with its layers) and the findings each one raised."""

    __slots__ = ("_open", "calls", "steps", "unattached")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.steps: list[ExplainedCommand] = []
        self.calls: list[tuple[list[Arg], Frame]] = []
        """The words and frame of each step, as the matcher sees them."""
        self.unattached: list[Finding] = []
        self._open: list[ExplainedCommand] = []
        self.findings = _Findings(self._attach)

    def _attach(self, finding: Finding) -> None:
        rule, _, reason = finding
        found = ExplainedFinding(rule_id=rule.id, category=rule.category, reason=reason)
        if self._open:
            self._open[-1].findings.append(found)
        else:
            self.unattached.append(finding)

    def command(
        self,
        argv: list[Arg],
        frame: Frame,
        stdin: Stdin | None,
        resolved_name: str | None = None,
        feeds: tuple[Feed, ...] = (),
    ) -> None:
        if not argv or argv[0].block:
            super().command(argv, frame, stdin, resolved_name, feeds)
            return
        head = argv[0].text
        program = head if DYN in head else self.p.word_info(head, frame.dialect, frame.aliases).names[-1]
        step = ExplainedCommand(
            depth=frame.depth,
            via=list(frame.via),
            dialect=frame.dialect,
            program=program.replace(DYN, "…"),
            words=[a.text if DYN not in a.text else a.raw for a in argv],
            raw=[a.raw for a in argv],
        )
        self.steps.append(step)
        self.calls.append((argv, frame))
        self._open.append(step)
        try:
            super().command(argv, frame, stdin, resolved_name, feeds)
        finally:
            self._open.pop()

    def gate(self, argv: list[Arg], frame: Frame) -> list[AllowEntry] | None:
        entries = super().gate(argv, frame)
        if self._open and entries is not None:
            self._open[-1].allowed_by = [e.id for e in entries] or ["(does nothing)"]
        return entries


def explanation(
    trace: TracingEvaluation, decision: Decision, mode: str, tree: str | None = None
) -> Explanation:
    """Put a finished trace and the real decision together, marking the finding that decided."""
    line = [
        ExplainedFinding(rule_id=rule.id, category=rule.category, reason=reason)
        for rule, _, reason in trace.unattached
    ]
    if not decision.allowed:
        every = [f for step in trace.steps for f in step.findings] + line
        same_rule = [f for f in every if f.rule_id == decision.rule_id]
        exact = [f for f in same_rule if f.reason == decision.reason][:1]
        # A decision may name several findings at once (every command missing from the allowlist).
        for found in exact or [f for f in same_rule if f.reason in decision.reason.split("; ")]:
            found.decides = True
    return Explanation(
        decision=decision,
        mode=mode,
        parse_status=trace.parse_status,
        commands=trace.steps,
        line_findings=line,
        tree=tree,
    )
