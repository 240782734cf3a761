// The C2PA signature algorithms and how node:crypto produces each one's raw signature, the
// bytes c2pa-node wraps into the COSE envelope of the manifest.
import { constants, type KeyObject, sign } from 'node:crypto';

export type SigningAlgorithm =
  | 'es256'
  | 'es384'
  | 'es512'
  | 'ps256'
  | 'ps384'
  | 'ps512'
  | 'ed25519';

export const SIGNING_ALGORITHMS: readonly SigningAlgorithm[] = [
  'es256',
  'es384',
  'es512',
  'ps256',
  'ps384',
  'ps512',
  'ed25519',
];

/** The algorithm a private key signs with by default, or undefined for an unusable key. */
export function algorithmForKey(key: KeyObject): SigningAlgorithm | undefined {
  switch (key.asymmetricKeyType) {
    case 'ec':
      return (
        { prime256v1: 'es256', secp384r1: 'es384', secp521r1: 'es512' } as const satisfies Record<
          string,
          SigningAlgorithm
        >
      )[key.asymmetricKeyDetails?.namedCurve ?? ''];
    case 'rsa':
    case 'rsa-pss':
      return 'ps256';
    case 'ed25519':
      return 'ed25519';
    default:
      return undefined;
  }
}

const DIGESTS = {
  es256: 'sha256',
  es384: 'sha384',
  es512: 'sha512',
  ps256: 'sha256',
  ps384: 'sha384',
  ps512: 'sha512',
} as const;

const DIGEST_BYTES = { sha256: 32, sha384: 48, sha512: 64 } as const;

/**
 * Signs with a key held in this process. ECDSA signatures use the fixed-size r||s form COSE
 * specifies (not DER); RSA uses PSS with a salt as long as the digest, as C2PA requires.
 * node's callback form runs the signature on the thread pool instead of the event loop.
 */
export function signWithKey(
  algorithm: SigningAlgorithm,
  key: KeyObject,
  data: Uint8Array,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, signature: Buffer) =>
      error === null ? resolve(signature) : reject(error);
    if (algorithm === 'ed25519') {
      sign(null, data, key, done);
      return;
    }
    const digest = DIGESTS[algorithm];
    if (algorithm.startsWith('es')) {
      sign(digest, data, { key, dsaEncoding: 'ieee-p1363' }, done);
      return;
    }
    const pss = {
      key,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: DIGEST_BYTES[digest],
    };
    sign(digest, data, pss, done);
  });
}
