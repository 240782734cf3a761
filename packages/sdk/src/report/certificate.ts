// The parts of an X.509 certificate (RFC 5280) a report check needs, and the check that one
// certificate was signed by another's key, with Web Crypto alone.
import {
  bitStringBytes,
  children,
  type DerElement,
  DerError,
  expectTag,
  oidOf,
  readElement,
  TAG,
  timeOf,
} from './der.ts';

export interface Certificate {
  readonly der: Uint8Array;
  /** The serial number INTEGER as encoded: with the issuer, what a CMS signer names. */
  readonly serialNumber: Uint8Array;
  readonly tbs: Uint8Array;
  readonly signatureAlgorithm: string;
  readonly signature: Uint8Array;
  /** The issuer and subject names as encoded: chains are linked by comparing these bytes. */
  readonly issuerName: Uint8Array;
  readonly subjectName: Uint8Array;
  /** The subject for people: `CN=..., O=...`. */
  readonly subject: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly publicKey: PublicKeyInfo;
  /** basicConstraints cA: whether it may issue certificates. */
  readonly isAuthority: boolean;
  /** The extended key usages it names (OIDs); empty when it names none. */
  readonly extendedKeyUsages: readonly string[];
}

export interface PublicKeyInfo {
  readonly spki: Uint8Array;
  readonly kind: 'ec' | 'rsa';
  /** `P-256` or `P-384` for an EC key. */
  readonly curve: string | null;
}

const OIDS = {
  ecPublicKey: '1.2.840.10045.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  p256: '1.2.840.10045.3.1.7',
  p384: '1.3.132.0.34',
  basicConstraints: '2.5.29.19',
  extendedKeyUsage: '2.5.29.37',
} as const;

/** Certificate signature algorithms checked, with their Web Crypto parameters. */
const SIGNATURE_ALGORITHMS: Record<string, { kind: 'ec' | 'rsa'; hash: string }> = {
  '1.2.840.10045.4.3.2': { kind: 'ec', hash: 'SHA-256' },
  '1.2.840.10045.4.3.3': { kind: 'ec', hash: 'SHA-384' },
  '1.2.840.10045.4.3.4': { kind: 'ec', hash: 'SHA-512' },
  '1.2.840.113549.1.1.11': { kind: 'rsa', hash: 'SHA-256' },
  '1.2.840.113549.1.1.12': { kind: 'rsa', hash: 'SHA-384' },
  '1.2.840.113549.1.1.13': { kind: 'rsa', hash: 'SHA-512' },
};

const NAME_ATTRIBUTES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.6': 'C',
};

export function parseCertificate(der: Uint8Array): Certificate {
  const outer = readElement(der);
  if (outer.encoded.length !== der.length) throw new DerError('trailing bytes');
  const [tbsElement, algorithm, signature] = children(
    expectTag(outer, TAG.sequence, 'certificate'),
  );
  const tbs = expectTag(tbsElement, TAG.sequence, 'tbsCertificate');
  const fields = children(tbs);
  // An explicit [0] version comes first in v3 certificates.
  const offset = fields[0]?.tag === 0xa0 ? 1 : 0;
  const serialNumber = expectTag(fields[offset], TAG.integer, 'serialNumber');
  const issuer = expectTag(fields[offset + 2], TAG.sequence, 'issuer');
  const validity = children(expectTag(fields[offset + 3], TAG.sequence, 'validity'));
  const subject = expectTag(fields[offset + 4], TAG.sequence, 'subject');
  const spki = expectTag(fields[offset + 5], TAG.sequence, 'subjectPublicKeyInfo');
  const [notBefore, notAfter] = validity;
  if (notBefore === undefined || notAfter === undefined) throw new DerError('validity missing');
  const extensions = fields.slice(offset + 6).find((field) => field.tag === 0xa3);
  return {
    der,
    serialNumber: serialNumber.encoded,
    tbs: tbs.encoded,
    signatureAlgorithm: oidOf(children(expectTag(algorithm, TAG.sequence, 'algorithm'))[0] ?? tbs),
    signature: bitStringBytes(expectTag(signature, TAG.bitString, 'signature')),
    issuerName: issuer.encoded,
    subjectName: subject.encoded,
    subject: nameText(subject),
    notBefore: timeOf(notBefore),
    notAfter: timeOf(notAfter),
    publicKey: publicKeyOf(spki),
    isAuthority: extensionValue(extensions, OIDS.basicConstraints, isAuthority) ?? false,
    extendedKeyUsages: extensionValue(extensions, OIDS.extendedKeyUsage, usagesOf) ?? [],
  };
}

function publicKeyOf(spki: DerElement): PublicKeyInfo {
  const [algorithm] = children(spki);
  const [oid, parameters] = children(expectTag(algorithm, TAG.sequence, 'key algorithm'));
  const kind = oidOf(expectTag(oid, TAG.oid, 'key algorithm'));
  if (kind === OIDS.rsaEncryption) return { spki: spki.encoded, kind: 'rsa', curve: null };
  if (kind !== OIDS.ecPublicKey || parameters === undefined) {
    throw new DerError(`unsupported key algorithm ${kind}`);
  }
  const curveOid = oidOf(parameters);
  const curve = curveOid === OIDS.p256 ? 'P-256' : curveOid === OIDS.p384 ? 'P-384' : null;
  if (curve === null) throw new DerError(`unsupported curve ${curveOid}`);
  return { spki: spki.encoded, kind: 'ec', curve };
}

