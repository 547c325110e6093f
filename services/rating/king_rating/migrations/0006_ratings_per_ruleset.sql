-- 0006: every ruleset rated apart (docs/rating.md). A player has one rating per ruleset in
-- `ratings` (the rating columns of `players` go), and the rating history, the board's seats,
-- the live board and the final ranks each say which ruleset they belong to.
--
-- The existing data is split by the ruleset of each archived match: the rating history is
-- replayed in the order it was applied (its seq), each match against the ratings its players
-- had in that ruleset, with the Elo of king_rating/elo.py as it is at this migration; the weekly
-- standings are recomputed from the archived seats, and a frozen week's final ranks from those.
-- Only `standard` and `classic20` were ever served before; a rated match whose ruleset is not
-- one of the rated rulesets (test and benchmark data say "classic") counts as `standard`, so no
-- rated match drops out of the replay. The archive itself (`matches.ruleset`) is left as it was.

CREATE TABLE ratings (
    player_id     text NOT NULL REFERENCES players (player_id),
    ruleset       text NOT NULL,
    rating        double precision NOT NULL DEFAULT 1500,
    rated_matches integer NOT NULL DEFAULT 0,
    -- End time (on the game server) of the player's latest rated match in this ruleset: the
    -- ladder lists only players active in the last 30 days.
    last_rated_at timestamptz,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, ruleset)
);

-- A ruleset's all-time ladder: established players by rating.
CREATE INDEX ratings_ladder ON ratings (ruleset, rating DESC, player_id)
    WHERE rated_matches >= 15;

ALTER TABLE rating_history ADD COLUMN ruleset text;
-- Set with `week`, when the seat counts for a board.
ALTER TABLE match_players ADD COLUMN ruleset text;
ALTER TABLE weekly_scores ADD COLUMN ruleset text;
ALTER TABLE weekly_final ADD COLUMN ruleset text;

