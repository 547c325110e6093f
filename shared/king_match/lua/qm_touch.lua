-- Quick match (quickmatch.py).
-- Seen: a waiter's client answered. KEYS: player. ARGV: prefix, player id, now.

local state = redis.call('HGET', KEYS[1], 'state')
if state == 'waiting' then
  local seen = ARGV[1] .. 'qm:pool:' .. redis.call('HGET', KEYS[1], 'pool') .. ':s'
  if redis.call('HEXISTS', seen, ARGV[2]) == 1 then redis.call('HSET', seen, ARGV[2], ARGV[3]) end
end
return redis.call('HGETALL', KEYS[1])
