-- Quick match (quickmatch.py).
-- Leave. KEYS: player, due. ARGV: prefix, player id, now, ttl. A found table is made due at
-- once, so its other players go back to the pool without waiting for the deadline.

local state = redis.call('HGET', KEYS[1], 'state')
if state == 'waiting' then
  local pool = ARGV[1] .. 'qm:pool:' .. redis.call('HGET', KEYS[1], 'pool')
  redis.call('ZREM', pool, ARGV[2])
  redis.call('HDEL', pool .. ':r', ARGV[2])
  redis.call('HDEL', pool .. ':s', ARGV[2])
elseif state == 'found' then
  redis.call('ZADD', KEYS[2], 'XX', ARGV[3], redis.call('HGET', KEYS[1], 'table'))
else
  return state or false
end
redis.call('HSET', KEYS[1], 'state', 'left')
redis.call('EXPIRE', KEYS[1], ARGV[4])
return state
