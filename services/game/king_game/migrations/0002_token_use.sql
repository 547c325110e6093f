-- Tokens expire after a lifetime without use (GAME_TOKEN_LIFETIME_S), sliding: used_at is when
-- the token was last renewed (at issue, then at most once per GAME_TOKEN_RENEW_S of use;
-- king_game/accounts.py). Tokens issued before this migration count from now.
ALTER TABLE game.tokens ADD COLUMN used_at timestamptz NOT NULL DEFAULT now();
