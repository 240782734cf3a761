import { findManifestStorageKey } from '@hallmark/db';
import { OBJECT_STORAGE, PrismaService } from '@hallmark/runtime';
import type { ObjectStorage } from '@hallmark/storage';
import { activeManifestOnly } from '@hallmark/watermark-core';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';

/** The manifest stores kept when watermark jobs signed their outputs. */
@Injectable()
export class ManifestsService {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly prisma: PrismaService,
  ) {}

  /** The store of `manifestId`, or only its active manifest. */
  async read(manifestId: string, activeOnly: boolean): Promise<Uint8Array> {
    const key = await findManifestStorageKey(this.prisma.sql, manifestId);
    if (key === null) throw ProblemException.notFound(`No manifest ${manifestId}.`);
    const store = await this.storage.read(key);
    return activeOnly ? (activeManifestOnly(store) ?? store) : store;
  }
}
