import { describe, expect, it } from 'vitest';
import { NotifiedCache } from './notified-cache.ts';

describe('NotifiedCache', () => {
  it('keeps an entry for its ttl, then forgets it', () => {
    const cache = new NotifiedCache<string>(1_000);
    cache.set('a', 'A', cache.generation, 0);
    expect(cache.get('a', 999)).toBe('A');
    expect(cache.get('a', 1_000)).toBeUndefined();
  });

  it('does not store a value read before a clear', () => {
    const cache = new NotifiedCache<string>(1_000);
    const before = cache.generation;
    cache.clear();
    cache.set('a', 'stale', before, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.set('a', 'fresh', cache.generation, 0);
    expect(cache.get('a', 1)).toBe('fresh');
  });

  it('forgets a deleted entry, and a value of any row read before the delete', () => {
    const cache = new NotifiedCache<string>(1_000);
    cache.set('a', 'A', cache.generation, 0);
    cache.set('b', 'B', cache.generation, 0);
    const before = cache.generation;
    cache.delete('a');
    expect([cache.get('a', 1), cache.get('b', 1)]).toEqual([undefined, 'B']);
    cache.set('c', 'stale', before, 0);
    expect(cache.get('c', 1)).toBeUndefined();
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const cache = new NotifiedCache<number>(1_000, 2);
    for (const [i, id] of ['a', 'b', 'c'].entries()) cache.set(id, i, cache.generation, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, 1, 2]);
  });

  it('caches nothing with a ttl of 0', () => {
    const cache = new NotifiedCache<string>(0);
    cache.set('a', 'A', cache.generation, 0);
    expect(cache.get('a', 0)).toBeUndefined();
  });
});
