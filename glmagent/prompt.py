"""`ContextBuilder`: turns the task, the memory and the last observations into chat messages.

The prompt stays bounded however many iterations accumulate: only the last iteration's observations are
shown in full (each capped). Of the memory of earlier iterations, the last `RECENT_ITERATIONS` summaries are
shown in full and older ones condensed to one line each, at most `CONDENSED_CAP` characters of them (the most
recent); the rest are named as omitted, and the whole memory part stays within `MEMORY_CAP`. The whole
prompt (system and user messages, retries included) stays within a token budget, `PROMPT_BUDGET_TOKENS` by
default, counted with `estimate_tokens`: when the parts add up to more, the user messages are cut further,
keeping their start (the task) and end (the latest results). The first prompt of a run carries a map of the
project's files. The schema shown to the model is the strict form (`glmagent.strict_schema`), which says per
tool which fields it takes and is simpler to follow than the documented schema's conditionals; it is carried
beside the system rules (`ChatMessage.schema_text`) so that a request enforcing it does not also spell it out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import BaseModel

from glmagent.contract import ONE_OF_FIELDS, REQUIRED_FIELDS, ToolName
from glmagent.memory import iteration_blocks
from glmagent.observation import AROUND_CHANGES, Observation
from glmagent.patching import REWRITE_MAX_LINES
from glmagent.planners.base import ChatMessage
from glmagent.testing import TestOutcome, trim_test_output

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
#: Characters of the project map in the first prompt (`glmagent.project_map` keeps whole lines and counts
#: the files it leaves out).
PROJECT_MAP_CAP = 8_000
#: Tokens of the whole prompt, as `estimate_tokens` counts them.
PROMPT_BUDGET_TOKENS = 12_000
#: Tokens a user message keeps at least when the prompt is cut to fit the budget.
_MIN_MESSAGE_TOKENS = 500


def estimate_tokens(text: str) -> int:
    """A deliberately high estimate of the tokens `text` costs: one per 3 ASCII characters (code and JSON
    tokenize more densely than prose) and one per other character (CJK, emoji, accents)."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    return -(-ascii_chars // 3) + (len(text) - ascii_chars)


def prompt_tokens(messages: Sequence[ChatMessage]) -> int:
    """`estimate_tokens` over every message of a conversation."""
    return sum(estimate_tokens(m.content) + estimate_tokens(m.schema_text) for m in messages)


