/**
 * What a process read of rows that PostgreSQL announces changes to (API keys, job status rows),
 * kept for at most `ttlMs` each so a hot read needs no round trip. The announcement empties an
 * entry (`delete`) or, where changes are rare, the whole cache (`clear`); either starts a new
 * generation, and a value read from the database before it is not stored, so a read racing with a
 * change cannot bring the old state back. The ttl bounds staleness only while announcements are
 * not heard. A ttl of 0 caches nothing.
 */
export class NotifiedCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  readonly #loading = new Map<string, { generation: number; value: Promise<V | undefined> }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  #generation = 0;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  /**
   * The entry, else `load`'s value (kept when found). Misses that arrive while a load is under
   * way share it, unless something changed since it began: when a hot entry lapses, a process
   * sends one query, not one per request in flight (40 concurrent status reads made 40 queries
   * and opened a pool connection for most, every JOB_CACHE_SECONDS). Loads are shared by
   * `loadKey` (the id unless given): callers whose queries differ must not share one.
   */
  read(id: string, load: () => Promise<V | undefined>, loadKey = id): Promise<V | undefined> {
    const cached = this.get(id);
    if (cached !== undefined) return Promise.resolve(cached);
    const pending = this.#loading.get(loadKey);
    if (pending !== undefined && pending.generation === this.#generation) return pending.value;
    const generation = this.#generation;
    const value = load()
      .then((loaded) => {
        if (loaded !== undefined) this.set(id, loaded, generation);
        return loaded;
      })
      .finally(() => {
        if (this.#loading.get(loadKey)?.value === value) this.#loading.delete(loadKey);
      });
    this.#loading.set(loadKey, { generation, value });
    return value;
  }

  /** Take it before reading the database; hand it to `set` with the value read. */
  get generation(): number {
    return this.#generation;
  }

  get(id: string, now = Date.now()): V | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.#entries.delete(id);
    return undefined;
  }

  set(id: string, value: V, generation: number, now = Date.now()): void {
    if (this.#ttlMs === 0 || generation !== this.#generation) return;
    // Bounded: past the limit the oldest entry goes (a Map iterates in insertion order).
    if (this.#entries.size >= this.#maxEntries && !this.#entries.has(id)) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(id, { value, expiresAt: now + this.#ttlMs });
  }

  /**
   * One row changed. Reads in flight lose their entry too (the generation moves on): which row they
   * read is not known here, and a lost entry costs one query.
   */
  delete(id: string): void {
    this.#generation++;
    this.#entries.delete(id);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