CREATE FUNCTION pg_temp.rated_ruleset(name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN name IN ('standard', 'classic20', 'traditional', 'konturlu',
                              'international')
                THEN name ELSE 'standard' END
$$;

UPDATE match_players mp SET ruleset = pg_temp.rated_ruleset(m.ruleset)
  FROM matches m
 WHERE m.match_id = mp.match_id AND mp.week IS NOT NULL;

-- The replay: each rated match in the order it was first applied, its seats in seat order (the
-- order elo.rate_match sums in), every change from the ratings before the match.
DO $$
DECLARE
    m        record;
    ids      text[];
    places   int[];
    before   float8[];
    played   int[];
    ks       float8[];
    total    float8;
    change   float8;
    seats    int;
BEGIN
    FOR m IN
        SELECT h.match_id, pg_temp.rated_ruleset(mt.ruleset) AS ruleset, mt.ended_at
          FROM rating_history h JOIN matches mt USING (match_id)
         GROUP BY h.match_id, mt.ruleset, mt.ended_at
         ORDER BY min(h.seq)
    LOOP
        SELECT array_agg(h.player_id ORDER BY mp.seat),
               array_agg(h.place::int ORDER BY mp.seat),
               array_agg(coalesce(r.rating, 1500::float8) ORDER BY mp.seat),
               array_agg(coalesce(r.rated_matches, 0) ORDER BY mp.seat)
          INTO ids, places, before, played
          FROM rating_history h
          JOIN match_players mp ON mp.match_id = h.match_id AND mp.player_id = h.player_id
          LEFT JOIN ratings r ON r.player_id = h.player_id AND r.ruleset = m.ruleset
         WHERE h.match_id = m.match_id;
        seats := array_length(ids, 1);
        ks := '{}';
        FOR i IN 1..seats LOOP
            ks := ks || CASE WHEN played[i] < 15 THEN 48::float8
                             WHEN played[i] < 40 THEN 24::float8
                             ELSE 12::float8 END;
        END LOOP;
        FOR i IN 1..seats LOOP
            total := 0;
            FOR j IN 1..seats LOOP
                IF i <> j THEN
                    total := total
                        + (CASE WHEN places[i] < places[j] THEN 1::float8
                                WHEN places[i] = places[j] THEN 0.5::float8
                                ELSE 0::float8 END
                           - 1::float8 / (1::float8 + power(10::float8,
                                                            (before[j] - before[i]) / 400::float8)));
                END IF;
            END LOOP;
            change := ks[i] / (seats - 1) * total;
            UPDATE rating_history
               SET ruleset = m.ruleset, rating_before = before[i],
                   rating_after = before[i] + change, delta = change, k = ks[i],
                   rated_matches_before = played[i]
             WHERE match_id = m.match_id AND player_id = ids[i];
            INSERT INTO ratings AS r (player_id, ruleset, rating, rated_matches, last_rated_at)
            VALUES (ids[i], m.ruleset, before[i] + change, 1, m.ended_at)
            ON CONFLICT (player_id, ruleset) DO UPDATE
               SET rating = EXCLUDED.rating, rated_matches = r.rated_matches + 1,
                   last_rated_at = GREATEST(r.last_rated_at, EXCLUDED.last_rated_at);
        END LOOP;
    END LOOP;
END
$$;

ALTER TABLE rating_history ALTER COLUMN ruleset SET NOT NULL;
-- A player's history in one ruleset in the order it was applied.
DROP INDEX rating_history_by_player;
CREATE INDEX rating_history_by_player ON rating_history (player_id, ruleset, seq DESC);

-- The live boards, recomputed per ruleset from the seats that count for them (the standing
-- after each match in end-time order; reached_at is the end of the last match that changed
-- the score, as weekly.add_match has it).
DELETE FROM weekly_scores;
ALTER TABLE weekly_scores ALTER COLUMN ruleset SET NOT NULL;
ALTER TABLE weekly_scores DROP CONSTRAINT weekly_scores_pkey;
ALTER TABLE weekly_scores ADD PRIMARY KEY (week, ruleset, player_id);
DROP INDEX weekly_scores_board;
CREATE INDEX weekly_scores_board
    ON weekly_scores (week, ruleset, score DESC, matches DESC, reached_at, player_id)
    WHERE matches >= 5;

INSERT INTO weekly_scores (week, ruleset, player_id, points_x2, matches, score, reached_at,
                           last_match_at)
WITH steps AS (
    SELECT week, ruleset, player_id, ended_at,
           sum(points_x2) OVER w AS points, count(*) OVER w AS played
      FROM match_players
     WHERE week IS NOT NULL
    WINDOW w AS (PARTITION BY week, ruleset, player_id ORDER BY ended_at, match_id
                 ROWS UNBOUNDED PRECEDING)
), scored AS (
    SELECT *, (points + 30)::float8 / (2 * (played + 10)) AS score,
           lag((points + 30)::float8 / (2 * (played + 10)))
               OVER (PARTITION BY week, ruleset, player_id ORDER BY played) AS score_before
      FROM steps
)
SELECT week, ruleset, player_id, max(points), max(played),
       (max(points) + 30)::float8 / (2 * (max(played) + 10)),
       max(ended_at) FILTER (WHERE score_before IS NULL OR score <> score_before),
       max(ended_at)
  FROM scored
 GROUP BY week, ruleset, player_id;

-- A frozen week keeps a final board per ruleset, ranked as Store.freeze_week ranks.
DELETE FROM weekly_final;
ALTER TABLE weekly_final ALTER COLUMN ruleset SET NOT NULL;
ALTER TABLE weekly_final DROP CONSTRAINT weekly_final_pkey;
ALTER TABLE weekly_final DROP CONSTRAINT weekly_final_week_player_id_key;
ALTER TABLE weekly_final ADD PRIMARY KEY (week, ruleset, rank);
ALTER TABLE weekly_final ADD UNIQUE (week, ruleset, player_id);

INSERT INTO weekly_final (week, ruleset, rank, player_id, points_x2, matches, score, reached_at)
SELECT s.week, s.ruleset,
       row_number() OVER (PARTITION BY s.week, s.ruleset
                          ORDER BY s.score DESC, s.matches DESC, s.reached_at, s.player_id),
       s.player_id, s.points_x2, s.matches, s.score, s.reached_at
  FROM weekly_scores s JOIN weeks w USING (week)
 WHERE w.frozen_at IS NOT NULL AND s.matches >= 5;

DROP INDEX players_ladder;
ALTER TABLE players DROP COLUMN rating, DROP COLUMN rated_matches, DROP COLUMN last_rated_at;
