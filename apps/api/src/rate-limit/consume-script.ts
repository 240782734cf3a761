/**
 * The rate limiter's one round trip, atomic across API instances: count the request and start
 * the window's clock on its first request. Answers `[count, pttl]`. Shared with the benchmark's
 * floor route, which must make exactly the service's Redis call.
 */
export const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }
`;
