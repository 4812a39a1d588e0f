package redisstore

// The scripts that make each change of the store one atomic step. Redis
// runs a script alone, so what a script reads is what it changes. Every
// key a script touches shares the registry's hash tag.

import "github.com/redis/go-redis/v9"

// The change scripts publish the generation they made on KEYS changes
// with the command their last ARGV names (PUBLISH, or SPUBLISH on a Redis
// Cluster); see watch.go.

// putScript: KEYS tokens, regs, gen, leases, changes; ARGV toolset, prev
// token, new token, registration JSON, publish command. Returns {1,
// generation}, or {0, current token} when the toolset's token is not prev.
var putScript = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if cur ~= ARGV[2] then return {0, cur} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('HDEL', KEYS[4], ARGV[1])
local gen = redis.call('INCR', KEYS[3])
redis.call(ARGV[5], KEYS[5], gen)
return {1, gen}
`)

// deleteScript: KEYS tokens, regs, gen, leases, changes; ARGV toolset,
// token, publish command. Returns {1, generation}, or {0, current token}
// when the toolset's token is not the given one.
var deleteScript = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if cur == '' or cur ~= ARGV[2] then return {0, cur} end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
local gen = redis.call('INCR', KEYS[3])
redis.call(ARGV[3], KEYS[5], gen)
return {1, gen}
`)

// registrationsScript: KEYS gen, regs, id. Returns {generation or false,
// {toolset, JSON, ...}, identity} (no identity when the key is absent):
// one consistent read, which a pipeline can follow with the replicas'
// barrier.
var registrationsScript = redis.NewScript(`
return {redis.call('GET', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('GET', KEYS[3])}
`)

// A call's hash (KEYS call) holds its fields: rec (the admission's record
// JSON), res (the result JSON, once recorded), claim ("FENCE DEADLINE
// OWNER": the claim of the node forwarding the call, current while
// DEADLINE, Unix milliseconds of Redis's clock, is ahead) and sent (the
// FENCE of the claim it was handed over under). A field holding the empty
// string is absent. Fences come from one counter (KEYS fence) that only
// grows. A hash without rec is never made: every script that writes a
// call first finds its rec, so forgetting a call (deleting its hash) ends
// everything about it.

// callLua opens the scripts that read claims: now() is Redis's clock in
// milliseconds; current(c, t) returns the fence and owner of claim c when
// it is current at t, nil otherwise; set(v) reports a field present.
const callLua = `
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function current(c, t)
  if not c or c == '' then return nil end
  local f, d, o = string.match(c, '^(%d+) (%d+) (.*)$')
  if not f or tonumber(d) <= t then return nil end
  return f, o
end
local function set(v) return v and v ~= '' end
`

// admitScript: KEYS call, tokens, calls; ARGV toolset, token, record
// JSON, last-event score, call ID. Returns {1} for a new admission, {0,
// record, result or the empty string} when the call has a record, or {2,
// current token} when the token is not current.
var admitScript = redis.NewScript(`
local h = redis.call('HMGET', KEYS[1], 'rec', 'res')
if h[1] then return {0, h[1], h[2] or ''} end
local cur = redis.call('HGET', KEYS[2], ARGV[1]) or ''
if cur ~= ARGV[2] then return {2, cur} end
redis.call('HSET', KEYS[1], 'rec', ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
return {1}
`)

// admitSendScript: KEYS call, tokens, calls, fence; ARGV toolset, token,
// record JSON, last-event score, call ID, owner, ttl in ms. The normal
// path of a new call in one step: admitScript, then for a new admission
// claimScript and handOverScript at once (a new call has no hash, so no
// claim and no hand-over): the record, the claim and the hand-over are one
// HSET. Returns {1, fence} for a new admission claimed and handed over by
// owner, or admitScript's {0, ...} and {2, ...}.
var admitSendScript = redis.NewScript(callLua + `
local h = redis.call('HMGET', KEYS[1], 'rec', 'res')
if h[1] then return {0, h[1], h[2] or ''} end
local cur = redis.call('HGET', KEYS[2], ARGV[1]) or ''
if cur ~= ARGV[2] then return {2, cur} end
local fence = redis.call('INCR', KEYS[4])
redis.call('HSET', KEYS[1], 'rec', ARGV[3], 'claim', string.format('%d %d %s', fence, now() + tonumber(ARGV[7]), ARGV[6]), 'sent', string.format('%d', fence))
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
return {1, fence}
`)

