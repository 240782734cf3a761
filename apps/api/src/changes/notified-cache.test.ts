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

  describe('read', () => {
    /** A load the test finishes by hand, counting how often it was started. */
    const manualLoads = () => {
      const finishers: Array<(value: string | undefined) => void> = [];
      return {
        started: () => finishers.length,
        load: () => new Promise<string | undefined>((resolve) => finishers.push(resolve)),
        finish: (i: number, value: string | undefined) => finishers[i]?.(value),
      };
    };

    it('shares one load among concurrent misses and keeps its value', async () => {
      const cache = new NotifiedCache<string>(60_000);
      const loads = manualLoads();
      const reads = [1, 2, 3].map(() => cache.read('a', loads.load));
      expect(loads.started()).toBe(1);
      loads.finish(0, 'A');
      expect(await Promise.all(reads)).toEqual(['A', 'A', 'A']);
      expect(await cache.read('a', loads.load)).toBe('A');
      expect(loads.started()).toBe(1);
    });

    it('does not share a load that began before a change', async () => {
      const cache = new NotifiedCache<string>(60_000);
      const loads = manualLoads();
      const before = cache.read('a', loads.load);
      cache.delete('a');
      const after = cache.read('a', loads.load);
      expect(loads.started()).toBe(2);
      loads.finish(0, 'old');
      loads.finish(1, 'new');
      expect([await before, await after]).toEqual(['old', 'new']);
      expect(cache.get('a')).toBe('new');
    });

    it('shares loads by loadKey, and starts again after a failed or empty load', async () => {
      const cache = new NotifiedCache<string>(60_000);
      const loads = manualLoads();
      const mine = cache.read('a', loads.load, 'k1/a');
      const theirs = cache.read('a', loads.load, 'k2/a');
      expect(loads.started()).toBe(2);
      loads.finish(1, undefined);
      expect(await theirs).toBeUndefined();
      loads.finish(0, 'A');
      expect(await mine).toBe('A');
      const failing = new NotifiedCache<string>(60_000);
      await expect(failing.read('b', () => Promise.reject(new Error('down')))).rejects.toThrow(
        'down',
      );
      expect(await failing.read('b', () => Promise.resolve('B'))).toBe('B');
    });
  });
});
