import { secretSealer } from '@hallmark/config';
import type { SecretSealer } from '@hallmark/db';
import { SERVICE_KEYS, type ServiceKeys } from '@hallmark/runtime';
import { Inject, Injectable } from '@nestjs/common';

/**
 * Seals what a key request keeps to read back later (its status token, for the approval mail; its
 * key, from approval until collected) under the key derived from HALLMARK_SECRET for sealed
 * secrets: a copy of the database alone yields neither.
 */
@Injectable()
export class KeyRequestSecrets implements SecretSealer {
  readonly #sealer: SecretSealer;

  constructor(@Inject(SERVICE_KEYS) keys: ServiceKeys) {
    this.#sealer = secretSealer(keys.secretSealing);
  }

  seal(plaintext: string): string {
    return this.#sealer.seal(plaintext);
  }

  open(sealed: string): string {
    return this.#sealer.open(sealed);
  }
}
