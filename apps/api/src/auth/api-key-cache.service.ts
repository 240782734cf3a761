import { followKeyChanges, type KeyChangeFollower, type KeyCredential } from '@hallmark/db';
import { CONFIG, type HallmarkConfig, LOGGER, type Logger } from '@hallmark/platform';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { KeyCache } from './key-cache.ts';

/** A key as the authenticator needs it, by key hash (`hash:`) or by id for tokens (`id:`). */
export type CachedKey = Pick<KeyCredential, 'revokedAt' | 'rateLimitPerMinute'> &
  Partial<Pick<KeyCredential, 'id' | 'lastUsedAt'>>;

/**
 * The process's key cache, emptied whenever PostgreSQL reports a key change (the api_keys
 * trigger notifies at commit, whoever made the change) and whenever that report could have been
 * missed (the listening connection was lost). A revocation therefore takes effect at once, and
 * within API_KEY_CACHE_SECONDS even while the database connection that listens is down.
 */
@Injectable()
export class ApiKeyCache extends KeyCache<CachedKey> implements OnModuleDestroy {
  readonly #follower: KeyChangeFollower | undefined;

  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    super(config.API_KEY_CACHE_SECONDS * 1000);
    let warned = false;
    this.#follower =
      config.API_KEY_CACHE_SECONDS === 0
        ? undefined
        : followKeyChanges(config.DATABASE_URL, {
            onChange: () => this.clear(),
            onGap: (following) => {
              this.clear();
              // Once per outage.
              if (!following && !warned) {
                logger.warn(
                  { cacheSeconds: config.API_KEY_CACHE_SECONDS },
                  'not hearing API key changes; a revocation takes up to API_KEY_CACHE_SECONDS',
                );
              }
              warned = !following;
            },
          });
  }

  async onModuleDestroy(): Promise<void> {
    await this.#follower?.close();
  }
}
