-- 0004: a rating change must belong to a real player and a real match, and a week's final
-- ranks to a real week and real players. 0002 had dropped every foreign key for ingest speed;
-- measured side by side (docs/performance.md), these cost ingestion less than a tenth of its
-- CPU, while all of them together cost more, so the seats' and the live board's rows stay
-- without keys (they are written in the same transaction as the rows they refer to).
--
-- Nothing cascades: a rating change or a final rank is removed on purpose before its match,
-- player or week. The index keeps the key check of deleting a match from reading the whole
-- history.

ALTER TABLE rating_history
    ADD CONSTRAINT rating_history_player_id_fkey
    FOREIGN KEY (player_id) REFERENCES players (player_id);
ALTER TABLE rating_history
    ADD CONSTRAINT rating_history_match_id_fkey
    FOREIGN KEY (match_id) REFERENCES matches (match_id);
CREATE INDEX rating_history_by_match ON rating_history (match_id);

ALTER TABLE weekly_final
    ADD CONSTRAINT weekly_final_week_fkey FOREIGN KEY (week) REFERENCES weeks (week);
ALTER TABLE weekly_final
    ADD CONSTRAINT weekly_final_player_id_fkey
    FOREIGN KEY (player_id) REFERENCES players (player_id);
