package redisstore

// The scripts that make each change of the store one atomic step. Redis
// runs a script alone, so what a script reads is what it changes. Every
// key a script touches shares the registry's hash tag.

import "github.com/redis/go-redis/v9"

// putScript: KEYS tokens, regs, gen, leases; ARGV toolset, prev token, new
// token, registration JSON. Returns {1, generation}, or {0, current token}
// when the toolset's token is not prev.
var putScript = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if cur ~= ARGV[2] then return {0, cur} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('HDEL', KEYS[4], ARGV[1])
return {1, redis.call('INCR', KEYS[3])}
`)

// deleteScript: KEYS tokens, regs, gen, leases; ARGV toolset, token.
// Returns {1, generation}, or {0, current token} when the toolset's token
// is not the given one.
var deleteScript = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if cur == '' or cur ~= ARGV[2] then return {0, cur} end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return {1, redis.call('INCR', KEYS[3])}
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

// completeScript: KEYS call, result, calls, claim; ARGV result JSON,
// last-event score, call ID. Returns {0} for a call with no admission, or
// {1, record, result}: the result recorded now or earlier. A recorded
// result ends the call's claim, whoever holds it: every later arrival gets
// the result, and the forwarder's release then writes nothing.
var completeScript = redis.NewScript(`
local rec = redis.call('GET', KEYS[1])
if not rec then return {0} end
local res = redis.call('GET', KEYS[2])
if res then return {1, rec, res} end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
redis.call('DEL', KEYS[4])
return {1, rec, ARGV[1]}
`)

// forgetScript: KEYS calls; ARGV key prefix, cutoff score, call IDs.
// Removes the calls whose last event is still before the cutoff, and
// returns how many.
var forgetScript = redis.NewScript(`
local n = 0
for i = 3, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) < tonumber(ARGV[2]) then
    redis.call('DEL', ARGV[1] .. 'call:' .. ARGV[i], ARGV[1] .. 'result:' .. ARGV[i])
    redis.call('ZREM', KEYS[1], ARGV[i])
    n = n + 1
  end
end
return n
`)

// claimScript: KEYS claim; ARGV owner, ttl in ms. Returns 1 when owner
// holds the claim (new, or already its own), 0 otherwise.
var claimScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`)

// renewScript: KEYS claim; ARGV owner, ttl in ms. Returns 1 when owner
// held the claim.
var renewScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`)

// releaseScript: KEYS claim; ARGV owner.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`)

// renewLeaseScript: KEYS tokens, leases; ARGV toolset, token, lease
// value. Returns 1 when the token is current, 0 otherwise.
var renewLeaseScript = redis.NewScript(`
if (redis.call('HGET', KEYS[1], ARGV[1]) or '') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
`)
