DEFAULT_TIMEOUT = 30


def timeout_for(config):
    """Seconds to wait for the server, from the parsed config file."""
    return config["network"]["timeout"]


def describe(config):
    return f"waiting up to {timeout_for(config)} s"
