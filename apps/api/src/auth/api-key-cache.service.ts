import { type HallmarkConfig } from '@hallmark/config';
import { KEY_CHANGES_CHANNEL, type KeyCredential } from '@hallmark/db';
import { CONFIG } from '@hallmark/runtime';
import { Inject, Injectable } from '@nestjs/common';
import { DatabaseChanges } from '../changes/database-changes.service.ts';
import { NotifiedCache } from '../changes/notified-cache.ts';

/** A key as the authenticator needs it, by key hash (`hash:`) or by id for tokens (`id:`). */
export type CachedKey = Pick<KeyCredential, 'revokedAt' | 'rateLimitPerMinute'> &
  Partial<Pick<KeyCredential, 'id' | 'lastUsedAt'>>;

/**
 * The process's key cache, emptied whenever PostgreSQL reports a key change (the api_keys
 * trigger notifies at commit, whoever made the change) and whenever that report could have been
 * missed (the listening connection was lost). A revocation therefore takes effect at once, and
 * within API_KEY_CACHE_SECONDS even while the database connection that listens is down. Entries
 * are by hash and by id, so any key change empties them all (changes to keys are rare).
 */
@Injectable()
export class ApiKeyCache extends NotifiedCache<CachedKey> {
  constructor(@Inject(CONFIG) config: HallmarkConfig, changes: DatabaseChanges) {
    super(config.API_KEY_CACHE_SECONDS * 1000);
    changes.subscribe(KEY_CHANGES_CHANNEL, {
      onChange: () => this.clear(),
      onGap: () => this.clear(),
    });
  }
}
