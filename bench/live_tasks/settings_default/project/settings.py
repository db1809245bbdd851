"""Connection settings with defaults that the caller can override."""

DEFAULTS = {
    "host": "localhost",
    "port": 8080,
    "timeout": 3,
    "retries": 2,
}


def load(overrides=None):
    """The defaults updated with `overrides` (unknown keys are refused)."""
    settings = dict(DEFAULTS)
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS:
            raise KeyError(f"unknown setting: {key}")
        settings[key] = value
    return settings
