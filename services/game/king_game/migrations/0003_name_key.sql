-- The lookalike key of a name (king_game.names.lookalike_key): no name may have the key of a
-- registered one. Computed in Python: king_game.migrate fills it for the rows that have none.
ALTER TABLE game.players ADD COLUMN name_key text;

CREATE INDEX players_registered_name_key ON game.players (name_key)
    WHERE password_hash IS NOT NULL;
