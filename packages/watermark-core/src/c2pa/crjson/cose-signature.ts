// The claim signature is a COSE_Sign1 (RFC 9052): [protected header bytes, unprotected header,
// payload, signature]. What the report needs of it: the algorithm, the signer's certificate chain
// (x5chain, protected in C2PA 2; older manifests put it unprotected), the RFC 3161 time-stamp
// tokens (sigTst2 in C2PA 2, sigTst before) and whether OCSP responses ride along (rVals).
import { decodeCbor, entry, Tagged } from './cbor.ts';
import { MalformedManifestStoreError } from './errors.ts';

const COSE_SIGN1_TAG = 18;
const ALG = 1;
const X5CHAIN = 33;

/** COSE algorithm identifiers, named as c2pa-rs names them in its reports. */
const ALGORITHMS: ReadonlyMap<number, string> = new Map([
  [-7, 'es256'],
  [-35, 'es384'],
  [-36, 'es512'],
  [-37, 'ps256'],
  [-38, 'ps384'],
  [-39, 'ps512'],
  [-8, 'ed25519'],
]);

export interface ClaimSignature {
  readonly algorithm: string | null;
  /** DER certificates, the signer's first. */
  readonly certificates: readonly Uint8Array[];
  /** DER TimeStampToken (RFC 3161) of each time-stamp, first one first. */
  readonly timeStampTokens: readonly Uint8Array[];
  readonly carriesOcspResponses: boolean;
}

/** Throws MalformedManifestStoreError when the bytes are not a COSE_Sign1. */
export function readClaimSignature(bytes: Uint8Array, manifest: string): ClaimSignature {
  const what = `the signature of ${manifest}`;
  const decoded = decodeCbor(bytes, what);
  const message =
    decoded instanceof Tagged && decoded.tag === COSE_SIGN1_TAG ? decoded.value : decoded;
  if (!Array.isArray(message) || message.length !== 4 || !(message[0] instanceof Uint8Array)) {
    throw new MalformedManifestStoreError(`${what} is not a COSE_Sign1 structure`);
  }
  const [protectedBytes, unprotected] = message as [Uint8Array, unknown];
  const protectedHeader =
    protectedBytes.length === 0 ? new Map() : decodeCbor(protectedBytes, `${what}'s header`);
  const alg = entry(protectedHeader, ALG);
  const chain =
    entry(protectedHeader, X5CHAIN) ??
    entry(protectedHeader, 'x5chain') ??
    entry(unprotected, 'x5chain');
  return {
    algorithm: typeof alg === 'number' ? (ALGORITHMS.get(alg) ?? null) : null,
    certificates: byteStrings(chain),
    timeStampTokens: tokensOf(entry(unprotected, 'sigTst2') ?? entry(unprotected, 'sigTst')),
    carriesOcspResponses: entry(unprotected, 'rVals') !== undefined,
  };
}

/** One certificate is a byte string; several an array of them. */
function byteStrings(value: unknown): Uint8Array[] {
  if (value instanceof Uint8Array) return [value];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is Uint8Array => item instanceof Uint8Array);
}

/** `{ tstTokens: [{ val: token }, ...] }` */
function tokensOf(container: unknown): Uint8Array[] {
  const tokens = entry(container, 'tstTokens');
  if (!Array.isArray(tokens)) return [];
  return tokens.flatMap((token) => {
    const value = entry(token, 'val');
    return value instanceof Uint8Array ? [value] : [];
  });
}
