import { appendAudit, issueApiKey, type Operator, revokeApiKey } from '@hallmark/db';
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
import { CurrentOperator } from '../auth/client.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

const ListQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
const PrefixParams = z.object({
  prefix: z.string().regex(/^hm_[a-z2-7]{8}$/, 'Expected a key prefix hm_xxxxxxxx'),
});

const unix = (date: Date | null) => (date === null ? null : Math.floor(date.getTime() / 1000));

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
    createdAt: unix(row.createdAt) ?? 0,
    lastUsedAt: unix(row.lastUsedAt),
    revokedAt: unix(row.revokedAt),
    walletAddress: row.walletAddress,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}

/** API keys for operators: listed by any; made, revoked, given a wallet and a rate limit by admins. */
@AdminRoute()
@Controller('admin/api-keys')
export class AdminKeysController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  async list(@Query() query: Record<string, unknown>) {
    const { cursor, limit } = parseRequest(ListQuery, query, 'query');
    const after = cursor === undefined ? null : decodeCursor(cursor);
    const rows = await this.prisma.client.apiKey.findMany({
      where:
        after === null
          ? {}
          : {
              OR: [{ createdAt: { gt: after.at } }, { createdAt: after.at, id: { gt: after.id } }],
            },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(view),
      nextCursor:
        rows.length > limit && last !== undefined ? encodeCursor(last.createdAt, last.id) : null,
    };
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
    const key = await issueApiKey(this.prisma.client, name);
    await appendAudit(this.prisma.client, {
      operatorId: operator.id,
      action: 'api_key.create',
      target: `api_key:${key.prefix}`,
      details: { name },
      address: request.ip,
    });
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
    if (!(await revokeApiKey(this.prisma.client, params.prefix))) {
      const exists = await this.prisma.client.apiKey.findUnique({
        where: { prefix: params.prefix },
      });
      if (exists === null) throw ProblemException.notFound(`No API key ${params.prefix}.`);
      throw ProblemException.alreadyDecided(`API key ${params.prefix} was revoked already.`);
    }
    await appendAudit(this.prisma.client, {
      operatorId: operator.id,
      action: 'api_key.revoke',
      target: `api_key:${params.prefix}`,
      address: request.ip,
    });
    return view(
      await this.prisma.client.apiKey.findUniqueOrThrow({ where: { prefix: params.prefix } }),
    );
  }

  /** Where this key's NFTs are minted to (null: the service's custody wallet). */
  @Put(':prefix/wallet')
  async setWallet(
    @Param('prefix') prefix: string,
    @Body() body: unknown,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey> {
    const params = parseRequest(PrefixParams, { prefix }, 'path');
    const { walletAddress } = parseRequest(AdminWallet, body, 'body');
    const { count } = await this.prisma.client.apiKey.updateMany({
      where: { prefix: params.prefix },
      data: { walletAddress },
    });
    if (count === 0) throw ProblemException.notFound(`No API key ${params.prefix}.`);
    await appendAudit(this.prisma.client, {
      operatorId: operator.id,
      action: 'api_key.set_wallet',
      target: `api_key:${params.prefix}`,
      details: { walletAddress },
      address: request.ip,
    });
    return view(
      await this.prisma.client.apiKey.findUniqueOrThrow({ where: { prefix: params.prefix } }),
    );
  }

  /** This key's requests per minute (null: the deployment's RATE_LIMIT_PER_MINUTE). */
  @Put(':prefix/rate-limit')
  async setRateLimit(
    @Param('prefix') prefix: string,
    @Body() body: unknown,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey> {
    const params = parseRequest(PrefixParams, { prefix }, 'path');
    const { rateLimitPerMinute } = parseRequest(AdminRateLimit, body, 'body');
    const { count } = await this.prisma.client.apiKey.updateMany({
      where: { prefix: params.prefix },
      data: { rateLimitPerMinute },
    });
    if (count === 0) throw ProblemException.notFound(`No API key ${params.prefix}.`);
    await appendAudit(this.prisma.client, {
      operatorId: operator.id,
      action: 'api_key.set_rate_limit',
      target: `api_key:${params.prefix}`,
      details: { rateLimitPerMinute },
      address: request.ip,
    });
    return view(
      await this.prisma.client.apiKey.findUniqueOrThrow({ where: { prefix: params.prefix } }),
    );
  }
}
