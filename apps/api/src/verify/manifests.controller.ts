import { findManifestStorageKey } from '@hallmark/db';
import { CONFIG, type HallmarkConfig, OBJECT_STORAGE, PrismaService } from '@hallmark/platform';
import { problemTypes } from '@hallmark/schemas';
import type { ObjectStorage } from '@hallmark/storage';
import { activeManifestOnly } from '@hallmark/watermark-core';
import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PublicWhen } from '../auth/public.decorator.ts';
import { ProblemException } from '../problem/problem.exception.ts';

/** `urn:c2pa:<uuid>`, optionally with a claim generator and version suffix (C2PA 2.x). */
const MANIFEST_ID = /^urn:(c2pa|uuid):[0-9a-fA-F-]{36}(:[A-Za-z0-9._:-]{1,200})?$/;

/**
 * `GET /manifests/{manifestId}` of the C2PA Soft Binding Resolution API: the manifest store kept
 * when the watermark job signed its output (`application/c2pa`), or its active manifest alone.
 */
@PublicWhen('SOFT_BINDING_API_PUBLIC')
@Controller('manifests')
export class ManifestsController {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly prisma: PrismaService,
  ) {}

  @Get(':manifestId')
  async get(
    @Param('manifestId') manifestId: string,
    @Query('returnActiveManifest') returnActiveManifest: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    if (!MANIFEST_ID.test(manifestId)) {
      throw new ProblemException(
        problemTypes.validationError,
        'A manifest id looks like urn:c2pa:<uuid>.',
        [{ path: 'manifestId', message: 'Expected urn:c2pa:<uuid>' }],
      );
    }
    if (returnActiveManifest !== undefined && !['true', 'false'].includes(returnActiveManifest)) {
      throw new ProblemException(
        problemTypes.validationError,
        'returnActiveManifest is true or false.',
        [{ path: 'returnActiveManifest', message: 'Expected true or false' }],
      );
    }
    const key = await findManifestStorageKey(this.prisma.sql, manifestId);
    if (key === null) throw ProblemException.notFound(`No manifest ${manifestId}.`);
    const store = await this.storage.read(key);
    const body = returnActiveManifest === 'true' ? (activeManifestOnly(store) ?? store) : store;
    // A manifest never changes; a shared cache may keep it only when anyone may read it.
    const audience = this.config.SOFT_BINDING_API_PUBLIC ? 'public' : 'private';
    reply
      .header('content-type', 'application/c2pa')
      .header('cache-control', `${audience}, max-age=31536000, immutable`);
    return Buffer.from(body.buffer, body.byteOffset, body.length);
  }
}
