def parse_flag(text, default=False):
    """A yes/no setting from an environment-style string; `default` when the text is empty."""
    if not text.strip():
        return default
    return bool(text)


def debug_enabled(environ):
    return parse_flag(environ.get("DEBUG", ""))
