import { randomUUID } from 'node:crypto';
import { type HallmarkConfig } from '@hallmark/config';
import { insertFile } from '@hallmark/db';
import { CONFIG, OBJECT_STORAGE, PrismaService } from '@hallmark/runtime';
import {
  MEDIA_TYPES,
  mediaTypeOf,
  problemTypes,
  type UploadLink,
  type UploadLinkRequest,
} from '@hallmark/schemas';
import { type ObjectStorage, safeFileName } from '@hallmark/storage';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { Quotas } from '../quotas/quotas.service.ts';

@Injectable()
export class UploadsService {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly prisma: PrismaService,
    private readonly quotas: Quotas,
  ) {}

  /** a file id and a signed link to PUT its bytes to, valid for a limited time. */
  async createUploadLink(apiKeyId: string, request: UploadLinkRequest): Promise<UploadLink> {
    const contentType = request.contentType.toLowerCase();
    if (mediaTypeOf(contentType) === undefined) {
      throw new ProblemException(
        problemTypes.unsupportedMediaType,
        `${request.contentType} cannot be signed or marked; accepted: ${MEDIA_TYPES.map((type) => type.mimeType).join(', ')}.`,
      );
    }
    const fileId = randomUUID();
    const storageKey = `uploads/${fileId}/${safeFileName(request.fileName)}`;
    const expiresAt = new Date(Date.now() + this.config.UPLOAD_LINK_TTL_SECONDS * 1000);
    const uploadLink = await this.storage.uploadLink(storageKey, contentType, expiresAt);
    const file = { id: fileId, apiKeyId, fileName: request.fileName, contentType, storageKey };
    // The quota is checked by the insert itself: one statement on the usual path.
    if (!(await insertFile(this.prisma.sql, file, this.quotas.storedBytesLimit))) {
      await this.quotas.assertStorageLeft(apiKeyId);
      // Usage fell in between (retention deleted something): the key has room now.
      await insertFile(this.prisma.sql, file);
    }
    return { fileId, uploadLink };
  }
}
