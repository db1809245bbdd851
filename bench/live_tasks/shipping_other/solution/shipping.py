def shipping_cost(country, weight_kg):
    """What sending a parcel of `weight_kg` to `country` costs."""
    if country == "US":
        return 5.0 + 1.0 * weight_kg
    elif country == "CA":
        return 8.0 + 2.0 * weight_kg
    return 25.0 + 5.0 * weight_kg
