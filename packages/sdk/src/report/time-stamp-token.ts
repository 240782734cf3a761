// Reads and checks an RFC 3161 time-stamp token (a CMS SignedData over a TSTInfo): that its
// signer signed it, that it stamps the given bytes, and when. Whether the authority is trusted
// is the chain check's business (check-report.ts), as for the report's own signer.
import { type Certificate, isSignedBy, parseCertificate, verifySignature } from './certificate.ts';
import {
  children,
  type DerElement,
  expectTag,
  oidOf,
  readElement,
  sameBytes,
  TAG,
  timeOf,
} from './der.ts';

export interface TimeStamp {
  /** When the authority says it saw the stamped bytes. */
  readonly time: Date;
  /** The certificate whose key signed the token, and the others the token carries. */
  readonly signer: Certificate;
  readonly certificates: readonly Certificate[];
}

export class TimeStampError extends Error {
  override readonly name = 'TimeStampError';
}

const OIDS = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  timeStamping: '1.3.6.1.5.5.7.3.8',
} as const;

const DIGESTS: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
};

/**
 * @param stamped the bytes the token must stamp (a report's signature)
 * @throws TimeStampError when the token does not parse, is not signed by a certificate it
 *   carries, or stamps other bytes
 */
export async function checkTimeStampToken(
  token: Uint8Array,
  stamped: Uint8Array,
): Promise<TimeStamp> {
  try {
    return await readToken(token, stamped);
  } catch (error) {
    if (error instanceof TimeStampError) throw error;
    throw new TimeStampError(`time-stamp token does not parse (${(error as Error).message})`);
  }
}

async function readToken(token: Uint8Array, stamped: Uint8Array): Promise<TimeStamp> {
  const contentInfo = readElement(token);
  if (contentInfo.encoded.length !== token.length)
    throw new TimeStampError('trailing bytes after the token');
  const [type, wrapped] = children(expectTag(contentInfo, TAG.sequence, 'ContentInfo'));
  if (oidOf(expectTag(type, TAG.oid, 'content type')) !== OIDS.signedData) {
    throw new TimeStampError('the token is not CMS SignedData');
  }
  const [signedData] = children(expectTag(wrapped, 0xa0, 'content'));
  const fields = children(expectTag(signedData, TAG.sequence, 'SignedData'));
  // Every byte of the token must matter: what its signature does not cover is held to the one
  // value RFC 3161 and RFC 5652 allow, or checked below (certificates, the signer's name).
  expectInteger(fields[0], 3, 'SignedData version');
  const encapsulated = children(expectTag(fields[2], TAG.sequence, 'encapContentInfo'));
  if (oidOf(expectTag(encapsulated[0], TAG.oid, 'eContentType')) !== OIDS.tstInfo) {
    throw new TimeStampError('the token holds no TSTInfo');
  }
  const [content] = children(expectTag(encapsulated[1], 0xa0, 'eContent'));
  const tstInfo = expectTag(content, TAG.octetString, 'TSTInfo').value;
  const certificates = fields
    .filter((field) => field.tag === 0xa0)
    .flatMap((field) =>
      children(field).map((certificate) => parseCertificate(certificate.encoded)),
    );
  const signerInfos = children(expectTag(fields[fields.length - 1], TAG.set, 'signerInfos'));
  if (signerInfos.length !== 1)
    throw new TimeStampError('a time-stamp token has exactly one signer');
  const signer = await signerOf(signerInfos[0] as DerElement, tstInfo, certificates);
  // digestAlgorithms names the signer's digest alone, byte for byte.
  const digests = children(expectTag(fields[1], TAG.set, 'digestAlgorithms'));
  const signerDigest = children(signerInfos[0] as DerElement)[2];
  if (
    digests.length !== 1 ||
    !sameBytes(digests[0]?.encoded ?? token, signerDigest?.encoded ?? token)
  ) {
    throw new TimeStampError("digestAlgorithms does not name the signer's digest alone");
  }
  for (const certificate of certificates) {
    const issuers = certificates.filter((candidate) =>
      sameBytes(candidate.subjectName, certificate.issuerName),
    );
    let signed = false;
    for (const issuer of issuers) signed ||= await isSignedBy(certificate, issuer.publicKey);
    if (!signed)
      throw new TimeStampError(`${certificate.subject} in the token is not signed by its issuer`);
  }
  return { time: await stampedTime(tstInfo, stamped), signer, certificates };
}

function expectInteger(element: DerElement | undefined, value: number, what: string): void {
  const bytes = expectTag(element, TAG.integer, what).value;
  if (bytes.length !== 1 || bytes[0] !== value) throw new TimeStampError(`${what} is not ${value}`);
}

