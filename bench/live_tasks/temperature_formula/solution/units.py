def to_fahrenheit(celsius):
    """Degrees Celsius to degrees Fahrenheit."""
    return celsius * 9 / 5 + 32


def to_celsius(fahrenheit):
    """Degrees Fahrenheit to degrees Celsius."""
    return (fahrenheit - 32) * 5 / 9
