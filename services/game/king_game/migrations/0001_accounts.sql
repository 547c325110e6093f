-- Accounts and bearer tokens of the game service, in their own schema so they never meet the
-- rating service's tables.
CREATE SCHEMA IF NOT EXISTS game;

CREATE TABLE game.players (
    id            uuid PRIMARY KEY,
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    password_hash text,                 -- argon2id; NULL for a guest
    is_guest      boolean NOT NULL,
    is_bot        boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- A registered name logs in, so it is unique (case-insensitive); guests may share names.
CREATE UNIQUE INDEX players_login_name ON game.players (lower(name)) WHERE password_hash IS NOT NULL;

CREATE TABLE game.tokens (
    token_hash  bytea PRIMARY KEY,      -- SHA-256 of the bearer token; the token is never stored
    player_id   uuid NOT NULL REFERENCES game.players (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

CREATE INDEX tokens_player ON game.tokens (player_id);
