-- Keep a refused keyed request's error (idempotency.py), only on a match that still exists:
-- a refused request must not create a key.
--
-- KEYS   1 match   the match hash
-- ARGV   1 field   the player's f:<who> field   2 value   the stored refusal (JSON)

if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return 1
