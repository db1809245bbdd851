def describe(status: int) -> str:
    """A one-word description of an HTTP status code."""
    if 200 <= status < 300:
        return "success"
    if 400 <= status < 500:
        return "client error"
    if 500 <= status < 600:
        return "server error"
    return "unknown"
