from shop.pricing import discounted, order_total


def checkout(cart, coupon=None):
    """The receipt for a cart of (price, quantity) pairs."""
    total = order_total(cart)
    if coupon == "TENOFF":
        total = discounted(total, 10)
    return {"items": len(cart), "total": total}
