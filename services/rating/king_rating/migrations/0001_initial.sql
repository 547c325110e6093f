-- 0001: players and ratings, rating history, the match archive, weekly boards.
-- Released migrations are never edited; change the schema with a new numbered file.

CREATE TABLE players (
    player_id     text PRIMARY KEY,
    name          text NOT NULL,
    rating        double precision NOT NULL DEFAULT 1500,
    rated_matches integer NOT NULL DEFAULT 0,
    -- End time (on the game server) of the player's latest rated match: the ladder lists
    -- only players active in the last 30 days.
    last_rated_at timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

-- The all-time ladder: established players by rating.
CREATE INDEX players_ladder ON players (rating DESC, player_id) WHERE rated_matches >= 15;

CREATE TABLE matches (
    match_id       uuid PRIMARY KEY,              -- the idempotency key of ingestion
    schema_version integer NOT NULL,
    mode           text NOT NULL CHECK (mode IN ('live', 'computer')),
    ranked         boolean NOT NULL,
    ruleset        text NOT NULL,
    hands          smallint NOT NULL,
    outcome        text NOT NULL CHECK (outcome IN ('finished', 'forfeit', 'aborted')),
    started_at     timestamptz NOT NULL,
    ended_at       timestamptz NOT NULL,
    rated          boolean NOT NULL,
    -- Board week of a rated match; board_applied is false when that week was already
    -- frozen when the match arrived (it is rated, but the final board is kept as it was).
    week           text,
    board_applied  boolean NOT NULL DEFAULT false,
    fairness       jsonb NOT NULL,
    ingested_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE match_players (
    match_id      uuid NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    seat          smallint NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id     text NOT NULL,
    name          text NOT NULL,
    is_bot        boolean NOT NULL,
    total         integer NOT NULL,
    place         smallint NOT NULL CHECK (place BETWEEN 1 AND 4),
    forfeited     boolean NOT NULL,
    forfeit_order smallint,
    left_at       timestamptz,
    ended_at      timestamptz NOT NULL,           -- copied from matches for per-player paging
    week          text,                           -- set when the seat counts for a board
    points_x2     smallint,                       -- board points, doubled (halves are exact)
    PRIMARY KEY (match_id, seat)
);

CREATE INDEX match_players_by_player ON match_players (player_id, ended_at DESC, match_id);
CREATE INDEX match_players_by_week ON match_players (player_id, week) WHERE week IS NOT NULL;

CREATE TABLE rating_history (
    seq                  bigint GENERATED ALWAYS AS IDENTITY,
    player_id            text NOT NULL REFERENCES players (player_id),
    match_id             uuid NOT NULL REFERENCES matches (match_id),
    ended_at             timestamptz NOT NULL,
    rating_before        double precision NOT NULL,
    rating_after         double precision NOT NULL,
    delta                double precision NOT NULL,
    k                    double precision NOT NULL,
    place                smallint NOT NULL,
    rated_matches_before integer NOT NULL,
    PRIMARY KEY (player_id, match_id)
);

-- A player's history in the order it was applied (each row's "before" is the last "after").
CREATE INDEX rating_history_by_player ON rating_history (player_id, seq DESC);
CREATE INDEX rating_history_by_match ON rating_history (match_id);

CREATE TABLE weeks (
    week      text PRIMARY KEY,                   -- ISO week label, e.g. 2026-W49
    starts_at timestamptz NOT NULL,
    ends_at   timestamptz NOT NULL,
    frozen_at timestamptz                         -- set once the final ranks are kept
);

CREATE TABLE weekly_scores (
    week          text NOT NULL REFERENCES weeks (week),
    player_id     text NOT NULL,
    points_x2     integer NOT NULL,
    matches       integer NOT NULL,
    score         double precision NOT NULL,
    reached_at    timestamptz NOT NULL,           -- when the current score was reached
    last_match_at timestamptz NOT NULL,
    PRIMARY KEY (week, player_id)
);

-- The live board in board order; only eligible players (5 or more matches) are indexed.
CREATE INDEX weekly_scores_board
    ON weekly_scores (week, score DESC, matches DESC, reached_at, player_id)
    WHERE matches >= 5;

CREATE TABLE weekly_final (
    week       text NOT NULL REFERENCES weeks (week),
    rank       integer NOT NULL,
    player_id  text NOT NULL,
    points_x2  integer NOT NULL,
    matches    integer NOT NULL,
    score      double precision NOT NULL,
    reached_at timestamptz NOT NULL,
    PRIMARY KEY (week, rank),
    UNIQUE (week, player_id)
);
