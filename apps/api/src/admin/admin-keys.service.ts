import { audited, issueApiKey, reissueApiKey, revokeApiKey } from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import { type AdminApiKey, type AdminApiKeyPage, problemTypes } from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { ApiKeyCache } from '../auth/api-key-cache.service.ts';
import { KeyRequestMail } from '../key-requests/key-request-mail.ts';
import { KeyRequestSecrets } from '../key-requests/key-request-secrets.ts';
import { pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import type { AuditActor } from './audit-actor.ts';

type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  walletAddress: string | null;
  rateLimitPerMinute: number | null;
  keyRequest: { sealedApiKey: string | null } | null;
};

/** What a key view reads of its request: whether its sealed copy still waits. */
const WITH_REQUEST = { keyRequest: { select: { sealedApiKey: true } } } as const;

function view(row: KeyRow): AdminApiKey {
  return {
    prefix: row.prefix,
    name: row.name,
    createdAt: unixSeconds(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : unixSeconds(row.lastUsedAt),
    revokedAt: row.revokedAt === null ? null : unixSeconds(row.revokedAt),
    walletAddress: row.walletAddress,
    rateLimitPerMinute: row.rateLimitPerMinute,
    awaitingCollection: row.keyRequest !== null && row.keyRequest.sealedApiKey !== null,
  };
}

/** API keys for operators: listed, made, revoked, given a wallet and a rate limit; audited. */
@Injectable()
export class AdminKeysService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly keyCache: ApiKeyCache,
    private readonly secrets: KeyRequestSecrets,
    private readonly mail: KeyRequestMail,
  ) {}

  async list(cursor: string | undefined, limit: number): Promise<AdminApiKeyPage> {
    const rows = await this.prisma.client.apiKey.findMany({
      where: pastCursor(cursor, 'createdAt', 'asc'),
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit + 1,
      include: WITH_REQUEST,
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt);
    return { items: page.map(view), nextCursor };
  }

  /** The new key is in this answer only; afterwards only its prefix exists. */
  async create(name: string, who: AuditActor): Promise<AdminApiKey & { apiKey: string }> {
    const key = await audited(
      this.prisma.client,
      (tx) => issueApiKey(tx, name),
      (issued) => ({
        ...who,
        action: 'api_key.create',
        target: `api_key:${issued.prefix}`,
        details: { name },
      }),
    );
    return { ...(await this.#view(key.prefix)), apiKey: key.plaintext };
  }

  async revoke(prefix: string, who: AuditActor): Promise<AdminApiKey> {
    const revoked = await audited(
      this.prisma.client,
      (tx) => revokeApiKey(tx, prefix),
      (done) => (done ? { ...who, action: 'api_key.revoke', target: `api_key:${prefix}` } : null),
    );
    // Every API process hears of it from PostgreSQL; this one forgets at once.
    this.keyCache.clear();
    if (!revoked) {
      const exists = await this.prisma.client.apiKey.findUnique({ where: { prefix } });
      if (exists === null) throw ProblemException.notFound(`No API key ${prefix}.`);
      throw ProblemException.alreadyDecided(`API key ${prefix} was revoked already.`);
    }
    return this.#view(prefix);
  }

  /**
   * A new key for the request whose key was not collected yet, the old one revoked; its requester
   * collects the new one at the same link and is told so by mail. The operator never sees it.
   */
  async reissue(prefix: string, who: AuditActor): Promise<AdminApiKey> {
    const reissued = await audited(
      this.prisma.client,
      (tx) => reissueApiKey(tx, prefix, this.secrets),
      (done) =>
        done === null
          ? null
          : {
              ...who,
              action: 'api_key.reissue',
              target: `api_key:${prefix}`,
              details: { replacedBy: done.prefix, keyRequest: done.request.id },
            },
    );
    this.keyCache.clear();
    if (reissued === null) {
      const exists = await this.prisma.client.apiKey.findUnique({ where: { prefix } });
      if (exists === null) throw ProblemException.notFound(`No API key ${prefix}.`);
      throw new ProblemException(
        problemTypes.keyNotAvailable,
        `API key ${prefix} is not waiting for its requester (made by hand, collected already, or revoked): only an uncollected key is re-issued.`,
      );
    }
    await this.mail.decided(reissued.request);
    return this.#view(reissued.prefix);
  }

  async #view(prefix: string): Promise<AdminApiKey> {
    return view(
      await this.prisma.client.apiKey.findUniqueOrThrow({
        where: { prefix },
        include: WITH_REQUEST,
      }),
    );
  }

  /** Changes one setting of a key, audited with its new value. */
  async set(
    prefix: string,
    setting: { walletAddress: string | null } | { rateLimitPerMinute: number | null },
    action: 'api_key.set_wallet' | 'api_key.set_rate_limit',
    who: AuditActor,
  ): Promise<AdminApiKey> {
    const { count } = await audited(
      this.prisma.client,
      (tx) => tx.apiKey.updateMany({ where: { prefix }, data: setting }),
      (done) =>
        done.count === 0 ? null : { ...who, action, target: `api_key:${prefix}`, details: setting },
    );
    this.keyCache.clear();
    if (count === 0) throw ProblemException.notFound(`No API key ${prefix}.`);
    return this.#view(prefix);
  }
}
