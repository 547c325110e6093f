-- Quick match (quickmatch.py).
-- Join. KEYS: player, pool, ratings, seen, pools. ARGV: pool, now, rating.

local state = redis.call('HGET', KEYS[1], 'state')
if state == 'waiting' then
  local pool = redis.call('HGET', KEYS[1], 'pool')
  if pool ~= ARGV[1] then return {'other_pool', pool} end
  redis.call('HSET', KEYS[4], ARGV[4], ARGV[2])
  return {'waiting', pool}
end
if state == 'found' then return {'found', redis.call('HGET', KEYS[1], 'pool')} end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'waiting', 'pool', ARGV[1], 'joined', ARGV[2],
  'rating', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
redis.call('HSET', KEYS[3], ARGV[4], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[4], ARGV[2])
redis.call('SADD', KEYS[5], ARGV[1])
return {'joined', ARGV[1]}
