import type { LinkSigner } from './link-signer.ts';
import { assertObjectKey } from './object-key.ts';

/**
 * The links every driver hands out: `{baseUrl}/storage/<key>?expires=<unix>&signature=<hmac>`,
 * served by the API. The API checks the signature, then serves the bytes (local
 * disk) or redirects to and streams into the store (S3), so a client sees one link shape
 * whatever the store, and the store's own credentials never leave the service.
 */
export class ApiLinks {
  readonly #baseUrl: string;
  readonly #signer: LinkSigner;

  constructor(options: { baseUrl: string; signer: LinkSigner }) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#signer = options.signer;
  }

  upload(key: string, expiresAt: Date): string {
    return this.#link('PUT', key, expiresAt);
  }

  download(key: string, expiresAt: Date): string {
    return this.#link('GET', key, expiresAt);
  }

  #link(method: 'GET' | 'PUT', key: string, expiresAt: Date): string {
    assertObjectKey(key);
    const expires = Math.floor(expiresAt.getTime() / 1000);
    const signature = this.#signer.sign({ method, key, expires });
    return `${this.#baseUrl}/storage/${key}?expires=${expires}&signature=${signature}`;
  }
}
