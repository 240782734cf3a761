import { type HallmarkConfig, type Logger } from '@hallmark/config';
import {
  type ChangeFollower,
  followChanges,
  JOB_CHANGES_CHANNEL,
  KEY_CHANGES_CHANNEL,
} from '@hallmark/db';
import { CONFIG, LOGGER } from '@hallmark/runtime';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';

export interface ChangeListener {
  /** A row of the channel's table changed. */
  onChange(id: string): void;
  /** Changes may have been missed: forget what was read before. */
  onGap(): void;
}

/**
 * The process's one LISTEN connection: PostgreSQL's announcements of key and job changes (made at
 * commit by triggers, whoever the writer), handed to the caches that subscribed to each channel.
 * Opened only when some cache is on.
 */
@Injectable()
export class DatabaseChanges implements OnModuleDestroy {
  readonly #listeners = new Map<string, ChangeListener[]>();
  readonly #follower: ChangeFollower | undefined;

  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    const channels = [
      ...(config.API_KEY_CACHE_SECONDS > 0 ? [KEY_CHANGES_CHANNEL] : []),
      ...(config.JOB_CACHE_SECONDS > 0 ? [JOB_CHANGES_CHANNEL] : []),
    ];
    let warned = false;
    this.#follower =
      channels.length === 0
        ? undefined
        : followChanges(config.DATABASE_URL, channels, {
            onChange: (channel, id) => {
              for (const listener of this.#listeners.get(channel) ?? []) listener.onChange(id);
            },
            onGap: (following) => {
              for (const listeners of this.#listeners.values())
                for (const listener of listeners) listener.onGap();
              // Once per outage.
              if (!following && !warned) {
                logger.warn(
                  {
                    keyCacheSeconds: config.API_KEY_CACHE_SECONDS,
                    jobCacheSeconds: config.JOB_CACHE_SECONDS,
                  },
                  'not hearing key and job changes; a revocation takes up to API_KEY_CACHE_SECONDS, a status change up to JOB_CACHE_SECONDS',
                );
              }
              warned = !following;
            },
          });
  }

  /** Settles once changes are heard (at once when no cache is on and nothing listens). */
  async listening(): Promise<void> {
    await this.#follower?.listening();
  }

  subscribe(channel: string, listener: ChangeListener): void {
    this.#listeners.set(channel, [...(this.#listeners.get(channel) ?? []), listener]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.#follower?.close();
  }
}
