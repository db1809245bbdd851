def average_score(scores):
    """The mean of the scores, rounded to one decimal."""
    total = 0
    for score in scores:
        total += score
    return round(total / len(scores), 1)
