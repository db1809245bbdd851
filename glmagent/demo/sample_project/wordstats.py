"""Small text statistics used by the weekly report."""


def word_count(text):
    """Number of whitespace-separated words in `text`."""
    return len(text.split())


def average_word_length(text):
    """Mean length of the words in `text`, rounded to two decimals."""
    words = text.split()
    if not words:
        return 0.0
    return round(sum(len(word) for word in words) / len(words), 2)


def longest_word(text):
    """The longest word in `text` (the first one on ties)."""
    words = text.split()
    return max(words, key=len) if words else ""
