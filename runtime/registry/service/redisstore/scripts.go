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

// registrationsScript: KEYS gen, regs. Returns {generation or false,
// {toolset, JSON, ...}}: one consistent read, which a pipeline can follow
// with the replicas' barrier.
var registrationsScript = redis.NewScript(`
return {redis.call('GET', KEYS[1]), redis.call('HGETALL', KEYS[2])}
`)

// admitScript: KEYS call, result, tokens, calls; ARGV toolset, token,
// record JSON, last-event score, call ID. Returns {1} for a new admission,
// {0, record, result or the empty string} when the call has a record, or {2, current
// token} when the token is not current.
var admitScript = redis.NewScript(`
local rec = redis.call('GET', KEYS[1])
if rec then return {0, rec, redis.call('GET', KEYS[2]) or ''} end
local cur = redis.call('HGET', KEYS[3], ARGV[1]) or ''
if cur ~= ARGV[2] then return {2, cur} end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5])
return {1}
`)

// admitSendScript: KEYS call, result, tokens, calls, claim, sent, fence;
// ARGV toolset, token, record JSON, last-event score, call ID, owner, ttl
// in ms. The normal path of a new call in one step: admitScript, then for
// a new admission claimScript and handOverScript at once (a new call has
// no claim and no hand-over). Returns {1, fence} for a new admission
// claimed and handed over by owner, {1, 0} for a new admission that a
// claim or hand-over left by a forgotten call keeps from both, or
// admitScript's {0, ...} and {2, ...}.
var admitSendScript = redis.NewScript(`
local rec = redis.call('GET', KEYS[1])
if rec then return {0, rec, redis.call('GET', KEYS[2]) or ''} end
local cur = redis.call('HGET', KEYS[3], ARGV[1]) or ''
if cur ~= ARGV[2] then return {2, cur} end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5])
if redis.call('EXISTS', KEYS[5], KEYS[6]) > 0 then return {1, 0} end
local fence = redis.call('INCR', KEYS[7])
redis.call('SET', KEYS[5], fence .. ' ' .. ARGV[6], 'PX', ARGV[7])
redis.call('SET', KEYS[6], fence)
return {1, fence}
`)

// completeScript: KEYS call, result, calls, claim, sent; ARGV result
// JSON, last-event score, call ID, fence ("": not fenced), answer ("1":
// the record). Returns {0} for a call with no admission, {2} when a fence
// is given and the call was not handed over under it, {1, record, result}
// for a result recorded earlier, and for the result recorded now {1,
// record, result} when answer is "1", {3} otherwise (the caller has the
// result, and a fenced completion needs no record). A recorded result
// ends the call's claim and hand-over: every later arrival gets the
// result.
var completeScript = redis.NewScript(`
local rec = redis.call('GET', KEYS[1])
if not rec then return {0} end
local res = redis.call('GET', KEYS[2])
if res then return {1, rec, res} end
if ARGV[4] ~= '' and redis.call('GET', KEYS[5]) ~= ARGV[4] then return {2} end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
redis.call('DEL', KEYS[4], KEYS[5])
if ARGV[5] ~= '1' then return {3} end
return {1, rec, ARGV[1]}
`)

// forgetScript: KEYS calls; ARGV key prefix, cutoff score, call IDs.
// Removes the calls whose last event is still before the cutoff and that
// no node claims now, with their hand-overs, and returns how many.
var forgetScript = redis.NewScript(`
local n = 0
for i = 3, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) < tonumber(ARGV[2]) and redis.call('EXISTS', ARGV[1] .. 'claim:' .. ARGV[i]) == 0 then
    redis.call('DEL', ARGV[1] .. 'call:' .. ARGV[i], ARGV[1] .. 'result:' .. ARGV[i], ARGV[1] .. 'sent:' .. ARGV[i])
    redis.call('ZREM', KEYS[1], ARGV[i])
    n = n + 1
  end
end
return n
`)

// A claim (KEYS claim) holds "FENCE OWNER"; a hand-over (KEYS sent) holds
// the FENCE of the claim it was made under. Fences come from one counter
// (KEYS fence) that only grows.

// claimScript: KEYS claim, sent, result, fence; ARGV owner, ttl in ms.
// Returns {fence} for a new claim of owner, or {0, state}: "done" (a
// result), "claimed" (another claim is current, or owner's own while a
// hand-over is outstanding) or "lost" (a hand-over whose claim lapsed).
// Owner's own claim without a hand-over is replaced by a new one.
var claimScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[3]) == 1 then return {0, 'done'} end
local cur = redis.call('GET', KEYS[1])
if cur and string.match(cur, '^%d+ (.*)$') ~= ARGV[1] then return {0, 'claimed'} end
if redis.call('EXISTS', KEYS[2]) == 1 then
  if cur then return {0, 'claimed'} end
  return {0, 'lost'}
end
local fence = redis.call('INCR', KEYS[4])
redis.call('SET', KEYS[1], fence .. ' ' .. ARGV[1], 'PX', ARGV[2])
return {fence}
`)

// renewScript: KEYS claim; ARGV fence, ttl in ms. Returns 1 when the
// claim of fence was current.
var renewScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if not cur or string.match(cur, '^(%d+) ') ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`)

// handOverScript: KEYS claim, sent, result; ARGV fence. Records the
// hand-over and returns 1 when the claim of fence is current and the call
// has neither a result nor a hand-over; 0 otherwise.
var handOverScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if not cur or string.match(cur, '^(%d+) ') ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
return 1
`)

// returnScript: KEYS claim, sent; ARGV fence, release only ("1": leave
// the hand-over). Ends the hand-over and the claim that fence holds.
var returnScript = redis.NewScript(`
if ARGV[2] ~= '1' and redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
local cur = redis.call('GET', KEYS[1])
if cur and string.match(cur, '^(%d+) ') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`)

// renewLeaseScript: KEYS tokens, leases; ARGV toolset, token, lease
// value. Returns 1 when the token is current, 0 otherwise.
var renewLeaseScript = redis.NewScript(`
if (redis.call('HGET', KEYS[1], ARGV[1]) or '') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
`)

// returnUnsentScript: KEYS claim, sent, result; ARGV owner. Ends owner's
// claim and the hand-over made under it when the call has no result.
var returnUnsentScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
local fence, owner = string.match(cur, '^(%d+) (.*)$')
if owner ~= ARGV[1] then return 0 end
if redis.call('GET', KEYS[2]) == fence then redis.call('DEL', KEYS[2]) end
redis.call('DEL', KEYS[1])
return 1
`)
