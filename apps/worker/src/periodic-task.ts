/**
 * Runs `pass` every `intervalMs`, never two at once: a pass still running when the next tick
 * comes makes that tick a no-op. A failed pass is reported to `onError` and simply tried again at
 * the next tick. `stop` clears the timer and waits for a running pass to end.
 */
export class PeriodicTask {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly pass: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** With `now`, the first pass runs at once instead of a tick later. */
  start(options: { readonly now?: boolean } = {}): void {
    this.#timer = setInterval(() => this.#tick(), this.intervalMs);
    if (options.now === true) this.#tick();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  #tick(): void {
    this.#running ??= this.pass()
      .catch(this.onError)
      .finally(() => {
        this.#running = undefined;
      });
  }
}
