"""King (Rıfkı) game service: accounts, tables, play, events, clocks and the fair deal.

``king_game.app.create_app()`` builds the Flask app; matches live in Redis through the shared
match layer (``king_match``), accounts in Postgres (schema ``game``).
"""
