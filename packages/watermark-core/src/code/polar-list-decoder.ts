// Successive-cancellation list decoding of a polar code (Tal and Vardy's list decoder with
// LLR-based path metrics, Balatsoukas-Stimming et al.), min-sum: scale-free, like the soft values
// the detector reads (their noise level is unknown). Paths share the arrays of each level until
// one of them writes there (copy on write), so a split costs a few short copies, not the whole
// state.
//
// Bit order: the decoder reads channel values in the order of x' = u B F^(x)n (B the
// bit-reversal permutation); the caller permutes the natural-order codeword's values into it.

/** Candidate paths of a decode, best first: each path's decided bits at the given positions. */
export interface ListResult {
  readonly paths: readonly Uint8Array[];
}

export class PolarListDecoder {
  private readonly n: number;
  private readonly size: number;
  private readonly frozen: Uint8Array;
  private readonly infoPositions: Int32Array;

  /**
   * `stages` = log2 of the block length; `information[i]` = 1 where u_i carries information (the
   * others are frozen to 0).
   */
  constructor(stages: number, information: Uint8Array) {
    this.n = stages;
    this.size = 1 << stages;
    this.frozen = Uint8Array.from(information, (v) => (v ? 0 : 1));
    const positions: number[] = [];
    information.forEach((v, i) => {
      if (v) positions.push(i);
    });
    this.infoPositions = Int32Array.from(positions);
  }

  /**
   * The `list` most likely information words given `channel` (LLRs in the decoder's order, length
   * 2^stages; positive favours 0), best first.
   */
  decode(channel: Float64Array, list: number): ListResult {
    const state = new ListState(this.n, list, channel);
    const n = this.n;
    let paths = state.active();
    for (let phi = 0; phi < this.size; phi++) {
      for (const path of paths) state.calculate(path, n, phi);
      if (this.frozen[phi]) {
        for (const path of paths) state.decideFrozen(path, phi);
      } else {
        state.split(phi, list);
        paths = state.active();
      }
      if (phi & 1) for (const path of paths) state.propagate(path, n, phi);
    }
    const order = state.active().sort((a, b) => state.metric(a) - state.metric(b));
    return {
      paths: order.map((path) => {
        const bits = new Uint8Array(this.infoPositions.length);
        for (let k = 0; k < bits.length; k++) {
          bits[k] = state.bit(path, this.infoPositions[k] as number);
        }
        return bits;
      }),
    };
  }
}

/** The paths' shared arrays: per level, slots of LLRs (P) and partial sums (C). */
class ListState {
  private readonly n: number;
  private readonly size: number;
  private readonly llr: Float64Array[][];
  private readonly sums: Uint8Array[][];
  private readonly references: Int32Array[];
  private readonly slotOf: Int32Array[];
  private readonly freeSlots: number[][];
  private readonly metrics: Float64Array;
  private readonly bits: Uint8Array[];
  private readonly alive: Uint8Array;
  private readonly freePaths: number[];
  private readonly channel: Float64Array;
  // Scratch space of split().
  private readonly extensionMetrics: Float64Array;
  private readonly extensionOrder: Int32Array;
  private readonly kept: Uint8Array;
  private readonly visited: Uint8Array;

  constructor(n: number, list: number, channel: Float64Array) {
    this.n = n;
    this.size = 1 << n;
    this.channel = channel;
    this.llr = [];
    this.sums = [];
    this.references = [];
    this.slotOf = [];
    this.freeSlots = [];
    for (let level = 0; level <= n; level++) {
      const width = 1 << (n - level);
      this.llr.push(Array.from({ length: list }, () => new Float64Array(level === 0 ? 0 : width)));
      this.sums.push(Array.from({ length: list }, () => new Uint8Array(2 * width)));
      this.references.push(new Int32Array(list));
      this.slotOf.push(new Int32Array(list).fill(-1));
      this.freeSlots.push(Array.from({ length: list }, (_, s) => list - 1 - s));
    }
    this.metrics = new Float64Array(list);
    this.extensionMetrics = new Float64Array(2 * list);
    this.extensionOrder = new Int32Array(2 * list);
    this.kept = new Uint8Array(2 * list);
    this.visited = new Uint8Array(list);
    this.bits = Array.from({ length: list }, () => new Uint8Array(this.size));
    this.alive = new Uint8Array(list);
    this.freePaths = Array.from({ length: list }, (_, p) => list - 1 - p);
    // The first path, with a slot at every level.
    const first = this.freePaths.pop() as number;
    this.alive[first] = 1;
    for (let level = 0; level <= n; level++) {
      const slot = this.freeSlots[level]?.pop() as number;
      (this.slotOf[level] as Int32Array)[first] = slot;
      (this.references[level] as Int32Array)[slot] = 1;
    }
  }

