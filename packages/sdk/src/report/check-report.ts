// Checks a signed verification report offline: the JWS signature, the signer's certificate chain
// against the roots the caller trusts, and, given the file, that it is the file the report is
// about. Web Crypto only: it runs wherever the SDK does, and needs nothing from the service.
import type { components } from '../generated/openapi.ts';
import { decodeBase64, decodeBase64Url, pemCertificates } from './base64.ts';
import { type Certificate, importPublicKey, isSignedBy, parseCertificate } from './certificate.ts';
import { sameBytes } from './der.ts';
import { checkTimeStampToken, type TimeStamp, TimeStampError } from './time-stamp-token.ts';

export const REPORT_FORMAT = 'hallmark-verification-report/1';

type Schemas = components['schemas'];

/**
 * What a signed report states: the JSON its payload decodes to (`VerificationStatement` in the
 * service's schemas, which a test holds this type equal to).
 */
export interface VerificationStatement {
  readonly format: typeof REPORT_FORMAT;
  readonly verificationId: string;
  /** When the verification finished. */
  readonly verifiedAt: string;
  /** When the report was signed, by the service's clock. */
  readonly issuedAt: string;
  /** The file the verdict is about: its SHA-256 (hex) and size. */
  readonly file: { readonly sha256: string; readonly size: number };
  readonly verdict: Schemas['Verdict'];
  readonly reasons: Schemas['VerificationReason'][];
  readonly invisible: Schemas['InvisibleFinding'];
  readonly c2pa: Schemas['C2paFinding'];
  readonly content: Schemas['ContentFinding'];
  /** The published record, never with `requestId` or `fileId`. */
  readonly record: Schemas['PublishedRecord'] | null;
  readonly service: { readonly name: string; readonly url: string; readonly version: string };
  /** `development`: signed by the development identity, to be trusted nowhere else. */
  readonly reportKey: { readonly development: boolean };
}
const REPORT_JWS_TYPE = 'hallmark-verification-report+jws';
const MAX_CHAIN = 8;

/** Why a report was refused; `code` is stable, the message says what was seen. */
export type ReportProblem =
  | 'malformed'
  | 'bad_signature'
  | 'untrusted_signer'
  | 'certificate_expired'
  | 'bad_time_stamp'
  | 'file_mismatch';