_TOOL_DOCS = {
    ToolName.READ_FILE: 'show a text file with line numbers (a long one in parts: "lines": "START-END")',
    ToolName.APPLY_DIFF: "change ONE file: its whole new text in `content` (or search/replace `edits`)",
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
- Paths are relative to the project root. You cannot read or write outside it, nor write in .git/ or .hazina/
  or an editor's or agent's settings (.vscode/settings.json, .claude/hooks/, .mcp.json).
- apply_diff changes ONE file. A file of up to {rewrite_max} lines (or a new file): give its complete new
  text in "content", every line as it must read after the change, the unchanged ones too (without the line
  numbers and " | "). A longer file: give in "content" one whole Python function or class (def line to
  last line, unchanged lines too), which replaces the one of that name; or give "edits", a list of
  {{"search": [...], "replace": [...]}}, one per place that changes: "search" holds the file's lines to
  change, one string per line, copied exactly from the file (without the line numbers and " | ");
  "replace" the lines that replace them. The search lines must occur exactly once in the file, indentation
  included: add a neighbouring line when they are not unique. (A "diff" string of SEARCH/REPLACE blocks or
  a unified diff is accepted too.) Never write placeholders such as `... rest unchanged ...`. A change that
  does not match the file is refused, the file stays unchanged, and the refusal shows the file's real
  lines.
- Edit only files whose current content you have been shown (under "# Files", or by read_file).
- run is checked by a command policy. Destructive commands (recursive or forced deletes, disk formatting,
  truncating files, git clean), network access (curl, wget, package installs, git fetch/push, sockets) and
  environment inspection (env, printenv, $env:, secret variables) are BLOCKED, including through wrappers
  (sh -c, eval, python -c, encoded commands). Do not try to rephrase a blocked command: pick a safe approach.
- The loop, not you, decides when the task ends: return an empty "actions" list when the task is complete.
  {tests_rule}
- Keep "thought" short. Make small, verifiable steps.

{example_heading}
{example}
"""

_SCHEMA_SECTION = """
The reply must validate against this JSON schema:
{schema}
"""

_EXAMPLE_HEADING = (
    "An example reply (for some other project) that changes one line of app/greet.py, a short file sent "
    'whole in "content"; a line break is written \\n and a " is written \\" in JSON:'
)
# One definition and nothing else: a module preamble in the example (`import logging`, `log = ...`) came back
# at the top of 20 of 195 `content` replies of a small model, refused as another file or applied as an
# unused import in the user's code.
_EXAMPLE_REPLY = {
    "thought": "greeting() drops the punctuation it was given",
    "plan": ["end the greeting with the punctuation"],
    "actions": [
        {
            "tool": "apply_diff",
            "path": "app/greet.py",
            "content": (
                'def greeting(name, punctuation="!"):\n'
                '    """The line shown on the start page."""\n'
                '    return "Hello, " + name + punctuation\n'
            ),
        }
    ],
}


def _taught_fields(tool: ToolName) -> tuple[str, ...]:
    """The fields the prompt tells the model to give: the required ones, and the first (taught) of those a
    tool takes one of (apply_diff: `content`, though `edits` and `diff` are accepted too)."""
    return (*REQUIRED_FIELDS[tool], *ONE_OF_FIELDS.get(tool, ())[:1])


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
        prompt_budget: int = PROMPT_BUDGET_TOKENS,
    ) -> None:
        self.observation_cap = observation_cap
        self.observations_budget = observations_budget
        self.memory_cap = memory_cap
        self.recent_iterations = recent_iterations
        """Iteration summaries shown in full (None: all of them, as far as `memory_cap` allows)."""
        self.condensed_cap = condensed_cap
        self.prompt_budget = prompt_budget
        """Tokens (estimated) the whole prompt may take."""

    def system_prompt(self, test_command: str | None) -> str:
        tools = "\n".join(
            f"- {tool.value}: {doc}. Required fields: {', '.join(_taught_fields(tool)) or 'none'}"
            for tool, doc in _TOOL_DOCS.items()
        )
        if test_command:
            tests_rule = (
                f"The loop runs the tests (`{test_command}`) itself after every iteration that edits files "
                "or runs commands, and shows you the result: do not run them yourself. The task is done "
                "when they pass."
            )
        else:
            tests_rule = "There is no test command: verify your change yourself with `run` where useful."
        return SYSTEM_RULES.format(
            tools=tools,
            tests_rule=tests_rule,
            rewrite_max=REWRITE_MAX_LINES,
            example_heading=_EXAMPLE_HEADING,
            example=json.dumps(_EXAMPLE_REPLY),
        )

    @staticmethod
    def schema_text() -> str:
        """The strict reply schema written out, for a request that does not enforce it
        (`ChatMessage.schema_text`)."""
        from glmagent.strict_schema import strict_planner_schema

        return _SCHEMA_SECTION.format(schema=json.dumps(strict_planner_schema(), separators=(",", ":")))

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
        files: Sequence[tuple[str, str]] = (),
        notes: Sequence[str] = (),
    ) -> list[ChatMessage]:
        """The messages for one planner call (before any retry).

        `files` are `(path, fenced text)` of the files the model works on, shown in full after the
        results (`glmagent.focus`); `notes` are things the loop itself did or refused that the model must
        know (e.g. a test file put back)."""
        parts = [f"# Task\n{task.strip()}"]
        parts.append(f"Iteration {iteration} of at most {max_iterations} in this run.")
        if test_command:
            parts.append(f"# Test command\n`{test_command}`")
        if project_map:
            parts.append(
                "# Project files (paths relative to the project root)\n" + _cap(project_map, PROJECT_MAP_CAP)
            )
        parts.append("# Summary of earlier iterations\n" + (self._memory(memory_summary) or "(none yet)"))
        shown = {path for path, _ in files}
        if last is not None:
            parts.append(
                f"# Results of iteration {last.number}\n"
                + self._observations(last.observations, shown=shown, test_command=test_command)
            )
        if notes:
            parts.append("# Notes from the loop\n" + "\n".join(f"- {note}" for note in notes))
        if tests is not None:
            verdict = "PASSED" if tests.passed else "FAILED"
            parts.append(
                f"# Latest test run: {verdict} ({tests.summary})\n"
                + _cap(trim_test_output(tests.output), TEST_OUTPUT_CAP, tail=True)
            )
        if files:
            listed = "\n\n".join(f"## {text}" for _, text in files)
            parts.append(
                "# Files (their current content, each between ``` fences that are not part of it)\n" + listed
            )
        parts.append("Reply with one JSON object.")
        system = self.system_prompt(test_command)
        if last is not None:
            # The example reply teaches the first reply's form; later, a small model stuck on a fix copied
            # it (its file, its code) in 26 of 302 replies of iterations 2-6 and in none of 93 first replies.
            system = _without_example(system)
        messages = [
            ChatMessage(role="system", content=system, schema_text=self.schema_text()),
            ChatMessage(role="user", content="\n\n".join(parts)),
        ]
        return self._within_budget(messages)

    def shrink(self, messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        """The same conversation made much shorter, for a model whose context window refused it: each user
        and assistant message cut to a quarter, keeping its start and end; the system rules stay whole, less
        their example reply."""
        return [
            m.model_copy(update={"content": _without_example(m.content)})
            if m.role == "system"
            else ChatMessage(role=m.role, content=_cap_tokens(m.content, estimate_tokens(m.content) // 4))
            for m in messages
        ]

    def _within_budget(self, messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        """`messages` cut to fit `prompt_budget`: the system rules stay whole, the other messages share the
        rest equally (each keeps its start and end)."""
        if prompt_tokens(messages) <= self.prompt_budget:
            return list(messages)
        fixed = prompt_tokens([m for m in messages if m.role == "system"])
        flexible = [m for m in messages if m.role != "system"]
        share = max(_MIN_MESSAGE_TOKENS, (self.prompt_budget - fixed) // max(1, len(flexible)))
        return [
            m if m.role == "system" else ChatMessage(role=m.role, content=_cap_tokens(m.content, share))
            for m in messages
        ]

    def retry(self, messages: Sequence[ChatMessage], bad_reply: str, error: str) -> list[ChatMessage]:
        """The messages for the single retry after an invalid reply, quoting the validation error. The
        schema is written out in the system message whatever the request enforces: a server may take a
        `json_schema` response format and not hold the model to it."""
        return self._within_budget(
            [
                *(
                    m.model_copy(update={"content": m.text(), "schema_text": ""}) if m.schema_text else m
                    for m in messages
                ),
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
        )

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

    def _observations(
        self,
        observations: Sequence[Observation],
        *,
        shown: set[str] | frozenset[str] = frozenset(),
        test_command: str | None = None,
    ) -> str:
        if not observations:
            return "(no actions)"
        budget = self.observations_budget
        blocks = []
        for index, observation in enumerate(observations, start=1):
            cap = max(500, min(self.observation_cap, budget))
            text = _cap(_abridged(observation, shown, test_command), cap)
            budget -= len(text)
            blocks.append(f"## Action {index}: {observation.tool} — {observation.status}\n{text}")
        return "\n\n".join(blocks)


def _without_example(rules: str) -> str:
    """The system rules without the example reply at their end."""
    start = rules.find(_EXAMPLE_HEADING)
    return rules if start == -1 else rules[:start].rstrip("\n") + "\n"


def _abridged(observation: Observation, shown: set[str] | frozenset[str], test_command: str | None) -> str:
    """An observation's text, without what the prompt shows elsewhere anyway: a file read in full that is
    under "# Files", the numbered lines around an applied edit of such a file, and the output of the test
    command (under "# Latest test run")."""
    details = observation.details
    if observation.tool == "read_file" and observation.status == "ok" and details.get("path") in shown:
        return f"{observation.summary}: its current content is under # Files below."
    if observation.tool == "apply_diff" and observation.status == "ok" and details.get("path") in shown:
        # Small models sent those numbered, '+'-marked lines back as a file's content (6 of 1,224 edits in
        # the live bench's audit logs); the file as it now is lies under # Files.
        done, marker, _around = observation.output.partition(f"\n{AROUND_CHANGES}\n")
        if marker:
            return f"{done}\n(The file's current content is under # Files below.)"
    if (
        observation.tool == "run"
        and test_command
        and details.get("command", "").strip() == test_command.strip()
    ):
        return f"{observation.summary}: the test command; its output is under # Latest test run below."
    if observation.tool == "run":
        return trim_test_output(observation.output)
    return observation.output


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
    """Cut `text` to at most `limit` characters (the note included, for `limit` ≥ 64), saying how much was
    cut; keeps the start and end, or only the end (`tail`, for test output)."""
    if len(text) <= limit:
        return text
    note = f"[... {len(text):,} characters cut ...]"  # an upper bound on the figure, so its width too
    keep = max(0, limit - len(note) - 2)
    note = f"[... {len(text) - keep:,} characters cut ...]"
    if tail:
        return f"{note}\n{text[len(text) - keep :]}"
    head = keep - keep // 2
    return f"{text[:head]}\n{note}\n{text[len(text) - keep // 2 :]}"


def _cap_tokens(text: str, tokens: int) -> str:
    """Cut `text` (keeping its start and end) until `estimate_tokens` says it fits in `tokens`."""
    if estimate_tokens(text) <= tokens:
        return text
    limit = max(64, len(text) * tokens // max(1, estimate_tokens(text)))
    capped = _cap(text, limit)
    while estimate_tokens(capped) > tokens and limit > 64:
        limit = max(64, limit * 9 // 10)
        capped = _cap(text, limit)
    return capped
