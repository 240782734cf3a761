// Results a comparison needs again and again for one picture (the reference's blurs, the copy's
// soft luma), made once: every placement tried, and every softness, uses the same ones. What a
// memo hands out is shared, so it is only ever read.

export class Memo {
  readonly #values = new Map<string, unknown>();

  /** The value made by `make` the first time `key` was asked for. */
  get<T>(key: string, make: () => T): T {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = make();
    this.#values.set(key, value);
    return value;
  }
}
