"""Pieces the web services share: problem+json errors."""
