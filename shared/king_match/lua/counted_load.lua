-- The load of a rate-limited write: count the attempt in a fixed window and, when it is
-- within the limit, read the match's fields in the same round trip (reads.py).
--
-- KEYS   1 match   the match hash         2 rate   the mover's counter in this window
-- ARGV   1 rate_window_ms   2 rate_amount   3... the hash fields to read
-- Replies: {1, {values}} within the limit; {0, ms left in the window} past it.

local match_key, rate_key = KEYS[1], KEYS[2]
local rate_window_ms, rate_amount = ARGV[1], ARGV[2]
local n = redis.call('INCR', rate_key)
if n == 1 then redis.call('PEXPIRE', rate_key, rate_window_ms) end
if n > tonumber(rate_amount) then return {0, redis.call('PTTL', rate_key)} end
return {1, redis.call('HMGET', match_key, unpack(ARGV, 3))}