// completeScript: KEYS call, calls; ARGV result JSON, last-event score,
// call ID, fence ("": not fenced), answer ("1": the record). Returns {0}
// for a call with no admission, {2} when a fence is given and the call
// was not handed over under it, {1, record, result} for a result recorded
// earlier, and for the result recorded now {1, record, result} when answer
// is "1", {3} otherwise (the caller has the result, and a fenced
// completion needs no record). A recorded result ends the call's claim
// and hand-over, in the same HSET: every later arrival gets the result.
var completeScript = redis.NewScript(`
local h = redis.call('HMGET', KEYS[1], 'rec', 'res', 'sent')
if not h[1] then return {0} end
if h[2] then return {1, h[1], h[2]} end
if ARGV[4] ~= '' and h[3] ~= ARGV[4] then return {2} end
redis.call('HSET', KEYS[1], 'res', ARGV[1], 'claim', '', 'sent', '')
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
if ARGV[5] ~= '1' then return {3} end
return {1, h[1], ARGV[1]}
`)

// forgetScript: KEYS calls; ARGV key prefix, cutoff score, call IDs.
// Removes the calls whose last event is still before the cutoff and that
// no node claims now, and returns how many.
var forgetScript = redis.NewScript(callLua + `
local n = 0
local t = now()
for i = 3, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  local key = ARGV[1] .. 'call:' .. ARGV[i]
  if score and tonumber(score) < tonumber(ARGV[2]) and not current(redis.call('HGET', key, 'claim'), t) then
    redis.call('DEL', key)
    redis.call('ZREM', KEYS[1], ARGV[i])
    n = n + 1
  end
end
return n
`)

// claimScript: KEYS call, fence; ARGV owner, ttl in ms. Returns {fence}
// for a new claim of owner, or {0, state}: "free" (no record), "done" (a
// result), "claimed" (another claim is current, or owner's own while a
// hand-over is outstanding) or "lost" (a hand-over whose claim lapsed).
// Owner's own claim without a hand-over is replaced by a new one.
var claimScript = redis.NewScript(callLua + `
local h = redis.call('HMGET', KEYS[1], 'rec', 'res', 'claim', 'sent')
if not h[1] then return {0, 'free'} end
if h[2] then return {0, 'done'} end
local t = now()
local f, o = current(h[3], t)
if f and o ~= ARGV[1] then return {0, 'claimed'} end
if set(h[4]) then
  if f then return {0, 'claimed'} end
  return {0, 'lost'}
end
local fence = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'claim', string.format('%d %d %s', fence, t + tonumber(ARGV[2]), ARGV[1]))
return {fence}
`)

// renewScript: KEYS call; ARGV fence, ttl in ms. Returns 1 when the claim
// of fence was current.
var renewScript = redis.NewScript(callLua + `
local t = now()
local f, o = current(redis.call('HGET', KEYS[1], 'claim'), t)
if f ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'claim', string.format('%s %d %s', f, t + tonumber(ARGV[2]), o))
return 1
`)

// handOverScript: KEYS call; ARGV fence. Records the hand-over and
// returns 1 when the claim of fence is current and the call has neither a
// result nor a hand-over; 0 otherwise.
var handOverScript = redis.NewScript(callLua + `
local h = redis.call('HMGET', KEYS[1], 'res', 'claim', 'sent')
if current(h[2], now()) ~= ARGV[1] then return 0 end
if h[1] or set(h[3]) then return 0 end
redis.call('HSET', KEYS[1], 'sent', ARGV[1])
return 1
`)

// returnScript: KEYS call; ARGV fence, release only ("1": leave the
// hand-over). Ends the hand-over and the claim that fence holds.
var returnScript = redis.NewScript(callLua + `
local h = redis.call('HMGET', KEYS[1], 'claim', 'sent')
if ARGV[2] ~= '1' and h[2] == ARGV[1] then redis.call('HDEL', KEYS[1], 'sent') end
if current(h[1], now()) == ARGV[1] then redis.call('HDEL', KEYS[1], 'claim') end
return 1
`)

// attemptScript: KEYS call. Returns the state of the call's forwarding:
// "free", "claimed", "lost" or "done", as claimScript names them.
var attemptScript = redis.NewScript(callLua + `
local h = redis.call('HMGET', KEYS[1], 'rec', 'res', 'claim', 'sent')
if not h[1] then return 'free' end
if h[2] then return 'done' end
if current(h[3], now()) then return 'claimed' end
if set(h[4]) then return 'lost' end
return 'free'
`)

// renewLeaseScript: KEYS tokens, leases; ARGV toolset, token, lease
// value. Returns 1 when the token is current, 0 otherwise.
var renewLeaseScript = redis.NewScript(`
if (redis.call('HGET', KEYS[1], ARGV[1]) or '') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
`)

// returnUnsentScript: KEYS call; ARGV owner. Ends owner's claim and the
// hand-over made under it when the call has no result.
var returnUnsentScript = redis.NewScript(callLua + `
local h = redis.call('HMGET', KEYS[1], 'res', 'claim', 'sent')
if h[1] then return 0 end
local f, o = current(h[2], now())
if not f or o ~= ARGV[1] then return 0 end
if h[3] == f then redis.call('HDEL', KEYS[1], 'claim', 'sent') else redis.call('HDEL', KEYS[1], 'claim') end
return 1
`)
