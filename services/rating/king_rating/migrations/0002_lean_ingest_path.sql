-- 0002: a leaner write path for ingestion.
--
-- Every row of match_players, rating_history and weekly_scores is written by the single
-- ingestion transaction, together with the rows they refer to, so the foreign keys only
-- cost time (a trigger and a row lock per row: about a third of an ingestion). They go.
-- Two indexes that only served rare reads go too: the match endpoint finds rating changes
-- through the primary key (player_id, match_id), and replaying a player's week reads the
-- per-player index by end time.

ALTER TABLE match_players DROP CONSTRAINT IF EXISTS match_players_match_id_fkey;
ALTER TABLE rating_history DROP CONSTRAINT IF EXISTS rating_history_player_id_fkey;
ALTER TABLE rating_history DROP CONSTRAINT IF EXISTS rating_history_match_id_fkey;
ALTER TABLE weekly_scores DROP CONSTRAINT IF EXISTS weekly_scores_week_fkey;
ALTER TABLE weekly_final DROP CONSTRAINT IF EXISTS weekly_final_week_fkey;

DROP INDEX IF EXISTS rating_history_by_match;
DROP INDEX IF EXISTS match_players_by_week;
