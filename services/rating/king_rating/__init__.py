"""The rating service: Elo-FFA-4 ratings, weekly boards and the archive of finished matches.

Layout: ``elo`` and ``weekly`` are pure rating math; ``store`` is the Postgres side (one
transaction per finished match); ``jobs`` is the RQ glue; ``app`` builds the HTTP API.
"""
