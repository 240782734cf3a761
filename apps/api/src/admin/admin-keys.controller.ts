import { audited, issueApiKey, type Operator, revokeApiKey } from '@hallmark/db';
import { PrismaService } from '@hallmark/platform';
import {
  type AdminApiKey,
  AdminApiKeyCreate,
  AdminRateLimit,
  AdminWallet,
} from '@hallmark/schemas';
import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiKeyCache } from '../auth/api-key-cache.service.ts';
import { CurrentOperator } from '../auth/client.ts';
import { PageQuery, pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { byOperator } from './audit-actor.ts';

const PrefixParams = z.object({
  prefix: z.string().regex(/^hm_[a-z2-7]{8}$/, 'Expected a key prefix hm_xxxxxxxx'),
});

type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  walletAddress: string | null;
  rateLimitPerMinute: number | null;
};

function view(row: KeyRow): AdminApiKey {
  return {
    prefix: row.prefix,
    name: row.name,
    createdAt: unixSeconds(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : unixSeconds(row.lastUsedAt),
    revokedAt: row.revokedAt === null ? null : unixSeconds(row.revokedAt),
    walletAddress: row.walletAddress,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}

/** API keys for operators: listed by any; made, revoked, given a wallet and a rate limit by admins. */
@AdminRoute()
@Controller('admin/api-keys')
export class AdminKeysController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly keyCache: ApiKeyCache,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>) {
    const { cursor, limit } = parseRequest(PageQuery, query, 'query');
    const rows = await this.prisma.client.apiKey.findMany({
      where: pastCursor(cursor, 'createdAt', 'asc'),
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit + 1,
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt);
    return { items: page.map(view), nextCursor };
  }

  /** The new key is in this answer only; afterwards only its prefix exists. */
  @Post()
  @HttpCode(201)
  async create(
    @Body() body: unknown,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey & { apiKey: string }> {
    const { name } = parseRequest(AdminApiKeyCreate, body, 'body');
    const key = await audited(
      this.prisma.client,
      (tx) => issueApiKey(tx, name),
      (issued) => ({
        ...byOperator(operator, request),
        action: 'api_key.create',
        target: `api_key:${issued.prefix}`,
        details: { name },
      }),
    );
    const row = await this.prisma.client.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    return { ...view(row), apiKey: key.plaintext };
  }

  @Post(':prefix/revoke')
  @HttpCode(200)
  async revoke(
    @Param('prefix') prefix: string,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey> {
    const params = parseRequest(PrefixParams, { prefix }, 'path');
    const revoked = await audited(
      this.prisma.client,
      (tx) => revokeApiKey(tx, params.prefix),
      (done) =>
        done
          ? {
              ...byOperator(operator, request),
              action: 'api_key.revoke',
              target: `api_key:${params.prefix}`,
            }
          : null,
    );
    // Every API process hears of it from PostgreSQL; this one forgets at once.
    this.keyCache.clear();
    if (!revoked) {
      const exists = await this.prisma.client.apiKey.findUnique({
        where: { prefix: params.prefix },
      });
      if (exists === null) throw ProblemException.notFound(`No API key ${params.prefix}.`);
      throw ProblemException.alreadyDecided(`API key ${params.prefix} was revoked already.`);
    }
    return view(
      await this.prisma.client.apiKey.findUniqueOrThrow({ where: { prefix: params.prefix } }),
    );
  }

  /** Where this key's NFTs are minted to (null: the service's custody wallet). */
  @Put(':prefix/wallet')
  setWallet(
    @Param('prefix') prefix: string,
    @Body() body: unknown,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey> {
    const key = parseRequest(PrefixParams, { prefix }, 'path').prefix;
    const setting = parseRequest(AdminWallet, body, 'body');
    return this.#set(key, setting, 'api_key.set_wallet', operator, request);
  }

  /** This key's requests per minute (null: the deployment's RATE_LIMIT_PER_MINUTE). */
  @Put(':prefix/rate-limit')
  setRateLimit(
    @Param('prefix') prefix: string,
    @Body() body: unknown,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey> {
    const key = parseRequest(PrefixParams, { prefix }, 'path').prefix;
    const setting = parseRequest(AdminRateLimit, body, 'body');
    return this.#set(key, setting, 'api_key.set_rate_limit', operator, request);
  }

  /** Changes one setting of a key (its prefix checked already), audited with its new value. */
  async #set(
    prefix: string,
    setting: { walletAddress: string | null } | { rateLimitPerMinute: number | null },
    action: string,
    operator: Operator,
    request: FastifyRequest,
  ): Promise<AdminApiKey> {
    const { count } = await audited(
      this.prisma.client,
      (tx) => tx.apiKey.updateMany({ where: { prefix }, data: setting }),
      (done) =>
        done.count === 0
          ? null
          : {
              ...byOperator(operator, request),
              action,
              target: `api_key:${prefix}`,
              details: setting,
            },
    );
    this.keyCache.clear();
    if (count === 0) throw ProblemException.notFound(`No API key ${prefix}.`);
    return view(await this.prisma.client.apiKey.findUniqueOrThrow({ where: { prefix } }));
  }
}
