/** The most tokens a process reserves at once (a limit of 5,000 a minute or more). */
const MAX_BATCH = 100;
/** A reservation is at most this share of the limit, so early refusals stay small. */
const BATCH_SHARE = 50;
/** Past this many buckets, lapsed entries are dropped before a new one is added. */
const MAX_ENTRIES = 10_000;

/**
 * Tokens a process takes from a bucket's shared window at once: 1 below a limit of 100 (every
 * request counted in Redis, exact), 2 % of the limit above, at most MAX_BATCH.
 */
export function reserveBatch(limit: number): number {
  return Math.max(1, Math.min(MAX_BATCH, Math.floor(limit / BATCH_SHARE)));
}

export interface Counted {
  readonly allowed: boolean;
  readonly remaining: number;
  /** Milliseconds until the window resets. */
  readonly resetMs: number;
}

interface Held {
  readonly limit: number;
  /** The window's count in Redis after this process's last reservation. */
  readonly count: number;
  readonly windowEndsAt: number;
  left: number;
}

/**
 * The rate-limit tokens this process reserved and has not used yet, by bucket. A request with a
 * token in hand needs no round trip; the shared count already holds it. Each process holds at
 * most one batch less one per bucket, so a bucket shared by several processes can be refused up
 * to that many requests early in a window, never late.
 */
export class HeldTokens {
  readonly #held = new Map<string, Held>();

  /** One held token of the bucket, when the process has one for its current window and limit. */
  take(key: string, limit: number, now: number): Counted | undefined {
    const held = this.#held.get(key);
    if (held === undefined || held.limit !== limit || held.windowEndsAt <= now || held.left === 0)
      return undefined;
    held.left -= 1;
    return this.#state(held, now);
  }

  /**
   * A reservation of `batch` tokens came back with the window's `count` (ours included): the
   * first of them serves this request, the rest are held, as far as they fit under the limit.
   */
  reserved(
    key: string,
    limit: number,
    batch: number,
    count: number,
    pttlMs: number,
    now: number,
  ): Counted {
    const fitting = Math.max(0, Math.min(batch, limit - (count - batch)));
    // Two requests that found no token reserve at once: the tokens of both are kept.
    const before = this.#held.get(key);
    const kept =
      before !== undefined && before.limit === limit && before.windowEndsAt > now
        ? before
        : undefined;
    const held: Held = {
      limit,
      count: Math.max(count, kept?.count ?? 0),
      windowEndsAt: now + Math.max(1, pttlMs),
      left: Math.max(0, fitting - 1) + (kept?.left ?? 0),
    };
    if (this.#held.size >= MAX_ENTRIES) this.#dropLapsed(now);
    this.#held.set(key, held);
    return fitting === 0
      ? { allowed: false, remaining: 0, resetMs: held.windowEndsAt - now }
      : this.#state(held, now);
  }

  #state(held: Held, now: number): Counted {
    return {
      allowed: true,
      // What the window has left for anyone, plus what this process still holds.
      remaining: Math.max(0, held.limit - held.count) + held.left,
      resetMs: held.windowEndsAt - now,
    };
  }

  #dropLapsed(now: number): void {
    for (const [key, held] of this.#held) if (held.windowEndsAt <= now) this.#held.delete(key);
  }
}
