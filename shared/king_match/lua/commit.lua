-- The commit of one change to a match: the only script that writes a match once it exists.
-- commit.py builds its KEYS and ARGV from CommitKeys and CommitArgs, field by field in the
-- order of this table (tests/match/test_commit_script.py checks that the two agree).
--
-- KEYS
--   1  match             the match hash (ver, seq, meta, state, i:/f: answers)
--   2  moves             the match's move bytes
--   3  log               the match's event log
--   4  deadlines         match id -> deadline (ms)
--   5  lobby             open live tables -> creation time
--   6  finished          the finished-match message
--   7  pending           finished messages not yet on the ratings queue
--   8  rate              the mover's counter in this window ('' when the commit counts nothing)
-- ARGV
--   1  expected_version  the version the change was computed from
--   2  meta              the new record (JSON)
--   3  state             the new engine state (bytes; '' before the start)
--   4  moves             move bytes to append ('' none)
--   5  deadline          the new deadline (ms), or '' (none: off the deadlines set)
--   6  match_id          the member of the deadlines, lobby and pending sets
--   7  lobby             '' unchanged, 'rem', or the table's lobby score
--   8  answer_field      the idempotent answer's field (i:<who>), or ''
--   9  answer            the answer to keep there
--   10 finished_message  the finished-match JSON, or ''
--   11 retention_s       expiry of an ended match's keys, or '' (it has not ended)
--   12 pending_at        when an undelivered finished message is retried (ms)
--   13 trim              a new hand began: the first seq the log keeps ('' trim nothing)
--   14 channel           where the commit message is published
--   15 message           the commit message (commitmsg.py), or '' (no events: nothing to say)
--   16 publish           PUBLISH, or SPUBLISH on a cluster (a shard channel of the match's slot)
--   17 seen_key          the request's Idempotency-Key, checked here ('' no check) when the
--                        change was computed without a load (see writer.py)
--   18 seen_field        ... against the answer in this field
--   19 seen_failure      ... and the refusal in this one
--   20 rate_window_ms    the move limit's window ('' no limit counted here)
--   21 rate_amount       the attempts it allows
--   22...                the log entries to append, "<seq> <event>"
--
-- Replies: {1, new version, last seq} stored; {0, stored version, 0} the match has moved on;
-- {2, stored version, 0} the key was seen before; {3, ms left in the window, 0} rate limited.

local match_key, moves_key, log_key = KEYS[1], KEYS[2], KEYS[3]
local deadlines_key, lobby_key, finished_key, pending_key = KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local rate_key = KEYS[8]
local expected_version, meta, state, moves = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local deadline, match_id, lobby = ARGV[5], ARGV[6], ARGV[7]
local answer_field, answer = ARGV[8], ARGV[9]
local finished_message, retention_s, pending_at = ARGV[10], ARGV[11], ARGV[12]
local trim, channel, message, publish = ARGV[13], ARGV[14], ARGV[15], ARGV[16]
local seen_key, seen_field, seen_failure = ARGV[17], ARGV[18], ARGV[19]
local rate_window_ms, rate_amount = ARGV[20], ARGV[21]
local FIRST_ENTRY = 22

local cur = tonumber(redis.call('HGET', match_key, 'ver') or '0')
if cur ~= tonumber(expected_version) then return {0, cur, 0} end
if seen_key ~= '' then
  for _, name in ipairs({seen_field, seen_failure}) do
    local held = redis.call('HGET', match_key, name)
    if held then
      local ok, stored = pcall(cjson.decode, held)
      if not ok or type(stored) ~= 'table' or stored['key'] == seen_key then
        return {2, cur, 0}
      end
    end
  end
end
if rate_window_ms ~= '' then
  local used = redis.call('INCR', rate_key)
  if used == 1 then redis.call('PEXPIRE', rate_key, rate_window_ms) end
  if used > tonumber(rate_amount) then return {3, redis.call('PTTL', rate_key), 0} end
end
local seq = tonumber(redis.call('HGET', match_key, 'seq') or '0')
local n = #ARGV - FIRST_ENTRY + 1
if n > 0 then
  redis.call('RPUSH', log_key, unpack(ARGV, FIRST_ENTRY))
  seq = seq + n
end
redis.call('HSET', match_key, 'ver', cur + 1, 'seq', seq, 'meta', meta, 'state', state)
if moves ~= '' then redis.call('APPEND', moves_key, moves) end
if deadline == '' then redis.call('ZREM', deadlines_key, match_id)
else redis.call('ZADD', deadlines_key, deadline, match_id) end
if lobby == 'rem' then redis.call('ZREM', lobby_key, match_id)
elseif lobby ~= '' then redis.call('ZADD', lobby_key, lobby, match_id) end
if answer_field ~= '' then redis.call('HSET', match_key, answer_field, answer) end
if finished_message ~= '' then
  redis.call('SET', finished_key, finished_message, 'EX', retention_s)
  redis.call('ZADD', pending_key, pending_at, match_id)
end
if retention_s ~= '' then
  redis.call('EXPIRE', match_key, retention_s)
  redis.call('EXPIRE', moves_key, retention_s)
  redis.call('EXPIRE', log_key, retention_s)
end
if trim ~= '' then
  -- The log's last entry is event seq: keep the entries from seq trim on.
  redis.call('LTRIM', log_key, -(seq - tonumber(trim) + 1), -1)
end
if message ~= '' then redis.call(publish, channel, message) end
return {1, cur + 1, seq}
