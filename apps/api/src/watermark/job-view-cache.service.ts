import { type HallmarkConfig } from '@hallmark/config';
import { findJobView, JOB_CHANGES_CHANNEL, type JobViewRow } from '@hallmark/db';
import { CONFIG, PrismaService } from '@hallmark/runtime';
import { Inject, Injectable } from '@nestjs/common';
import { DatabaseChanges } from '../changes/database-changes.service.ts';
import { NotifiedCache } from '../changes/notified-cache.ts';

interface Entry {
  readonly apiKeyId: string;
  readonly row: JobViewRow;
}

/**
 * The job rows status reads need, kept per process so that polling, the service's hottest path,
 * costs no query while a job stands still. PostgreSQL announces every change to those columns at
 * commit (trigger watermark_job_changed, whoever the writer: worker, reconciler, retention sweep,
 * an operator), which drops the job's entry; a job's view therefore trails its row by the
 * notification's delivery (well under a millisecond on one network), and by at most
 * JOB_CACHE_SECONDS while the process cannot hear PostgreSQL. Only rows found are kept: a job
 * that does not exist (yet) is asked for again.
 */
@Injectable()
export class JobViewCache {
  readonly #cache: NotifiedCache<Entry>;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    private readonly prisma: PrismaService,
    changes: DatabaseChanges,
  ) {
    this.#cache = new NotifiedCache(config.JOB_CACHE_SECONDS * 1000);
    changes.subscribe(JOB_CHANGES_CHANNEL, {
      onChange: (id) => this.#cache.delete(id),
      onGap: () => this.#cache.clear(),
    });
  }

  /** The job's row when it is the key's, as findJobView; another key's job is not found. */
  async find(apiKeyId: string, id: string): Promise<JobViewRow | null> {
    const entry = await this.#cache.read(
      id,
      async () => {
        const row = await findJobView(this.prisma.sql, id, apiKeyId);
        return row === null ? undefined : { apiKeyId, row };
      },
      // Another key's read finds nothing: the owner's read must not wait for it and share that.
      `${apiKeyId}/${id}`,
    );
    return entry?.apiKeyId === apiKeyId ? entry.row : null;
  }

  /** A change this process made: its own next read must not wait for the announcement. */
  forget(id: string): void {
    this.#cache.delete(id);
  }
}
