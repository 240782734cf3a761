import type { Logger } from '@hallmark/config';
import { untilAborted } from '@hallmark/config';
import type { ContentComparison, ContentInput } from '@hallmark/watermark-core/content';
import type { Detection } from '@hallmark/watermark-core/invisible';
import type { OnApplicationShutdown } from '@nestjs/common';
import { Piscina } from 'piscina';
import type {
  CompareResult,
  CompareTask,
  EmbedResult,
  EmbedTask,
  ReadResult,
  ReadTask,
  TaskFailure,
} from './pixel-tasks.ts';

type Task = EmbedTask | ReadTask | CompareTask;
type Result = EmbedResult | ReadResult | CompareResult;

export interface PixelPoolLayout {
  readonly threads: number;
  readonly jobsPerThread: number;
  /** libvips threads per image operation: each pixel thread gets its share of the cores. */
  readonly libvipsThreads: number;
}

/** The code of the error a refused read carries: every place taken and the queue full. */
export const PIXELS_BUSY = 'pixels_busy';

/**
 * How the pool is laid out for a worker marking `concurrency` images at once on `cores` cores:
 * by default a thread per image up to one per core, and the images beyond that interleaved on
 * them (an embed alternates between its JavaScript and libvips' own threads, so a thread with
 * two keeps its core busy). A thread per core beats one thread for all: the mark's JavaScript
 * then runs on every core (apps/worker/README.md has the bench). The extra heaps are cheap since
 * a thread loads only the mark.
 * `threads` (PIXEL_THREADS) overrides the count, e.g. to save memory.
 */
export function pixelPoolLayout(
  concurrency: number,
  cores: number,
  threads: number = Math.min(concurrency, cores),
): PixelPoolLayout {
  const count = Math.max(1, Math.min(threads, concurrency));
  return {
    threads: count,
    jobsPerThread: Math.ceil(concurrency / count),
    libvipsThreads: Math.max(1, Math.floor(cores / count)),
  };
}

interface PixelThread {
  readonly pool: Piscina<Task, Result>;
  running: number;
}

/**
 * Worker threads for pixel work: the event loop stays free to renew job locks, answer shutdown
 * and talk to Redis while images are decoded and marked. The threads start with the first image
 * (an API process that never verifies a file in the request never starts one) and are kept:
 * loading sharp and the engine costs a few hundred milliseconds, which the first jobs after
 * every idle spell would otherwise pay.
 *
 * More jobs may ask than there are places (the worker prepares the next job while others are
 * marked); they wait here, first come first served, and a wait is cancelled by the job's signal.
 *
 * A job that runs out of time cannot be stopped inside its thread, so the thread is replaced:
 * the job fails with its timeout, and any other job on that thread fails this attempt with a
 * transient error and is retried. Each thread is its own one-thread pool so that nothing else
 * is touched.
 */
export class PixelPool implements OnApplicationShutdown {
  readonly #layout: PixelPoolLayout;
  /** Started with the first image, then kept (empty until then). */
  readonly #threads: PixelThread[] = [];
  /** Jobs waiting for a place on a thread, oldest first. */
  readonly #waiting: Array<() => void> = [];

  readonly #logger: Logger;
  /** Reads that may wait for a place; beyond, a read is refused (unbounded when undefined). */
  readonly #maxWaitingReads: number | undefined;

  /**
   * `maxWaitingReads` bounds the queue for reads started by requests (an API process): each
   * waiting read holds its image in memory, and a burst of them would keep every later request
   * waiting. A refused read throws an error with code `PIXELS_BUSY`. Embeds and comparisons
   * (the second half of a verification under way) always wait.
   */
  constructor(layout: PixelPoolLayout, logger: Logger, maxWaitingReads?: number) {
    this.#layout = layout;
    this.#logger = logger;
    this.#maxWaitingReads = maxWaitingReads;
  }

  get layout(): PixelPoolLayout {
    return this.#layout;
  }

