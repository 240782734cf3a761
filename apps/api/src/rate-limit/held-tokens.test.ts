import { describe, expect, it } from 'vitest';
import { HeldTokens, reserveBatch } from './held-tokens.ts';

describe('reserveBatch', () => {
  it('counts every request below a limit of 100, 2 % of larger limits, at most 100', () => {
    expect([3, 99, 100, 600, 5_000, 1e9].map(reserveBatch)).toEqual([1, 1, 2, 12, 100, 100]);
  });
});

describe('HeldTokens', () => {
  it('serves the rest of a batch without a round trip, then asks again', () => {
    const tokens = new HeldTokens();
    // Limit 10, a batch of 4: the window's count is 4 after the reservation.
    expect(tokens.reserved('k', 10, 4, 4, 60_000, 0)).toEqual({
      allowed: true,
      remaining: 9,
      resetMs: 60_000,
    });
    const taken = [1, 2, 3].map(() => tokens.take('k', 10, 1)?.remaining);
    expect(taken).toEqual([8, 7, 6]);
    expect(tokens.take('k', 10, 1)).toBeUndefined();
  });

  it('keeps only the tokens that fit under the limit, and refuses when none do', () => {
    const tokens = new HeldTokens();
    // 8 counted before this batch of 4: two fit (9 and 10), one serves, one is held.
    expect(tokens.reserved('k', 10, 4, 12, 1_000, 0).allowed).toBe(true);
    expect(tokens.take('k', 10, 1)?.allowed).toBe(true);
    expect(tokens.take('k', 10, 1)).toBeUndefined();
    expect(tokens.reserved('k', 10, 4, 16, 1_000, 2)).toMatchObject({
      allowed: false,
      remaining: 0,
    });
  });

  it('holds nothing across windows or a changed limit', () => {
    const tokens = new HeldTokens();
    tokens.reserved('k', 100, 2, 2, 1_000, 0);
    expect(tokens.take('k', 50, 1)).toBeUndefined();
    tokens.reserved('j', 100, 2, 2, 1_000, 0);
    expect(tokens.take('j', 100, 1_000)).toBeUndefined();
  });

  it('keeps the tokens of two reservations made at once', () => {
    const tokens = new HeldTokens();
    tokens.reserved('k', 100, 2, 2, 1_000, 0);
    tokens.reserved('k', 100, 2, 4, 1_000, 0);
    expect([tokens.take('k', 100, 1)?.allowed, tokens.take('k', 100, 1)?.allowed]).toEqual([
      true,
      true,
    ]);
    expect(tokens.take('k', 100, 1)).toBeUndefined();
  });
});