export class ReportCheckError extends Error {
  override readonly name = 'ReportCheckError';
  constructor(
    readonly code: ReportProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface CheckReportOptions {
  /** PEM text of the roots to trust (one or more `CERTIFICATE` blocks). */
  readonly trustAnchors: string;
  /** The file the report should be about: its digest and size must match. */
  readonly file?: Uint8Array;
  /**
   * PEM roots of the time-stamp authorities to trust. A report's time-stamp is always checked
   * for integrity; only one from an authority chaining to these roots fixes the time at which
   * the certificates must be valid (so a report outlives its signing certificate).
   */
  readonly timeStampAnchors?: string;
  /**
   * The present, for a report without a trusted time-stamp, whose certificates must be valid
   * now (by default the clock's). A trusted time-stamp's time is used instead, always.
   */
  readonly at?: Date;
}

export interface CheckedReport {
  readonly statement: VerificationStatement;
  /** The signing certificate's subject, e.g. `CN=Hallmark reports, O=Example`. */
  readonly signer: string;
  readonly keyId: string;
  /** The file given was checked against the report's digest. */
  readonly fileChecked: boolean;
  /** The RFC 3161 time-stamp of the signature, when the report carries one. */
  readonly timeStamp: {
    readonly time: string;
    readonly authority: string;
    /** Its authority chains to `timeStampAnchors`. */
    readonly trusted: boolean;
  } | null;
}

/**
 * @throws ReportCheckError when any check fails; a report is only ever accepted whole.
 */
export async function checkReport(
  report: string | Uint8Array,
  options: CheckReportOptions,
): Promise<CheckedReport> {
  const text =
    typeof report === 'string' ? report : new TextDecoder('utf-8', { fatal: true }).decode(report);
  const jws = parseSerialisation(text);
  const header = parseHeader(jws.protected);
  const chain = header.x5c.map((der) => {
    try {
      return parseCertificate(der);
    } catch (error) {
      throw malformed(`a certificate in x5c does not parse (${(error as Error).message})`);
    }
  });
  const signer = chain[0] as Certificate;
  const expected = header.alg === 'ES256' ? 'P-256' : 'P-384';
  if (signer.publicKey.kind !== 'ec' || signer.publicKey.curve !== expected) {
    throw new ReportCheckError('bad_signature', `${header.alg} needs a ${expected} signing key`);
  }
  const hash = header.alg === 'ES256' ? 'SHA-256' : 'SHA-384';
  const key = await importPublicKey(signer.publicKey, hash).catch(() => {
    throw new ReportCheckError('bad_signature', "the signing certificate's key is not usable");
  });
  const signed = new TextEncoder().encode(`${jws.protected}.${jws.payload}`);
  const valid = await crypto.subtle.verify({ name: 'ECDSA', hash }, key, jws.signature, signed);
  if (!valid)
    throw new ReportCheckError('bad_signature', 'the signature does not match the report');

  const statement = parseStatement(jws.payloadBytes);
  const timeStamp = jws.timeStampToken === null ? null : await checkStamp(jws, options);
  // A trusted time-stamp proves when the report was signed: its certificates need only have been
  // valid then. Without one, the report's own `issuedAt` proves nothing, so they must be valid now.
  const at = timeStamp?.trusted === true ? new Date(timeStamp.time) : (options.at ?? new Date());
  await checkChain(chain, pemCertificates(options.trustAnchors).map(anchorOf), at);
  const fileChecked = options.file !== undefined;
  if (options.file !== undefined) await checkFile(options.file, statement);
  return { statement, signer: signer.subject, keyId: header.kid, fileChecked, timeStamp };
}

async function checkStamp(
  jws: Serialisation,
  options: CheckReportOptions,
): Promise<CheckedReport['timeStamp']> {
  let stamp: TimeStamp;
  try {
    stamp = await checkTimeStampToken(jws.timeStampToken as Uint8Array, jws.signature);
  } catch (error) {
    if (!(error instanceof TimeStampError)) throw error;
    throw new ReportCheckError('bad_time_stamp', error.message);
  }
  const anchors = pemCertificates(options.timeStampAnchors ?? '').map(anchorOf);
  const trusted =
    anchors.length > 0 &&
    (await checkChain([stamp.signer, ...stamp.certificates], anchors, stamp.time).then(
      () => true,
      () => false,
    ));
  return { time: stamp.time.toISOString(), authority: stamp.signer.subject, trusted };
}

interface Serialisation {
  readonly payload: string;
  readonly payloadBytes: Uint8Array;
  readonly protected: string;
  readonly signature: Uint8Array;
  /** DER of the RFC 3161 token in the unprotected header, when the report carries one. */
  readonly timeStampToken: Uint8Array | null;
}

/**
 * Only the exact form the service writes is read (no whitespace, these members in this order,
 * an optional final newline): then a report cannot change by a byte and still be accepted.
 */
function parseSerialisation(text: string): Serialisation {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw malformed('not JSON');
  }
  const record = (parsed ?? {}) as Record<string, unknown>;
  const { payload, protected: header, header: unprotected, signature } = record;
  if (typeof payload !== 'string' || typeof header !== 'string' || typeof signature !== 'string') {
    throw malformed('expected the members payload, protected and signature');
  }
  const tst = (unprotected as { tst?: unknown } | undefined)?.tst;
  const canonical = JSON.stringify({
    payload,
    protected: header,
    ...(unprotected === undefined ? {} : { header: { tst } }),
    signature,
  });
  if (canonical !== body) {
    throw malformed('not in the exact form the service writes (members, order, whitespace)');
  }
  const payloadBytes = decodeBase64Url(payload);
  const signatureBytes = decodeBase64Url(signature);
  if (payloadBytes === null || signatureBytes === null) throw malformed('bad base64url');
  const timeStampToken = typeof tst === 'string' ? decodeBase64(tst) : null;
  if (unprotected !== undefined && timeStampToken === null) throw malformed('bad time-stamp token');
  return { payload, payloadBytes, protected: header, signature: signatureBytes, timeStampToken };
}

interface ProtectedHeader {
  readonly alg: 'ES256' | 'ES384';
  readonly kid: string;
  readonly x5c: Uint8Array[];
}

function parseHeader(encoded: string): ProtectedHeader {
  const bytes = decodeBase64Url(encoded);
  const header = bytes === null ? null : (parseJson(bytes) as Record<string, unknown> | null);
  if (header === null || typeof header !== 'object') throw malformed('bad protected header');
  const { alg, typ, kid, x5c, ...rest } = header;
  // An unknown header member could be a critical one (RFC 7515 section 4.1.11): refuse it.
  if (Object.keys(rest).length > 0)
    throw malformed(`unexpected header members ${Object.keys(rest).join(', ')}`);
  if (alg !== 'ES256' && alg !== 'ES384') throw malformed(`unsupported alg ${String(alg)}`);
  if (typ !== REPORT_JWS_TYPE) throw malformed(`typ is not ${REPORT_JWS_TYPE}`);
  if (typeof kid !== 'string') throw malformed('kid missing');
  if (!Array.isArray(x5c) || x5c.length === 0 || x5c.length > MAX_CHAIN) {
    throw malformed('x5c must hold the certificate chain');
  }
  const chain = x5c.map((item) => (typeof item === 'string' ? decodeBase64(item) : null));
  if (chain.some((der) => der === null)) throw malformed('x5c holds bad base64');
  return { alg, kid, x5c: chain as Uint8Array[] };
}

function parseStatement(bytes: Uint8Array): VerificationStatement {
  const statement = parseJson(bytes) as VerificationStatement | null;
  if (statement === null || typeof statement !== 'object') throw malformed('payload is not JSON');
  if (statement.format !== REPORT_FORMAT) throw malformed(`payload format is not ${REPORT_FORMAT}`);
  if (
    !/^[0-9a-f]{64}$/.test(statement.file?.sha256 ?? '') ||
    !Number.isInteger(statement.file?.size)
  ) {
    throw malformed('payload does not name its file');
  }
  if (Number.isNaN(Date.parse(statement.issuedAt))) throw malformed('payload has no issuedAt');
  return statement;
}

function anchorOf(der: Uint8Array): Certificate {
  try {
    return parseCertificate(der);
  } catch (error) {
    throw new ReportCheckError(
      'untrusted_signer',
      `a trust anchor does not parse (${(error as Error).message})`,
    );
  }
}

/**
 * A path must run from the first certificate to a given root: each one signed by the next (an
 * authority found among the chain and the roots by its name), every one valid at `at`.
 */
async function checkChain(chain: Certificate[], anchors: Certificate[], at: Date): Promise<void> {
  if (anchors.length === 0)
    throw new ReportCheckError('untrusted_signer', 'no trust anchors given');
  let current = chain[0] as Certificate;
  for (let step = 0; step <= MAX_CHAIN; step += 1) {
    checkValidity(current, at);
    if (anchors.some((anchor) => sameBytes(anchor.der, current.der))) return;
    // Roots first: a certificate a root signed ends the path there.
    const candidates = [...anchors, ...chain].filter(
      (candidate) =>
        candidate !== current &&
        candidate.isAuthority &&
        sameBytes(candidate.subjectName, current.issuerName),
    );
    let issuer: Certificate | undefined;
    for (const candidate of candidates) {
      if (await isSignedBy(current, candidate.publicKey)) {
        issuer = candidate;
        break;
      }
    }
    if (issuer === undefined) {
      throw new ReportCheckError(
        'untrusted_signer',
        `${current.subject} does not chain to a trusted root`,
      );
    }
    if (anchors.includes(issuer)) {
      checkValidity(issuer, at);
      return;
    }
    current = issuer;
  }
  throw new ReportCheckError('untrusted_signer', 'the certificate chain is too long');
}

function checkValidity(certificate: Certificate, at: Date): void {
  if (at < certificate.notBefore || at > certificate.notAfter) {
    throw new ReportCheckError(
      'certificate_expired',
      `${certificate.subject} is valid from ${certificate.notBefore.toISOString()} to ${certificate.notAfter.toISOString()}, not at ${at.toISOString()}`,
    );
  }
}

async function checkFile(file: Uint8Array, statement: VerificationStatement): Promise<void> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', file));
  const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
  if (hex !== statement.file.sha256 || file.length !== statement.file.size) {
    throw new ReportCheckError(
      'file_mismatch',
      `the report is about another file (SHA-256 ${statement.file.sha256}, ${statement.file.size} bytes)`,
    );
  }
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}

function malformed(message: string): ReportCheckError {
  return new ReportCheckError('malformed', `malformed report: ${message}`);
}
