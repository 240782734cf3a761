import type { Readable } from 'node:stream';
import { OBJECT_STORAGE, SERVICE_KEYS, type ServiceKeys } from '@hallmark/platform';
import {
  fileNameOfKey,
  IMAGE_CONTENT_TYPES,
  LinkSigner,
  LocalStorage,
  type ObjectStorage,
} from '@hallmark/storage';
import { Controller, Get, Inject, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { verifiedObjectKey } from './storage-link.ts';
import { UploadReceiver } from './upload-receiver.service.ts';

/**
 * The {storage_url} of the local driver: the signed upload (spec 4.2) and download (spec 4.5)
 * links. Authorised by the link's signature alone, hence public to the bearer guard.
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
    const storage = this.#localStorage();
    const size = await storage.size(key);
    if (size === null) throw ProblemException.notFound('No file at this link.');
    const name = fileNameOfKey(key);
    await reply
      .header('content-type', contentTypeOfName(name))
      .header('content-length', String(size))
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'private, no-store')
      .send(storage.openReadStream(key));
  }

  #localStorage(): LocalStorage {
    if (this.storage instanceof LocalStorage) return this.storage;
    throw ProblemException.notFound('This deployment stores files elsewhere.');
  }
}

function contentTypeOfName(name: string): string {
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  const match = Object.entries(IMAGE_CONTENT_TYPES).find(([, extensions]) =>
    (extensions as readonly string[]).includes(extension),
  );
  return match?.[0] ?? 'application/octet-stream';
}
