import type { Readable } from 'node:stream';
import { OBJECT_STORAGE, SERVICE_KEYS, type ServiceKeys } from '@hallmark/runtime';
import { MEDIA_TYPES } from '@hallmark/schemas';
import { fileNameOfKey, LinkSigner, type ObjectStorage } from '@hallmark/storage';
import { Controller, Get, Inject, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { verifiedObjectKey } from './storage-link.ts';
import { UploadReceiver } from './upload-receiver.service.ts';

/**
 * The {storage_url}: the signed upload and download links, whatever the
 * store behind them. Authorised by the link's signature alone, hence public to the bearer guard
 * (and limited per address).
 */
@Public()
@Controller('storage')
export class StorageController {
  readonly #signer: LinkSigner;

  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(SERVICE_KEYS) keys: ServiceKeys,
    private readonly receiver: UploadReceiver,
  ) {
    this.#signer = new LinkSigner(keys.linkSigning);
  }

  @Put('*')
  async upload(@Req() request: FastifyRequest) {
    const key = verifiedObjectKey(request, 'PUT', this.#signer);
    return this.receiver.receive(key, request.headers['content-type'], request.body as Readable);
  }

  @Get('*')
  async download(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const key = verifiedObjectKey(request, 'GET', this.#signer);
    const name = fileNameOfKey(key);
    const download = await this.storage.download(key, contentTypeOfName(name));
    if (download === null) throw ProblemException.notFound('No file at this link.');
    reply.header('cache-control', 'private, no-store');
    if (download.kind === 'redirect') {
      // The store's own short-lived link; the client's link stays the API's.
      await reply.redirect(download.url, 302);
      return;
    }
    await reply
      .header('content-type', contentTypeOfName(name))
      .header('content-length', String(download.sizeBytes))
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(download.stream);
  }
}

function contentTypeOfName(name: string): string {
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  const match = MEDIA_TYPES.find((type) => type.extensions.includes(extension));
  return match?.mimeType ?? 'application/octet-stream';
}
