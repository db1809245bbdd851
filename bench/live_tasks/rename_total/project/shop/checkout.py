from shop.pricing import calc_total, discounted


def checkout(cart, coupon=None):
    """The receipt for a cart of (price, quantity) pairs."""
    total = calc_total(cart)
    if coupon == "TENOFF":
        total = discounted(total, 10)
    return {"items": len(cart), "total": total}
