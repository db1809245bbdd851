"""`ContextBuilder`: turns the task, the memory and the last observations into chat messages.

The prompt stays bounded however many iterations accumulate: only the last iteration's observations are
shown in full (each capped). Of the memory of earlier iterations, the last `RECENT_ITERATIONS` summaries are
shown in full and older ones condensed to one line each, at most `CONDENSED_CAP` characters of them (the most
recent); the rest are named as omitted, and the whole memory part stays within `MEMORY_CAP`. The whole
prompt stays within `PROMPT_BUDGET_CHARS` (about 20,000 tokens at ~4 characters a token): when the parts add
up to more, the observations are cut further. The first prompt of a run carries a map of the project's files.
The schema shown to the model is the strict form (`glmagent.strict_schema`), simpler to follow.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import BaseModel

from glmagent.contract import REQUIRED_FIELDS, ToolName
from glmagent.memory import iteration_blocks
from glmagent.observation import Observation
from glmagent.planners.base import ChatMessage
from glmagent.testing import TestOutcome

#: Characters of one observation's output shown to the planner; the rest is cut with a note.
OBSERVATION_CAP = 12_000
#: Characters of all of the last iteration's observations together.
OBSERVATIONS_BUDGET = 40_000
#: Characters of the memory summary of earlier iterations (the most recent part is kept).
MEMORY_CAP = 6_000
#: Iteration summaries shown in full; older ones are condensed to one line each.
RECENT_ITERATIONS = 3
#: Characters of one condensed iteration line.
CONDENSED_LINE_CAP = 120
#: Characters of all condensed lines together (the most recent are kept; older ones are named as omitted).
CONDENSED_CAP = 800
TEST_OUTPUT_CAP = 6_000
#: Characters of the project map in the first prompt.
PROJECT_MAP_CAP = 8_000
#: Characters of the whole prompt (system and user message): about 20,000 tokens.
PROMPT_BUDGET_CHARS = 80_000

_TOOL_DOCS = {
    ToolName.READ_FILE: "show a text file with line numbers",
    ToolName.APPLY_DIFF: "apply a unified diff to ONE file (create it with `--- /dev/null`)",
    ToolName.RUN: "run a shell command in the working directory (checked by the command policy first)",
    ToolName.GIT_STATUS: "git status --short --branch",
    ToolName.GIT_DIFF: "git diff against HEAD, optionally limited to `path`",
}

SYSTEM_RULES = """\
You are glmagent, an autonomous coding agent working inside one project directory.
Each turn you receive the task, a summary of earlier iterations and the results of your last actions.
Reply with EXACTLY ONE JSON object and nothing else (no prose, no Markdown fence):
{{"thought": "short reasoning", "plan": ["remaining steps"], "actions": [{{"tool": "...", ...}}]}}

Tools (the only ones that exist; anything else is rejected):
{tools}

Rules:
- Actions run in order. If one is rejected (unknown tool, blocked command, path outside the project) the
  rest of that batch is skipped.
- Paths are relative to the project root. You cannot read or write outside it, nor write in .git/ or .hazina/.
- apply_diff takes a unified diff for exactly one file: `--- a/PATH`, `+++ b/PATH`, `@@` hunks with a few
  unchanged context lines copied exactly from the file (read it first), `-` removed lines, `+` added lines.
  Never write placeholders such as `... rest unchanged ...`. A diff that is ambiguous or does not match the
  file is refused with an explanation and the file is left unchanged.
- run is checked by a command policy. Destructive commands (recursive or forced deletes, disk formatting,
  truncating files, git clean), network access (curl, wget, package installs, git fetch/push, sockets) and
  environment inspection (env, printenv, $env:, secret variables) are BLOCKED, including through wrappers
  (sh -c, eval, python -c, encoded commands). Do not try to rephrase a blocked command: pick a safe approach.
- The loop, not you, decides when the task ends: return an empty "actions" list when the task is complete.
  {tests_rule}
- Keep "thought" short. Make small, verifiable steps.

