import type { AdminApiKey, AdminApiKeyPage } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CurrentOperator, type Operator } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { AdminKeysService } from './admin-keys.service.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { byOperator } from './audit-actor.ts';

/** API keys for operators: listed by any; made, revoked, re-issued, given a wallet and a rate limit by admins. */
@AdminRoute()
@Controller()
export class AdminKeysController {
  constructor(private readonly keys: AdminKeysService) {}

  @Operation(ROUTES.listApiKeys)
  list(@Input() { query }: InputOf<'listApiKeys'>): Promise<AdminApiKeyPage> {
    return this.keys.list(query.cursor, query.limit);
  }

  /** The new key is in this answer only; afterwards only its prefix exists. */
  @Operation(ROUTES.createApiKey)
  create(
    @Input() { body }: InputOf<'createApiKey'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey & { apiKey: string }> {
    return this.keys.create(body.name, byOperator(operator, request));
  }

  @Operation(ROUTES.revokeApiKey)
  revoke(
    @Input() { params }: InputOf<'revokeApiKey'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey> {
    return this.keys.revoke(params.prefix, byOperator(operator, request));
  }

  /** Replaces a key its requester has not collected: the new one waits at the same link. */
  @Operation(ROUTES.reissueApiKey)
  reissue(
    @Input() { params }: InputOf<'reissueApiKey'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey> {
    return this.keys.reissue(params.prefix, byOperator(operator, request));
  }

  /** Where this key's NFTs are minted to (null: the service's custody wallet). */
  @Operation(ROUTES.setApiKeyWallet)
  setWallet(
    @Input() { params, body }: InputOf<'setApiKeyWallet'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey> {
    const who = byOperator(operator, request);
    return this.keys.set(params.prefix, body, 'api_key.set_wallet', who);
  }

  /** This key's requests per minute (null: the deployment's RATE_LIMIT_PER_MINUTE). */
  @Operation(ROUTES.setApiKeyRateLimit)
  setRateLimit(
    @Input() { params, body }: InputOf<'setApiKeyRateLimit'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminApiKey> {
    const who = byOperator(operator, request);
    return this.keys.set(params.prefix, body, 'api_key.set_rate_limit', who);
  }
}
