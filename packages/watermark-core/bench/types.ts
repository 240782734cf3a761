/** One line of the benchmark table: a measured time and its ratio to a baseline of the same run. */
export interface BenchRow {
  readonly name: string;
  readonly ms: number;
  readonly baseline: string;
  readonly baselineMs: number;
  /** Upper bound for `ms / baselineMs` from the target, when there is one. */
  readonly target?: number;
  /** Extra facts worth printing (e.g. peak memory), shown verbatim. */
  readonly note?: string;
}
