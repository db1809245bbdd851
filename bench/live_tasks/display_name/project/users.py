def display_name(user):
    """How a user is shown: "First Last"."""
    return user["first"].title() + " " + user["last"].title()


def greeting(user):
    return f"Welcome back, {display_name(user)}!"
