"""Pieces the web services share: problem+json errors, JSON bodies, Swagger UI's files."""
