def letter_grade(score):
    """The letter for a score from 0 to 100."""
    if not 0 <= score <= 100:
        raise ValueError(f"score out of range: {score}")
    if score >= 90:
        return "A"
    elif score >= 80:
        return "B"
    elif score >= 70:
        return "C"
    elif score >= 60:
        return "D"


def report(scores):
    """name -> letter for a dict of name -> score."""
    return {name: letter_grade(score) for name, score in scores.items()}
