import { type HallmarkConfig } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PublicWhen } from '../auth/public.decorator.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { readImageBody } from './image-body.ts';
import { type SoftBindingMatches, SoftBindingService } from './soft-binding.service.ts';

/**
 * The C2PA Soft Binding Resolution API (its OpenAPI document 1.0.0), at the root as that document
 * writes it: from a soft binding (the invisible mark's payload) or from an image (the service
 * runs its own detector) to the manifests this deployment issued with it.
 */
@PublicWhen('SOFT_BINDING_API_PUBLIC')
@Controller()
export class SoftBindingController {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly softBinding: SoftBindingService,
  ) {}

  @Operation(ROUTES.getSupportedAlgorithms)
  supportedAlgorithms() {
    return this.softBinding.supportedAlgorithms();
  }

  @Operation(ROUTES.queryByBinding)
  byBinding(@Input() { query }: InputOf<'queryByBinding'>): Promise<SoftBindingMatches> {
    return this.softBinding.byBinding(query.alg, query.value, query.maxResults);
  }

  @Operation(ROUTES.queryByLargeBinding)
  byLargeBinding(
    @Input() { query, body }: InputOf<'queryByLargeBinding'>,
  ): Promise<SoftBindingMatches> {
    return this.softBinding.byBinding(body.alg, body.value, query.maxResults);
  }

  @Operation(ROUTES.queryByContent)
  byContent(
    @Req() request: FastifyRequest,
    @Input() { query }: InputOf<'queryByContent'>,
  ): Promise<SoftBindingMatches> {
    const readImage = () => readImageBody(request.body, this.config.VERIFY_SYNC_MAX_BYTES);
    return this.softBinding.byContent(readImage, query.alg, query.maxResults);
  }
}
