-- 0005: the rating history is keyed by (match_id, player_id), and that one index also serves
-- everything rating_history_by_match served. Before, each history row went into three
-- indexes, two of them led by the player: (player_id, match_id) for the key and
-- (player_id, seq DESC) for a player's history. Nothing reads by (player_id, match_id) that
-- the new key cannot answer (the match endpoint asks for one match's rows; deleting a match
-- or checking the key to matches reads by match id; deleting a player reads the per-player
-- index), and the match id is already ingestion's idempotency key, so each new row now costs
-- two index insertions instead of three (docs/performance.md).

CREATE UNIQUE INDEX rating_history_match_player ON rating_history (match_id, player_id);
ALTER TABLE rating_history DROP CONSTRAINT rating_history_pkey;
ALTER TABLE rating_history
    ADD CONSTRAINT rating_history_pkey PRIMARY KEY USING INDEX rating_history_match_player;
DROP INDEX rating_history_by_match;
