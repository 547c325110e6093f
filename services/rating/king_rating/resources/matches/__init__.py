"""The match archive."""
