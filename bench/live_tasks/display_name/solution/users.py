def display_name(user):
    """How a user is shown: "First Last"."""
    if not user["first"] or not user["last"]:
        return user["username"]
    return user["first"].title() + " " + user["last"].title()


def greeting(user):
    return f"Welcome back, {display_name(user)}!"
