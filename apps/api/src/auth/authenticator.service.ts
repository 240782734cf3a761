import { type HallmarkConfig } from '@hallmark/config';
import { findKeyByHash, hashApiKey, isWellFormedApiKey, keyStatus, touchKey } from '@hallmark/db';
import { CONFIG, PrismaService, SERVICE_KEYS, type ServiceKeys } from '@hallmark/runtime';
import { apiKeyLookups } from '@hallmark/runtime/metrics';
import { problemTypes } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { AccessTokens } from './access-tokens.ts';
import { ApiKeyCache } from './api-key-cache.service.ts';
import type { Client } from './client.ts';

/** `lastUsedAt` is a hint for operators, not an audit log: refreshed at most once a minute. */
const LAST_USED_RESOLUTION_MS = 60_000;

const nullToUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

function unauthorized(detail: string): ProblemException {
  return new ProblemException(problemTypes.unauthorized, detail, undefined, {
    'www-authenticate': 'Bearer realm="hallmark"',
  });
}

/** Turns an `Authorization` header into a caller, or a 401 problem saying what is wrong. */
@Injectable()
export class Authenticator {
  readonly tokens: AccessTokens;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(SERVICE_KEYS) keys: ServiceKeys,
    private readonly prisma: PrismaService,
    private readonly cache: ApiKeyCache,
  ) {
    this.tokens = new AccessTokens(keys.accessTokens, config.ACCESS_TOKEN_TTL_SECONDS);
  }

  async authenticate(header: string | undefined): Promise<Client> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    const bearer = match?.[1];
    if (bearer === undefined)
      throw unauthorized('Send `Authorization: Bearer <API key or access token>`.');
    if (AccessTokens.looksLikeToken(bearer)) return this.#fromToken(bearer);
    if (!isWellFormedApiKey(bearer))
      throw unauthorized('The bearer token is not a Hallmark API key or access token.');
    const hash = hashApiKey(bearer);
    let queried = false;
    const key = await this.cache.read(`hash:${hash}`, async () => {
      queried = true;
      return nullToUndefined(await findKeyByHash(this.prisma.sql, hash));
    });
    apiKeyLookups.inc({ result: queried ? 'miss' : 'hit' });
    if (key?.id === undefined || key.revokedAt !== null)
      throw unauthorized('The API key is unknown or revoked.');
    const now = Date.now();
    if (key.lastUsedAt == null || now - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      // Noted on the cached entry too, so the next minute's requests skip this write.
      key.lastUsedAt = new Date(now);
      await touchKey(this.prisma.sql, key.id, key.lastUsedAt);
    }
    return { apiKeyId: key.id, via: 'api_key', rateLimitPerMinute: key.rateLimitPerMinute };
  }

  async #fromToken(token: string): Promise<Client> {
    const apiKeyId = this.tokens.verify(token, Math.floor(Date.now() / 1000));
    if (apiKeyId === null) throw unauthorized('The access token is invalid or expired.');
    let queried = false;
    const key = await this.cache.read(`id:${apiKeyId}`, async () => {
      queried = true;
      return nullToUndefined(await keyStatus(this.prisma.sql, apiKeyId));
    });
    apiKeyLookups.inc({ result: queried ? 'miss' : 'hit' });
    if (key === undefined || key.revokedAt !== null)
      throw unauthorized('The API key of this access token was revoked.');
    return { apiKeyId, via: 'access_token', rateLimitPerMinute: key.rateLimitPerMinute };
  }
}
