import { createHash } from 'node:crypto';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import { CONFIG, LOGGER } from '@hallmark/runtime';
import { rateLimited } from '@hallmark/runtime/metrics';
import { problemTypes } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { RedisService } from '../redis/redis.service.ts';
import { addressBucket } from './address-bucket.ts';
import { CONSUME_SCRIPT } from './consume-script.ts';
import { type Counted, HeldTokens, reserveBatch } from './held-tokens.ts';

export interface RateLimitState {
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetSeconds: number;
  readonly allowed: boolean;
}

const WINDOW_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Sign-ins to one email from one address: a person mistyping gets ten tries in 15 minutes. */
const SIGN_INS_PER_WINDOW = 10;
const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** How long a client waits before retrying while the limiter is away and its limit fails closed. */
const UNAVAILABLE_RETRY_SECONDS = 30;

/** Who a request counts against: its API key, or, for traffic without a valid key, its address. */
export type RateLimitBucket =
  | {
      readonly kind: 'key';
      readonly apiKeyId: string;
      /** The key's own limit; null: RATE_LIMIT_PER_MINUTE. */
      readonly limit: number | null;
    }
  | { readonly kind: 'ip'; readonly address: string }
  /** Requests for API keys, per address and hour (KEY_REQUESTS_PER_HOUR): a form, not an API. */
  | { readonly kind: 'key-request'; readonly address: string }
  /**
   * Operator sign-ins per email and address, whether or not the email is an operator's: the same
   * answers for both, so the limit does not tell who is one, and a stranger's guesses use up only
   * their own address's tries.
   */
  | { readonly kind: 'sign-in'; readonly email: string; readonly address: string };

/** The name of a bucket's kind in RATE_LIMIT_FAIL_CLOSED. */
const LIMIT_NAMES = {
  key: 'key',
  ip: 'anonymous',
  'key-request': 'key-request',
  'sign-in': 'sign-in',
} as const;

/**
 * A fixed one-minute window per API key (RATE_LIMIT_PER_MINUTE) or, for unauthenticated traffic
 * (public routes, failed authentication), per client address (RATE_LIMIT_ANONYMOUS_PER_MINUTE),
 * kept in Redis so every API instance shares it; each process reserves tokens of a large limit
 * in batches (held-tokens.ts), so most requests need no round trip. When Redis is away the limiter
 * lets requests through (and says so once in the log): refusing all traffic because the counter
 * is down would turn a degraded dependency into an outage. The limits named in
 * RATE_LIMIT_FAIL_CLOSED (by default sign-in and key requests, the forms an attacker would flood
 * exactly then) refuse instead.
 */
