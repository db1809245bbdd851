"""Which environment variables hold secrets: one rule shared by command scrubbing and log redaction."""

from __future__ import annotations

import re

# Every provider key variable (ZAI_API_KEY, ZHIPUAI_API_KEY, OPENAI_API_KEY, ...) matches.
_SECRET_NAME = re.compile(
    r"(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|ACCESS_KEY)", re.IGNORECASE
)


def is_secret_name(name: str) -> bool:
    """True for variable names that look like they hold a key, token or password."""
    return _SECRET_NAME.search(name) is not None