  active(): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.alive.length; p++) if (this.alive[p]) out.push(p);
    return out;
  }

  metric(path: number): number {
    return this.metrics[path] as number;
  }

  bit(path: number, index: number): number {
    return (this.bits[path] as Uint8Array)[index] as number;
  }

  /** LLRs of level `level` for bit `phi` (Tal-Vardy recursivelyCalcP). */
  calculate(path: number, level: number, phi: number): void {
    if (level === 0) return;
    const psi = phi >> 1;
    if ((phi & 1) === 0) this.calculate(path, level - 1, psi);
    const out = this.writableLlr(path, level);
    const sums = this.readSums(path, level);
    const width = 1 << (this.n - level);
    const from = level === 1 ? this.channel : this.readLlr(path, level - 1);
    if ((phi & 1) === 0) {
      for (let b = 0; b < width; b++) {
        const a = from[2 * b] as number;
        const c = from[2 * b + 1] as number;
        const m = Math.min(Math.abs(a), Math.abs(c));
        out[b] = a < 0 !== c < 0 ? -m : m;
      }
    } else {
      for (let b = 0; b < width; b++) {
        const a = from[2 * b] as number;
        out[b] = (from[2 * b + 1] as number) + (sums[2 * b] ? -a : a);
      }
    }
  }

  /** Partial sums back down the levels after an odd bit (Tal-Vardy recursivelyUpdateC). */
  propagate(path: number, level: number, phi: number): void {
    // Level 0's sums would be the codeword itself, which decoding never reads.
    if (level === 1) return;
    const psi = phi >> 1;
    const sums = this.readSums(path, level);
    const below = this.writableSums(path, level - 1);
    const width = 1 << (this.n - level);
    const at = psi & 1;
    for (let b = 0; b < width; b++) {
      const u1 = sums[2 * b + 1] as number;
      below[4 * b + at] = (sums[2 * b] as number) ^ u1;
      below[4 * b + 2 + at] = u1;
    }
    if (psi & 1) this.propagate(path, level - 1, psi);
  }

  decideFrozen(path: number, phi: number): void {
    const l = this.readLlr(path, this.n)[0] as number;
    if (l < 0) this.metrics[path] = (this.metrics[path] as number) - l;
    this.setBit(path, phi, 0);
  }

  /** Extends every path by both values of information bit `phi` and keeps the `list` best. */
  split(phi: number, list: number): void {
    const paths = this.active();
    // Extension 2i extends paths[i] by 0, 2i + 1 by 1; ranked by metric, ties in that order (a
    // stable sort), without an object per extension: this runs once per information bit.
    const count = 2 * paths.length;
    const metrics = this.extensionMetrics;
    const order = this.extensionOrder;
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i] as number;
      const l = this.readLlr(path, this.n)[0] as number;
      const m = this.metrics[path] as number;
      metrics[2 * i] = l < 0 ? m - l : m;
      metrics[2 * i + 1] = l > 0 ? m + l : m;
    }
    // Binary insertion after equal metrics keeps ties in extension order (a stable sort).
    for (let e = 0; e < count; e++) {
      const metric = metrics[e] as number;
      let low = 0;
      let high = e;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((metrics[order[middle] as number] as number) <= metric) low = middle + 1;
        else high = middle;
      }
      order.copyWithin(low + 1, low, e);
      order[low] = e;
    }
    const ranked = order.subarray(0, Math.min(list, count));
    // Which extensions are kept; paths with none die first.
    const keep = this.kept;
    keep.fill(0, 0, count);
    for (const e of ranked) keep[e] = 1;
    for (let i = 0; i < paths.length; i++) {
      if (!keep[2 * i] && !keep[2 * i + 1]) this.kill(paths[i] as number);
    }
    const visited = this.visited;
    visited.fill(0, 0, paths.length);
    for (const e of ranked) {
      const i = e >> 1;
      // Each path once, where its better extension ranks.
      if (visited[i]) continue;
      visited[i] = 1;
      const path = paths[i] as number;
      const zero = keep[2 * i] ? (metrics[2 * i] as number) : Number.NaN;
      const one = keep[2 * i + 1] ? (metrics[2 * i + 1] as number) : Number.NaN;
      if (!Number.isNaN(zero) && !Number.isNaN(one)) {
        const copy = this.clone(path);
        this.metrics[copy] = one;
        this.setBit(copy, phi, 1);
      }
      const bit = Number.isNaN(zero) ? 1 : 0;
      this.metrics[path] = bit ? one : zero;
      this.setBit(path, phi, bit);
    }
  }

  private setBit(path: number, phi: number, bit: number): void {
    (this.bits[path] as Uint8Array)[phi] = bit;
    this.writableSums(path, this.n)[phi & 1] = bit;
  }

  private clone(path: number): number {
    const copy = this.freePaths.pop() as number;
    this.alive[copy] = 1;
    (this.bits[copy] as Uint8Array).set(this.bits[path] as Uint8Array);
    for (let level = 0; level <= this.n; level++) {
      const slotOf = this.slotOf[level] as Int32Array;
      const slot = slotOf[path] as number;
      slotOf[copy] = slot;
      const references = this.references[level] as Int32Array;
      references[slot] = (references[slot] as number) + 1;
    }
    return copy;
  }

  private kill(path: number): void {
    this.alive[path] = 0;
    this.freePaths.push(path);
    for (let level = 0; level <= this.n; level++) {
      const slot = (this.slotOf[level] as Int32Array)[path] as number;
      const references = this.references[level] as Int32Array;
      references[slot] = (references[slot] as number) - 1;
      if (references[slot] === 0) (this.freeSlots[level] as number[]).push(slot);
    }
  }

  private readLlr(path: number, level: number): Float64Array {
    return (this.llr[level] as Float64Array[])[
      (this.slotOf[level] as Int32Array)[path] as number
    ] as Float64Array;
  }

  private readSums(path: number, level: number): Uint8Array {
    return (this.sums[level] as Uint8Array[])[
      (this.slotOf[level] as Int32Array)[path] as number
    ] as Uint8Array;
  }

  /**
   * The path's own slot at `level`, copied out of a shared one first: its sums always, its LLRs
   * unless the caller overwrites them all.
   */
  private own(path: number, level: number, keepLlr: boolean): number {
    const slotOf = this.slotOf[level] as Int32Array;
    const references = this.references[level] as Int32Array;
    const slot = slotOf[path] as number;
    if (references[slot] === 1) return slot;
    references[slot] = (references[slot] as number) - 1;
    const fresh = (this.freeSlots[level] as number[]).pop() as number;
    references[fresh] = 1;
    slotOf[path] = fresh;
    const llr = this.llr[level] as Float64Array[];
    const sums = this.sums[level] as Uint8Array[];
    if (keepLlr) (llr[fresh] as Float64Array).set(llr[slot] as Float64Array);
    (sums[fresh] as Uint8Array).set(sums[slot] as Uint8Array);
    return fresh;
  }

  /** The path's LLRs at `level`, to be overwritten whole. */
  private writableLlr(path: number, level: number): Float64Array {
    return (this.llr[level] as Float64Array[])[this.own(path, level, false)] as Float64Array;
  }

  private writableSums(path: number, level: number): Uint8Array {
    return (this.sums[level] as Uint8Array[])[this.own(path, level, true)] as Uint8Array;
  }
}
