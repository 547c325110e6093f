"""A player's rating, rating history and finished matches."""
