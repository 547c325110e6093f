-- Quick match (quickmatch.py).
-- One pass over a pool. KEYS: pool, ratings, seen, due. ARGV: now, stale cutoff, window base,
-- growth, cap, max scan, max anchors, confirm deadline, pool name, prefix, ended-state TTL,
-- force ('1': a join), least time between passes (ms), then per table that may be made: id,
-- commitment, seat order (4 digits). Returns {dropped ids, made tables as {id, p0..p3, r0..r3,
-- j0..j3} by seat}; nothing, without a look, when the pool had a pass less than that time ago.

local now = tonumber(ARGV[1])
local cutoff = tonumber(ARGV[2])
local base, growth, cap = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local scan, anchors = tonumber(ARGV[6]), tonumber(ARGV[7])
local confirm_by = ARGV[8]
local pool, prefix = ARGV[9], ARGV[10]
local room = (#ARGV - 13) / 3
local last = tonumber(redis.call('GET', KEYS[1] .. ':last') or '0')
if ARGV[12] ~= '1' and now >= last and now - last < tonumber(ARGV[13]) then return {{}, {}} end
redis.call('SET', KEYS[1] .. ':last', now, 'PX', 60000)
local flat = redis.call('ZRANGE', KEYS[1], 0, scan - 1, 'WITHSCORES')
local ws, dropped = {}, {}
for i = 1, #flat, 2 do
  local id = flat[i]
  local seen = tonumber(redis.call('HGET', KEYS[3], id) or '0')
  if seen < cutoff then
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
    local pkey = prefix .. 'qm:p:' .. id
    redis.call('HSET', pkey, 'state', 'dropped')
    redis.call('EXPIRE', pkey, ARGV[11])
    dropped[#dropped + 1] = id
  else
    local joined = tonumber(flat[i + 1])
    local w = math.min(cap, base + growth * (math.max(0, now - joined) / 1000))
    local r = tonumber(redis.call('HGET', KEYS[2], id) or '1500')
    ws[#ws + 1] = {id = id, joined = joined, r = r, w = w}
  end
end
local used, made, failed = {}, {}, 0
for a = 1, #ws do
  if #made >= room or failed >= anchors then break end
  if not used[a] then
    local A = ws[a]
    local cands = {}
    for b = 1, #ws do
      if b ~= a and not used[b] and math.abs(ws[b].r - A.r) <= math.min(A.w, ws[b].w) then
        cands[#cands + 1] = b
      end
    end
    table.sort(cands, function(x, y)
      local dx, dy = math.abs(ws[x].r - A.r), math.abs(ws[y].r - A.r)
      if dx ~= dy then return dx < dy end
      return x < y
    end)
    local group = {a}
    for _, c in ipairs(cands) do
      local fits = true
      for _, g in ipairs(group) do
        if math.abs(ws[c].r - ws[g].r) > math.min(ws[c].w, ws[g].w) then fits = false; break end
      end
      if fits then
        group[#group + 1] = c
        if #group == 4 then break end
      end
    end
    if #group < 4 then
      failed = failed + 1
    else
      local t = #made
      local tid, commit, order = ARGV[14 + 3 * t], ARGV[15 + 3 * t], ARGV[16 + 3 * t]
      local bySeat = {}
      for k, index in ipairs(group) do
        used[index] = true
        bySeat[tonumber(string.sub(order, k, k)) + 1] = ws[index]
      end
      local tkey = prefix .. 'qm:t:' .. tid
      local out = {tid}
      redis.call('HSET', tkey, 'pool', pool)
      for seat = 1, 4 do
        local w = bySeat[seat]
        out[#out + 1] = w.id
        redis.call('ZREM', KEYS[1], w.id)
        redis.call('HDEL', KEYS[2], w.id)
        redis.call('HDEL', KEYS[3], w.id)
        redis.call('HSET', tkey, 'p' .. (seat - 1), w.id, 'j:' .. w.id, w.joined, 'r:' .. w.id, w.r)
        redis.call('HSET', prefix .. 'qm:p:' .. w.id, 'state', 'found', 'table', tid,
          'seat', seat - 1, 'commit', commit, 'deadline', confirm_by)
      end
      for seat = 1, 4 do out[#out + 1] = tostring(bySeat[seat].r) end
      for seat = 1, 4 do out[#out + 1] = tostring(bySeat[seat].joined) end
      redis.call('ZADD', KEYS[4], confirm_by, tid)
      made[#made + 1] = out
    end
  end
end
return {dropped, made}
