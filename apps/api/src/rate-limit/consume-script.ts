/**
 * The rate limiter's one round trip, atomic across API instances: count `ARGV[2]` requests (a
 * process's reservation, see held-tokens.ts) and start the window's clock on the window's first
 * count. Answers `[count, pttl]`. Shared with the benchmark's floor route, which counts one
 * request per call.
 */
export const CONSUME_SCRIPT = `
local amount = tonumber(ARGV[2])
local count = redis.call('INCRBY', KEYS[1], amount)
if count == amount then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }
`;