/** Reads one extension's value, when the certificate carries it. */
function extensionValue<T>(
  wrapper: DerElement | undefined,
  oid: string,
  read: (value: DerElement) => T,
): T | undefined {
  if (wrapper === undefined) return undefined;
  const [list] = children(wrapper);
  for (const extension of children(expectTag(list, TAG.sequence, 'extensions'))) {
    const parts = children(expectTag(extension, TAG.sequence, 'extension'));
    if (oidOf(parts[0] ?? extension) !== oid) continue;
    const value = expectTag(parts[parts.length - 1], TAG.octetString, 'extension value').value;
    return read(readElement(value));
  }
  return undefined;
}

function isAuthority(constraints: DerElement): boolean {
  const [cA] = children(constraints);
  return cA?.tag === TAG.boolean && cA.value[0] === 0xff;
}

function usagesOf(usages: DerElement): string[] {
  return children(usages).map(oidOf);
}

function nameText(name: DerElement): string {
  const parts: string[] = [];
  for (const relative of children(name)) {
    for (const attribute of children(relative)) {
      const [type, value] = children(attribute);
      if (type === undefined || value === undefined) continue;
      const label = NAME_ATTRIBUTES[oidOf(type)];
      if (label !== undefined) parts.push(`${label}=${new TextDecoder().decode(value.value)}`);
    }
  }
  return parts.join(', ');
}

/** Imports a certificate's key for Web Crypto verification with `hash`. */
/** Web Crypto's key type, named without a DOM or node:crypto import. */
type VerifyKey = Parameters<typeof crypto.subtle.verify>[1];

export function importPublicKey(key: PublicKeyInfo, hash: string): Promise<VerifyKey> {
  const algorithm =
    key.kind === 'ec'
      ? { name: 'ECDSA', namedCurve: key.curve ?? '' }
      : { name: 'RSASSA-PKCS1-v1_5', hash };
  return crypto.subtle.importKey('spki', key.spki, algorithm, false, ['verify']);
}

/** Whether `certificate` carries a valid signature by `issuerKey`. */
export function isSignedBy(certificate: Certificate, issuerKey: PublicKeyInfo): Promise<boolean> {
  return verifySignature(
    issuerKey,
    certificate.signatureAlgorithm,
    certificate.signature,
    certificate.tbs,
  );
}

/**
 * Whether `signature` (as X.509 and CMS write it: DER for ECDSA) by `key` covers `data`.
 * `algorithm` is the signature algorithm's OID; a bare rsaEncryption takes `digest` (SHA-256...).
 */
export async function verifySignature(
  key: PublicKeyInfo,
  algorithm: string,
  signature: Uint8Array,
  data: Uint8Array,
  digest?: string,
): Promise<boolean> {
  const known =
    SIGNATURE_ALGORITHMS[algorithm] ??
    (algorithm === OIDS.rsaEncryption && digest !== undefined
      ? { kind: 'rsa', hash: digest }
      : undefined);
  if (known === undefined || known.kind !== key.kind) return false;
  const imported = await importPublicKey(key, known.hash).catch(() => null);
  // A key Web Crypto cannot use (off its curve, say) signs nothing.
  if (imported === null) return false;
  if (known.kind === 'rsa')
    return crypto.subtle.verify('RSASSA-PKCS1-v1_5', imported, signature, data);
  const raw = ecdsaRaw(signature, key.curve === 'P-384' ? 48 : 32);
  if (raw === null) return false;
  return crypto.subtle.verify({ name: 'ECDSA', hash: known.hash }, imported, raw, data);
}

/** An X.509 ECDSA signature (DER SEQUENCE of r, s) as Web Crypto's r || s. */
function ecdsaRaw(signature: Uint8Array, size: number): Uint8Array | null {
  try {
    // Strict DER: one SEQUENCE of exactly two minimal INTEGERs and nothing after, so no other
    // bytes decode to the same signature.
    const sequence = expectTag(readElement(signature), TAG.sequence, 'ECDSA signature');
    const integers = children(sequence);
    if (sequence.encoded.length !== signature.length || integers.length !== 2) return null;
    const raw = new Uint8Array(size * 2);
    for (const [index, integer] of integers.entries()) {
      const value = expectTag(integer, TAG.integer, 'integer').value;
      const minimal =
        value.length > 0 &&
        (value.length === 1 || value[0] !== 0 || ((value[1] as number) & 0x80) !== 0) &&
        ((value[0] as number) & 0x80) === 0;
      if (!minimal) return null;
      const trimmed = value.subarray(Math.max(0, value.length - size));
      if (value.subarray(0, value.length - trimmed.length).some((byte) => byte !== 0)) return null;
      raw.set(trimmed, index * size + size - trimmed.length);
    }
    return raw;
  } catch {
    return null;
  }
}
