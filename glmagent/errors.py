"""The exception family of glmagent.

    GlmAgentError
    ├── ConfigError            bad flags, settings or files supplied by the user (CLI exit 2)
    │   ├── MissingApiKeyError a provider needs a key that is not set
    │   ├── TaskBusyError      another run of the same task id holds its lock
    │   └── RecordPathError    a folder or file glmagent records into is a link (or not what it must be)
    ├── PlannerError           provider failed: HTTP error, unreachable, timeout, bad reply (exit 3)
    │   ├── ContextTooLongError    the prompt exceeds the model's context: the loop shrinks it, once
    │   └── ContentFilteredError   the provider's content filter blocked the reply: the iteration fails
    ├── PolicyError            a policy file is invalid or a rule fails its own examples
    └── PatchRejected          a diff cannot be applied safely (raised by glmagent.patching)

Errors caused by *model* output (invalid JSON, unknown tools, blocked commands, diffs that do not apply) are
not exceptions that escape the loop: they become observations the planner can act on.
"""

from __future__ import annotations


class GlmAgentError(Exception):
    """Base class of every error glmagent raises on purpose."""


class ConfigError(GlmAgentError):
    """The user's flags, environment or configuration files are invalid."""


class MissingApiKeyError(ConfigError):
    """A provider needs an API key that is not set in the environment."""


class TaskBusyError(ConfigError):
    """Another run of the same task id is in progress (one run per task id at a time)."""


class RecordPathError(ConfigError):
    """glmagent's own files (memory, audit log, lock, anchors) would be written through a link or into
    something that is not a plain folder or file; nothing was written."""


class PlannerError(GlmAgentError):
    """The planner's provider gave no usable reply (HTTP failure, network, timeout, malformed body)."""


class ContextTooLongError(PlannerError):
    """The provider refused the prompt as longer than the model's context window."""


class ContentFilteredError(PlannerError):
    """The provider's content filter blocked the request or the reply."""


class PolicyError(GlmAgentError):
    """A policy file could not be loaded, or one of its rules does not match its own examples."""


class PatchRejected(GlmAgentError):
    """A unified diff was refused: `reason` is a short code, the message tells a model how to recover."""

    def __init__(self, message: str, *, reason: str, suggestion: str = "") -> None:
        super().__init__(message)
        self.reason = reason
        self.suggestion = suggestion
        """A diff the message tells the model to send instead (a swapped SEARCH/REPLACE), or ""."""
