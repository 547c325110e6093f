-- Quick match (quickmatch.py).
-- Settle a found table. KEYS: table, due. ARGV: prefix, table id, now, ttl, outcome
-- ('matched' or 'closed'), then the ids of the players who had taken their seat. Matched: all
-- four are in the match. Closed: those who sat go back to the pool with their old place, the
-- others are dropped ('missed'). A player whose state no longer names this table is left alone.

local info = redis.call('HGETALL', KEYS[1])
local t = {}
for i = 1, #info, 2 do t[info[i]] = info[i + 1] end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
if not t['pool'] then return 0 end
local sat = {}
for i = 6, #ARGV do sat[ARGV[i]] = true end
local pool = ARGV[1] .. 'qm:pool:' .. t['pool']
local back = 0
for seat = 0, 3 do
  local id = t['p' .. seat]
  local pkey = ARGV[1] .. 'qm:p:' .. id
  local state = redis.call('HGET', pkey, 'state')
  local tid = redis.call('HGET', pkey, 'table')
  if tid == ARGV[2] and (state == 'found' or ARGV[5] == 'matched') then
    if ARGV[5] == 'matched' then
      redis.call('HSET', pkey, 'state', 'matched', 'match', ARGV[2])
      redis.call('EXPIRE', pkey, ARGV[4])
    elseif sat[id] and state == 'found' then
      local joined = t['j:' .. id]
      redis.call('HDEL', pkey, 'table', 'seat', 'commit', 'deadline')
      redis.call('HSET', pkey, 'state', 'waiting', 'joined', joined)
      redis.call('ZADD', pool, joined, id)
      redis.call('HSET', pool .. ':r', id, t['r:' .. id])
      redis.call('HSET', pool .. ':s', id, ARGV[3])
      back = back + 1
    elseif state == 'found' then
      redis.call('HSET', pkey, 'state', 'missed')
      redis.call('EXPIRE', pkey, ARGV[4])
    end
  end
end
return back
