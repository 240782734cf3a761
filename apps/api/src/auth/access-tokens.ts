import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

const PREFIX = 'hmat_';

interface TokenClaims {
  /** The API key the token speaks for. */
  k: string;
  /** Expiry, unix seconds. */
  e: number;
}

/**
 * Short-lived access tokens: `hmat_<claims>.<hmac>`, stateless so any API instance can check
 * them with the shared secret. The key's revocation is checked on every use by the
 * authenticator, so revoking a key ends its tokens at once.
 */
export class AccessTokens {
  /** A KeyObject: an HMAC from it costs ~4 us, from the raw bytes ~19 us (measured here). */
  readonly #key: KeyObject;
  readonly #ttlSeconds: number;

  constructor(key: Uint8Array, ttlSeconds: number) {
    this.#key = createSecretKey(key);
    this.#ttlSeconds = ttlSeconds;
  }

  static looksLikeToken(bearer: string): boolean {
    return bearer.startsWith(PREFIX);
  }

  mint(
    apiKeyId: string,
    nowSeconds: number,
  ): { token: string; expiresAt: number; expiresIn: number } {
    const expiresAt = nowSeconds + this.#ttlSeconds;
    const claims = Buffer.from(JSON.stringify({ k: apiKeyId, e: expiresAt } satisfies TokenClaims));
    const body = claims.toString('base64url');
    return {
      token: `${PREFIX}${body}.${this.#sign(body)}`,
      expiresAt,
      expiresIn: this.#ttlSeconds,
    };
  }

  /** The API key id of a genuine, unexpired token; null otherwise. */
  verify(token: string, nowSeconds: number): string | null {
    if (!token.startsWith(PREFIX)) return null;
    const [body, signature, ...rest] = token.slice(PREFIX.length).split('.');
    if (body === undefined || signature === undefined || rest.length > 0) return null;
    const expected = Buffer.from(this.#sign(body));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: Partial<TokenClaims>;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<TokenClaims>;
    } catch {
      return null;
    }
    if (typeof claims.k !== 'string' || typeof claims.e !== 'number') return null;
    return nowSeconds < claims.e ? claims.k : null;
  }

  #sign(body: string): string {
    return createHmac('sha256', this.#key).update(`access-token\n${body}`).digest('base64url');
  }
}
