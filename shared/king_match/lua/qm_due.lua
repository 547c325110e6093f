-- Quick match (quickmatch.py).
-- Lease the due tables. KEYS: due. ARGV: now, lease until, limit.

local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, tid in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], tid) end
return due
