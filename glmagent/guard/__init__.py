"""The fail-closed command policy: parse a command for real, unwrap what it runs, and deny by rule.

    from glmagent.guard import Policy
    decision = Policy.default().check("ls && rm -fr ~", "posix")
    decision.allowed, decision.rule_id   # (False, "destructive.recursive-delete")

Rules live in `policy/default.toml` as data with examples that are proven when the policy loads. Parsers are
imported on the first check, so importing this package stays cheap.
"""

from __future__ import annotations

from ._models import Decision, Rule, ShellKind
from ._policy import Policy

__all__ = ["Decision", "Policy", "Rule", "ShellKind"]