/** The certificate whose key signed the signed attributes, which bind the TSTInfo's digest. */
async function signerOf(
  signerInfo: DerElement,
  tstInfo: Uint8Array,
  certificates: readonly Certificate[],
): Promise<Certificate> {
  const parts = children(expectTag(signerInfo, TAG.sequence, 'SignerInfo'));
  expectInteger(parts[0], 1, 'SignerInfo version');
  const [issuerName, serialNumber] = children(
    expectTag(parts[1], TAG.sequence, 'issuerAndSerialNumber'),
  );
  const [digestAlgorithm, ...parameters] = children(
    expectTag(parts[2], TAG.sequence, 'digestAlgorithm'),
  );
  // Absent or NULL parameters (RFC 5754 section 2): nothing else may sit there unchecked.
  if (
    parameters.length > 1 ||
    (parameters[0] !== undefined && (parameters[0].tag !== 0x05 || parameters[0].value.length > 0))
  ) {
    throw new TimeStampError('unexpected digest parameters');
  }
  const digest = DIGESTS[oidOf(expectTag(digestAlgorithm, TAG.oid, 'digest algorithm'))];
  if (digest === undefined) throw new TimeStampError('unsupported digest in the token');
  const attributes = expectTag(parts[3], 0xa0, 'signed attributes');
  const [algorithm] = children(expectTag(parts[4], TAG.sequence, 'signatureAlgorithm'));
  const signature = expectTag(parts[5], TAG.octetString, 'signature').value;

  const values = new Map<string, DerElement | undefined>();
  for (const attribute of children(attributes)) {
    const [oid, set] = children(expectTag(attribute, TAG.sequence, 'attribute'));
    values.set(
      oidOf(expectTag(oid, TAG.oid, 'attribute type')),
      children(expectTag(set, TAG.set, 'attribute values'))[0],
    );
  }
  const contentType = values.get(OIDS.contentType);
  if (contentType === undefined || oidOf(contentType) !== OIDS.tstInfo) {
    throw new TimeStampError('the signed attributes do not name a TSTInfo');
  }
  const messageDigest = expectTag(values.get(OIDS.messageDigest), TAG.octetString, 'messageDigest');
  const actual = new Uint8Array(await crypto.subtle.digest(digest, tstInfo));
  if (!sameBytes(actual, messageDigest.value))
    throw new TimeStampError('the TSTInfo does not match its digest');

  // The signature covers the attributes as a SET (RFC 5652 section 5.4), not as the [0] they are sent in.
  const signed = Uint8Array.from(attributes.encoded);
  signed[0] = TAG.set;
  const algorithmOid = oidOf(expectTag(algorithm, TAG.oid, 'signature algorithm'));
  const named = certificates.filter(
    (certificate) =>
      sameBytes(certificate.issuerName, issuerName?.encoded ?? new Uint8Array()) &&
      sameBytes(certificate.serialNumber, serialNumber?.encoded ?? new Uint8Array()),
  );
  if (parts.length !== 6) throw new TimeStampError('unexpected members in the SignerInfo');
  for (const certificate of named) {
    if (await verifySignature(certificate.publicKey, algorithmOid, signature, signed, digest)) {
      if (!certificate.extendedKeyUsages.includes(OIDS.timeStamping)) {
        throw new TimeStampError(`${certificate.subject} is not a time-stamping certificate`);
      }
      return certificate;
    }
  }
  throw new TimeStampError('the certificate the token names did not sign it');
}

/** Checks the TSTInfo stamps `stamped` (its message imprint) and reads its time. */
async function stampedTime(tstInfo: Uint8Array, stamped: Uint8Array): Promise<Date> {
  const fields = children(expectTag(readElement(tstInfo), TAG.sequence, 'TSTInfo'));
  const [algorithm, hashed] = children(expectTag(fields[2], TAG.sequence, 'messageImprint'));
  const [oid] = children(expectTag(algorithm, TAG.sequence, 'imprint algorithm'));
  const digest = DIGESTS[oidOf(expectTag(oid, TAG.oid, 'imprint algorithm'))];
  if (digest === undefined) throw new TimeStampError('unsupported imprint digest');
  const expected = new Uint8Array(await crypto.subtle.digest(digest, stamped));
  if (!sameBytes(expected, expectTag(hashed, TAG.octetString, 'hashedMessage').value)) {
    throw new TimeStampError('the time-stamp is for other bytes than this signature');
  }
  return timeOf(expectTag(fields[4], TAG.generalizedTime, 'genTime'));
}