The reply must validate against this JSON schema:
{schema}
"""


class LastIteration(BaseModel):
    """What the previous iteration did, shown in full to the planner."""

    number: int
    observations: list[Observation]


class ContextBuilder:
    """Builds the system and user messages for one planner call."""

    def __init__(
        self,
        *,
        observation_cap: int = OBSERVATION_CAP,
        observations_budget: int = OBSERVATIONS_BUDGET,
        memory_cap: int = MEMORY_CAP,
        recent_iterations: int | None = RECENT_ITERATIONS,
        condensed_cap: int = CONDENSED_CAP,
    ) -> None:
        self.observation_cap = observation_cap
        self.observations_budget = observations_budget
        self.memory_cap = memory_cap
        self.recent_iterations = recent_iterations
        """Iteration summaries shown in full (None: all of them, as far as `memory_cap` allows)."""
        self.condensed_cap = condensed_cap

    def system_prompt(self, test_command: str | None) -> str:
        tools = "\n".join(
            f"- {tool.value}: {doc}. Required fields: {', '.join(REQUIRED_FIELDS[tool]) or 'none'}"
            for tool, doc in _TOOL_DOCS.items()
        )
        if test_command:
            tests_rule = (
                f"The loop runs the tests (`{test_command}`) itself after every iteration that edits files "
                "or runs commands; you will see the result."
            )
        else:
            tests_rule = "There is no test command: verify your change yourself with `run` where useful."
        from glmagent.strict_schema import strict_planner_schema

        return SYSTEM_RULES.format(
            tools=tools,
            tests_rule=tests_rule,
            schema=json.dumps(strict_planner_schema(), separators=(",", ":")),
        )

    def build(
        self,
        *,
        task: str,
        test_command: str | None,
        memory_summary: str,
        last: LastIteration | None,
        tests: TestOutcome | None,
        iteration: int,
        max_iterations: int,
        project_map: str | None = None,
    ) -> list[ChatMessage]:
        """The messages for one planner call (before any retry)."""
        parts = [f"# Task\n{task.strip()}"]
        parts.append(f"Iteration {iteration} of at most {max_iterations} in this run.")
        if test_command:
            parts.append(f"# Test command\n`{test_command}`")
        if project_map:
            parts.append("# Project files\n" + _cap(project_map, PROJECT_MAP_CAP))
        parts.append("# Summary of earlier iterations\n" + (self._memory(memory_summary) or "(none yet)"))
        if last is not None:
            parts.append(f"# Results of iteration {last.number}\n" + self._observations(last.observations))
        if tests is not None:
            verdict = "PASSED" if tests.passed else "FAILED"
            parts.append(
                f"# Latest test run: {verdict} ({tests.summary})\n"
                + _cap(tests.output, TEST_OUTPUT_CAP, tail=True)
            )
        parts.append("Reply with one JSON object.")
        messages = [
            ChatMessage(role="system", content=self.system_prompt(test_command)),
            ChatMessage(role="user", content="\n\n".join(parts)),
        ]
        if sum(len(m.content) for m in messages) > PROMPT_BUDGET_CHARS:
            messages = self.shrink(messages, PROMPT_BUDGET_CHARS)
        return messages

    def shrink(self, messages: Sequence[ChatMessage], limit: int | None = None) -> list[ChatMessage]:
        """The same conversation made shorter: each user message (observations, test output, memory) cut to
        a quarter — or to fit `limit` characters — keeping its start and end; the system rules stay whole."""
        total = sum(len(m.content) for m in messages)
        fixed = sum(len(m.content) for m in messages if m.role == "system")
        room = (limit if limit is not None else total // 4) - fixed
        flexible = [m for m in messages if m.role != "system"]
        share = max(2_000, room // max(1, len(flexible)))
        return [
            m if m.role == "system" else ChatMessage(role=m.role, content=_cap(m.content, share))
            for m in messages
        ]

    def retry(self, messages: Sequence[ChatMessage], bad_reply: str, error: str) -> list[ChatMessage]:
        """The messages for the single retry after an invalid reply, quoting the validation error."""
        return [
            *messages,
            ChatMessage(role="assistant", content=_cap(bad_reply, 4_000)),
            ChatMessage(
                role="user",
                content=(
                    f"Your reply was rejected: {error}\n"
                    "Reply again with exactly one JSON object that validates against the schema: "
                    '{"thought": string, "plan": [strings], "actions": [{"tool": ..., ...}]}. '
                    "No other text."
                ),
            ),
        ]

    def _memory(self, summary: str) -> str:
        blocks = iteration_blocks(summary)
        if self.recent_iterations is not None and len(blocks) > self.recent_iterations:
            cut = len(blocks) - self.recent_iterations
            summary = self._condensed(blocks[:cut]) + "\n".join(text for _, text in blocks[cut:])
        summary = summary.strip()
        if len(summary) <= self.memory_cap:
            return summary
        kept = summary[-self.memory_cap :]
        # Start at an iteration boundary so the planner never sees half a block.
        boundary = kept.find("Iteration ")
        kept = kept[boundary:] if boundary != -1 else kept
        return f"[... earlier iterations omitted: {len(summary) - len(kept):,} characters ...]\n{kept}"

    def _condensed(self, blocks: Sequence[tuple[int, str]]) -> str:
        """Older iterations, one line each, newest kept within `condensed_cap`; the rest named as omitted."""
        lines = [_condense(number, text) for number, text in blocks]
        kept: list[str] = []
        used = 0
        for line in reversed(lines):
            if used + len(line) + 1 > self.condensed_cap:
                break
            kept.append(line)
            used += len(line) + 1
        kept.reverse()
        omitted = blocks[: len(blocks) - len(kept)]
        parts = []
        if omitted:
            first, last = omitted[0][0], omitted[-1][0]
            span = f"iteration {first}" if first == last else f"iterations {first}-{last}"
            parts.append(f"[... earlier iterations omitted: {span}; the memory file keeps them ...]")
        parts.extend(kept)
        return "\n".join(parts) + "\n\n"

    def _observations(self, observations: Sequence[Observation]) -> str:
        if not observations:
            return "(no actions)"
        budget = self.observations_budget
        blocks = []
        for index, observation in enumerate(observations, start=1):
            cap = max(500, min(self.observation_cap, budget))
            text = _cap(observation.output, cap)
            budget -= len(text)
            blocks.append(f"## Action {index}: {observation.tool} — {observation.status}\n{text}")
        return "\n\n".join(blocks)


def _condense(number: int, block: str) -> str:
    """`Iteration N: bullet; bullet; ...` within `CONDENSED_LINE_CAP` characters (token counts left out)."""
    bullets = [
        line[2:].strip()
        for line in block.splitlines()[1:]
        if line.startswith("- ") and not line.startswith("- Planner used ")
    ]
    line = f"Iteration {number}: " + ("; ".join(bullets) or "no actions")
    return line if len(line) <= CONDENSED_LINE_CAP else line[: CONDENSED_LINE_CAP - 1] + "…"


def _cap(text: str, limit: int, *, tail: bool = False) -> str:
    """Cut `text` to about `limit` characters, saying how much was cut (keeping the end for test output)."""
    if len(text) <= limit:
        return text
    cut = len(text) - limit
    note = f"[... {cut:,} characters cut ...]"
    if tail:
        return f"{note}\n{text[-limit:]}"
    half = limit // 2
    return f"{text[:half]}\n{note}\n{text[-half:]}"
