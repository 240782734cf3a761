// What a search looked at: which windows, how clearly each showed a lattice and pilots, and where
// it stopped. Every search records it and only a caller that asks keeps it (the tests, the bench,
// the evaluation's --trace, which calibrate statistics against it); the answer never depends on it.

/** One window's evidence, as the search saw it. */
export interface WindowTrace {
  readonly name: string;
  /** Best pilot z-score of the unscaled lattices' alignments (0 when none fits the window). */
  unscaledZ: number;
  /** Best autocorrelation lattice score (0 when the search found none). */
  latticeScore: number;
  /** Best pilot z-score of the strongest autocorrelation lattice's alignments. */
  strongestZ: number;
  /** Best pilot z-score of the upright and rotation scans (whole window only). */
  scanZ: number;
  /** Best pilot z-score of any alignment the window folded. */
  maxZ: number;
  /** Frames handed to the list decoder. */
  decodes: number;
  found: boolean;
  /**
   * Milliseconds from the window's start at the end of each stage reached: the unscaled lattices,
   * the lattice search, the strongest lattice, the scans, the other alignments. For profiling only.
   */
  readonly ms: number[];
  /** Milliseconds the window took, for profiling only. */
  elapsed: number;
}

export interface SearchTrace {
  readonly windows: WindowTrace[];
  /** Milliseconds the whole detection took (decodes included), for profiling only. */
  elapsed: number;
}

export function newWindowTrace(name: string): WindowTrace {
  return {
    name,
    unscaledZ: 0,
    latticeScore: 0,
    strongestZ: 0,
    scanZ: 0,
    maxZ: 0,
    decodes: 0,
    found: false,
    ms: [],
    elapsed: 0,
  };
}
