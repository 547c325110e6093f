-- 0003: guests are marked wherever a name is shown. The finished-match message says which
-- seats are guest accounts (names are unique among registered players only, so a guest may
-- share a name with other guests); the players and the archived seats keep that flag.

ALTER TABLE players ADD COLUMN is_guest boolean NOT NULL DEFAULT false;
ALTER TABLE match_players ADD COLUMN is_guest boolean NOT NULL DEFAULT false;
