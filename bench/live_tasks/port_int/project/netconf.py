def parse_port(value):
    """A TCP port from user input such as " 8080 "."""
    text = value.strip()
    if not text.isdigit():
        raise ValueError(f"not a port: {value!r}")
    port = int(text)
    if not 0 < port < 65536:
        raise ValueError(f"port out of range: {port}")
    return port
