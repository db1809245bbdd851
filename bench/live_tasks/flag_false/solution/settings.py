def parse_flag(text, default=False):
    """A yes/no setting from an environment-style string; `default` when the text is empty."""
    if not text.strip():
        return default
    return text.strip().lower() not in ("false", "no", "off", "0")


def debug_enabled(environ):
    return parse_flag(environ.get("DEBUG", ""))
