import re


def slugify(title):
    """A URL-friendly version of a title: lower case, words joined by dashes."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower())
    return slug.strip("-")
