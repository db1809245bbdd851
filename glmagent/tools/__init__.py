"""The five tools and the executor that is the only way to call them."""
