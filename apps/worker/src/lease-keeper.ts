import { type JobLease, renewLease, type Sql } from '@hallmark/db';

/** The run no longer holds its job: another run took over. It must stop and change nothing. */
export class LeaseLostError extends Error {
  constructor(readonly jobId: string) {
    super(`The lease on job ${jobId} was lost; another run owns it now.`);
    this.name = 'LeaseLostError';
  }
}

/**
 * Keeps a run's lease on its job alive while it works: renewed every third of its length, so a
 * live run never loses it to a slow step, while a dead one loses it within one length. `signal`
 * aborts when the lease is lost (or the run's own deadline passes), which stops the pixel work;
 * `assertHeld` stops the run between steps.
 */
export class LeaseKeeper {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  #lost = false;
  readonly signal: AbortSignal;

  constructor(
    private readonly sql: Sql,
    readonly lease: JobLease,
    private readonly leaseMs: number,
    deadline: AbortSignal,
  ) {
    this.signal = AbortSignal.any([this.#controller.signal, deadline]);
    this.#timer = setInterval(
      () => {
        void this.#renew().catch(() => {
          // A failed renewal is not a lost lease: the next one, or the next write, decides.
        });
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
  }

  /** Renews now; throws LeaseLostError when the lease is gone. Use before an external write. */
  async renewNow(): Promise<void> {
    if (!(await this.#renew())) throw new LeaseLostError(this.lease.jobId);
  }

  assertHeld(): void {
    if (this.#lost) throw new LeaseLostError(this.lease.jobId);
  }

  /** Confirms a conditional write: false from it means another run holds the job. */
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
    const held = await renewLease(this.sql, this.lease, this.leaseMs);
    if (!held) this.#markLost();
    return held;
  }

  #markLost(): void {
    this.#lost = true;
    this.#controller.abort(new LeaseLostError(this.lease.jobId));
  }
}
