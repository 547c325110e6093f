"""Weekly boards."""
