import { availableParallelism } from 'node:os';
import { CONFIG, type HallmarkConfig } from '@hallmark/platform';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Piscina } from 'piscina';
import type { EmbedResult, EmbedTask } from './embed-task.ts';

/**
 * Worker threads for pixel work: the event loop stays free to renew job locks, answer shutdown
 * and talk to Redis while images are decoded and marked. One thread per concurrent job.
 */
@Injectable()
export class PixelPool implements OnApplicationShutdown {
  readonly #pool: Piscina<EmbedTask, EmbedResult>;

  constructor(@Inject(CONFIG) config: HallmarkConfig) {
    this.#pool = new Piscina({
      filename: new URL('./embed-task.js', import.meta.url).href,
      minThreads: 0,
      maxThreads: config.WORKER_CONCURRENCY,
      idleTimeout: 60_000,
      workerData: {
        pixelThreads: Math.max(1, Math.floor(availableParallelism() / config.WORKER_CONCURRENCY)),
      },
    });
  }

  /** Marks the image; aborting (the job's time limit) ends the thread doing it. */
  async embed(task: EmbedTask, signal: AbortSignal): Promise<Uint8Array> {
    const result = await this.#pool.run(task, { signal });
    if (result.ok) return result.bytes;
    throw Object.assign(new Error(result.message), { code: result.code });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.#pool.destroy();
  }
}
