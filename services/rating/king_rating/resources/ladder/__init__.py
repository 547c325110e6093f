"""The all-time ladder."""