  /** Marks the image on the least busy thread; when `signal` aborts, rejects with its reason. */
  async embed(
    task: EmbedTask,
    signal: AbortSignal,
  ): Promise<{
    readonly bytes: Uint8Array;
    readonly fingerprint: string;
    readonly contentReference: Uint8Array;
    readonly width: number;
    readonly height: number;
  }> {
    const { bytes, fingerprint, contentReference, width, height } = succeeded(
      (await this.#run('embed', task, signal)) as EmbedResult,
    );
    return { bytes, fingerprint, contentReference, width, height };
  }

  /**
   * The image's invisible mark and fingerprint (one decode), as watermark-core's
   * readMarkAndFingerprint, on the least busy thread: a verification's detector, up to a second
   * on a large unmarked file, must not hold the event loop either.
   */
  async read(
    task: ReadTask,
    signal: AbortSignal,
  ): Promise<{ readonly detection: Detection | null; readonly fingerprint: string }> {
    const { detection, fingerprint } = succeeded(
      (await this.#run('read', task, signal)) as ReadResult,
    );
    return { detection, fingerprint };
  }

  /**
   * `read` as a function of the image alone, every call within `signal`: the shape of
   * `examineImage`'s `readPixels`, so a caller's verification reads on these threads.
   */
  reader(
    signal: AbortSignal,
  ): (
    bytes: Uint8Array,
    maxPixels: number,
  ) => Promise<{ readonly detection: Detection | null; readonly fingerprint: string }> {
    return (bytes, maxPixels) => this.read({ bytes, maxPixels }, signal);
  }

  /** A verified copy compared with its job's picture (compareContent), on the least busy thread. */
  async compare(task: CompareTask, signal: AbortSignal): Promise<ContentComparison> {
    return succeeded((await this.#run('compare', task, signal)) as CompareResult).comparison;
  }

  /** `compare` in the shape of `verifyImage`'s `compareContent`, every call within `signal`. */
  comparer(
    signal: AbortSignal,
  ): (bytes: Uint8Array, input: ContentInput) => Promise<ContentComparison> {
    return (bytes, input) => this.compare({ bytes, ...input }, signal);
  }

  async #run(name: 'embed' | 'read' | 'compare', task: Task, signal: AbortSignal): Promise<Result> {
    const thread = await this.#place(signal, name === 'read' ? this.#maxWaitingReads : undefined);
    try {
      return await untilAborted(thread.pool.run(task, { name }), signal, () =>
        this.#replace(thread),
      );
    } finally {
      thread.running -= 1;
      this.#waiting.shift()?.();
    }
  }

  /**
   * A thread with a free place, taken for the caller; waits while every place is taken, unless
   * `maxWaiting` callers wait already.
   */
  async #place(signal: AbortSignal, maxWaiting: number | undefined): Promise<PixelThread> {
    if (this.#threads.length === 0) {
      for (let i = 0; i < this.#layout.threads; i++) this.#threads.push(this.#startThread());
    }
    for (let queued = false; ; queued = true) {
      signal.throwIfAborted();
      const thread = this.#threads.reduce((best, t) => (t.running < best.running ? t : best));
      if (thread.running < this.#layout.jobsPerThread) {
        thread.running += 1;
        return thread;
      }
      // Only on arrival: a caller woken for a place another took is in the queue already.
      if (!queued && maxWaiting !== undefined && this.#waiting.length >= maxWaiting) {
        throw Object.assign(
          new Error(`every pixel place is taken and ${this.#waiting.length} reads wait`),
          { code: PIXELS_BUSY },
        );
      }
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener('abort', cancel);
          resolve();
        };
        const cancel = () => {
          this.#waiting.splice(this.#waiting.indexOf(wake), 1);
          reject(signal.reason);
        };
        this.#waiting.push(wake);
        signal.addEventListener('abort', cancel, { once: true });
      });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.#threads.map((thread) => thread.pool.destroy()));
  }

  #startThread(): PixelThread {
    const pool = new Piscina<Task, Result>({
      filename: new URL('./pixel-tasks.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: 1,
      concurrentTasksPerWorker: this.#layout.jobsPerThread,
      // The thread's event loop must run between tasks: its jobs interleave.
      atomics: 'disabled',
      workerData: { libvipsThreads: this.#layout.libvipsThreads },
    });
    return { pool, running: 0 };
  }

  async #replace(thread: PixelThread): Promise<void> {
    const index = this.#threads.indexOf(thread);
    if (index === -1) return;
    this.#threads[index] = this.#startThread();
    this.#logger.warn('pixel thread replaced after a job ran out of time');
    await thread.pool.destroy();
  }
}

/** A task's result; its failure (returned as data) rethrown with its stable `code`. */
function succeeded<T extends { readonly ok: true }>(result: T | TaskFailure): T {
  if (result.ok) return result;
  throw Object.assign(new Error(result.message), { code: result.code });
}
