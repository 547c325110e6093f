"""Ordered SQL migrations (``NNNN_name.sql``), applied by ``python -m king_rating.migrate``."""
