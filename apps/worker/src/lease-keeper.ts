/** The run no longer holds its row: another run took over. It must stop and change nothing. */
export class LeaseLostError extends Error {
  constructor(readonly what: string) {
    super(`The lease on ${what} was lost; another run owns it now.`);
    this.name = 'LeaseLostError';
  }
}

/** A leased row: what it is called in errors, and the conditional renewal of its lease. */
export interface LeasedRow<L> {
  readonly what: string;
  readonly lease: L;
  /** Extends the lease while this run still holds it; false when another run took it. */
  renew(): Promise<boolean>;
}

/**
 * Keeps a run's lease on its row (a job, a transfer) alive while it works: renewed every third of
 * its length, so a live run never loses it to a slow step, while a dead one loses it within one
 * length. `signal` aborts when the lease is lost (or the run's own deadline passes), which stops
 * the pixel work; `assertHeld` stops the run between steps.
 */
export class LeaseKeeper<L> {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #row: LeasedRow<L>;
  #lost = false;
  readonly signal: AbortSignal;

  constructor(row: LeasedRow<L>, leaseMs: number, deadline?: AbortSignal) {
    this.#row = row;
    this.signal =
      deadline === undefined
        ? this.#controller.signal
        : AbortSignal.any([this.#controller.signal, deadline]);
    this.#timer = setInterval(
      () => {
        void this.#renew().catch(() => {
          // A failed renewal is not a lost lease: the next one, or the next write, decides.
        });
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
  }

  get lease(): L {
    return this.#row.lease;
  }

  /** Renews now; throws LeaseLostError when the lease is gone. Use before an external write. */
  async renewNow(): Promise<void> {
    if (!(await this.#renew())) throw new LeaseLostError(this.#row.what);
  }

  assertHeld(): void {
    if (this.#lost) throw new LeaseLostError(this.#row.what);
  }

  /** Confirms a conditional write: false from it means another run holds the row. */
  confirm(written: boolean): void {
    if (!written) this.#markLost();
    this.assertHeld();
  }

  get lost(): boolean {
    return this.#lost;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #renew(): Promise<boolean> {
    if (this.#lost) return false;
    const held = await this.#row.renew();
    if (!held) this.#markLost();
    return held;
  }

  #markLost(): void {
    this.#lost = true;
    this.#controller.abort(new LeaseLostError(this.#row.what));
  }
}
