import { type HallmarkConfig } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PublicWhen } from '../auth/public.decorator.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { ManifestsService } from './manifests.service.ts';

/**
 * `GET /manifests/{manifestId}` of the C2PA Soft Binding Resolution API: the manifest store kept
 * when the watermark job signed its output (`application/c2pa`), or its active manifest alone.
 */
@PublicWhen('SOFT_BINDING_API_PUBLIC')
@Controller()
export class ManifestsController {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly manifests: ManifestsService,
  ) {}

  @Operation(ROUTES.getManifestById)
  async get(
    @Input() { params, query }: InputOf<'getManifestById'>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const activeOnly = query.returnActiveManifest === 'true';
    const body = await this.manifests.read(params.manifestId, activeOnly);
    // A manifest never changes; a shared cache may keep it only when anyone may read it.
    const audience = this.config.SOFT_BINDING_API_PUBLIC ? 'public' : 'private';
    reply
      .header('content-type', 'application/c2pa')
      .header('cache-control', `${audience}, max-age=31536000, immutable`);
    return Buffer.from(body.buffer, body.byteOffset, body.length);
  }
}
