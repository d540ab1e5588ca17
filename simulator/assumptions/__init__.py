"""Assumed values: what a player states for a deck where the card database knows nothing (a value, or a card the
database does not list), kept apart from card data and named on every result made with them."""