@Injectable()
export class RateLimiter {
  readonly #perKey: number;
  readonly #perAddress: number;
  readonly #keyRequestsPerHour: number;
  readonly #ipv6Prefix: number;
  readonly #failClosed: ReadonlySet<string>;
  readonly #held = new HeldTokens();
  #warned = false;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly redis: RedisService,
  ) {
    this.#perKey = config.RATE_LIMIT_PER_MINUTE;
    this.#perAddress = config.RATE_LIMIT_ANONYMOUS_PER_MINUTE;
    this.#keyRequestsPerHour = config.KEY_REQUESTS_PER_HOUR;
    this.#ipv6Prefix = config.RATE_LIMIT_IPV6_PREFIX;
    this.#failClosed = new Set(config.RATE_LIMIT_FAIL_CLOSED);
    // EVALSHA of the script Redis already holds (ioredis sends it whole once, and again after a
    // NOSCRIPT when Redis lost it): its text is not sent, nor hashed by Redis, on every request.
    this.redis.client.defineCommand('consumeRateLimit', { numberOfKeys: 1, lua: CONSUME_SCRIPT });
  }

  #addressOf(address: string): string {
    return addressBucket(address, this.#ipv6Prefix);
  }

  #consume(key: string, windowMs: string, amount: string): Promise<[number, number]> {
    const client = this.redis.client as unknown as {
      consumeRateLimit(key: string, windowMs: string, amount: string): Promise<[number, number]>;
    };
    return client.consumeRateLimit(key, windowMs, amount);
  }

  /** A bucket's Redis key, limit and window. */
  #window(bucket: RateLimitBucket): [string, number, number] {
    switch (bucket.kind) {
      case 'key':
        return [`ratelimit:${bucket.apiKeyId}`, bucket.limit ?? this.#perKey, WINDOW_MS];
      case 'ip':
        return [`ratelimit:ip:${this.#addressOf(bucket.address)}`, this.#perAddress, WINDOW_MS];
      case 'key-request':
        return [
          `ratelimit:key-request:${this.#addressOf(bucket.address)}`,
          this.#keyRequestsPerHour,
          HOUR_MS,
        ];
      case 'sign-in': {
        // Hashed: the email a stranger typed is not kept in Redis.
        const email = createHash('sha256').update(bucket.email.toLowerCase()).digest('hex');
        return [
          `ratelimit:sign-in:${email.slice(0, 32)}:${this.#addressOf(bucket.address)}`,
          SIGN_INS_PER_WINDOW,
          SIGN_IN_WINDOW_MS,
        ];
      }
    }
  }

  /**
   * Counts a request: against a token this process holds for the bucket (no round trip), or by
   * reserving the bucket's batch in Redis (held-tokens.ts; one request at a time below a limit of
   * 100). Null while Redis is away.
   */
  async consume(bucket: RateLimitBucket): Promise<RateLimitState | null> {
    const [key, limit, windowMs] = this.#window(bucket);
    const held = this.#held.take(key, limit, Date.now());
    if (held !== undefined) return stateOf(limit, held);
    const batch = reserveBatch(limit);
    try {
      const [count, ttl] = await this.#consume(key, String(windowMs), String(batch));
      this.#warned = false;
      const pttl = ttl > 0 ? ttl : windowMs;
      return stateOf(limit, this.#held.reserved(key, limit, batch, count, pttl, Date.now()));
    } catch (error) {
      if (!this.#warned) {
        this.#warned = true;
        this.logger.warn(
          { err: (error as Error).message },
          'rate limiter unavailable; not limiting',
        );
      }
      return null;
    }
  }

  /**
   * Counts a request against its bucket: the RateLimit headers to send, or a 429 problem with
   * Retry-After when the bucket is spent. While Redis is away nothing is limited, except the
   * limits of RATE_LIMIT_FAIL_CLOSED, which answer 503.
   */
  async enforce(bucket: RateLimitBucket): Promise<Record<string, string>> {
    const state = await this.consume(bucket);
    if (state === null) {
      if (!this.#failClosed.has(LIMIT_NAMES[bucket.kind])) return {};
      throw new ProblemException(
        problemTypes.serviceUnavailable,
        'The rate limiter is unavailable, and this request is not taken without it; retry shortly.',
        undefined,
        { 'retry-after': String(UNAVAILABLE_RETRY_SECONDS) },
      );
    }
    const headers = {
      'ratelimit-limit': String(state.limit),
      'ratelimit-remaining': String(state.remaining),
      'ratelimit-reset': String(state.resetSeconds),
    };
    if (state.allowed) return headers;
    rateLimited.inc({ limit: bucket.kind });
    const who = {
      key: 'requests in a minute with this API key',
      ip: 'requests in a minute without a valid API key from this address',
      'key-request': 'requests for API keys in an hour from this address',
      'sign-in': 'sign-ins to this email in 15 minutes from this address',
    }[bucket.kind];
    throw new ProblemException(
      problemTypes.rateLimited,
      `More than ${state.limit} ${who}; retry in ${state.resetSeconds} s.`,
      undefined,
      { ...headers, 'retry-after': String(state.resetSeconds) },
    );
  }
}

function stateOf(limit: number, counted: Counted): RateLimitState {
  return {
    limit,
    remaining: counted.remaining,
    resetSeconds: Math.max(1, Math.ceil(counted.resetMs / 1000)),
    allowed: counted.allowed,
  };
}
