// Signs a statement as a JWS in the flattened JSON serialization (RFC 7515 section 7.2.2): plain
// JOSE, so anyone can check a report with a library of their choice, not only with Hallmark's.
import { createPublicKey, sign } from 'node:crypto';
import {
  REPORT_JWS_TYPE,
  type ReportKey,
  type SignedVerificationReport,
  type VerificationStatement,
} from '@hallmark/schemas';
import { HASH_OF, type ReportSigningKey } from './report-key.ts';

export function signStatement(
  statement: VerificationStatement,
  key: ReportSigningKey,
): SignedVerificationReport {
  const header = {
    alg: key.algorithm,
    typ: REPORT_JWS_TYPE,
    kid: key.keyId,
    x5c: key.chain.map((der) => der.toString('base64')),
  };
  const protectedHeader = base64url(JSON.stringify(header));
  const payload = base64url(JSON.stringify(statement));
  // ES256/ES384 signatures are r || s of fixed length (RFC 7518 section 3.4), not DER.
  const signature = sign(HASH_OF[key.algorithm], Buffer.from(`${protectedHeader}.${payload}`), {
    key: key.privateKey,
    dsaEncoding: 'ieee-p1363',
  });
  return { payload, protected: protectedHeader, signature: signature.toString('base64url') };
}

/**
 * The report's bytes: no whitespace and the members in this order, so a checker can insist on
 * exactly this form and refuse any change of a byte, even one JSON would read the same.
 */
export function serialiseReport(report: SignedVerificationReport): string {
  return JSON.stringify({
    payload: report.payload,
    protected: report.protected,
    ...(report.header === undefined ? {} : { header: { tst: report.header.tst } }),
    signature: report.signature,
  });
}

/** The key as published in `/.well-known/hallmark-report-keys`. */
export function reportKeyJwk(key: ReportSigningKey): ReportKey {
  const jwk = createPublicKey(key.privateKey).export({ format: 'jwk' });
  return {
    kty: 'EC',
    crv: key.algorithm === 'ES256' ? 'P-256' : 'P-384',
    x: jwk.x ?? '',
    y: jwk.y ?? '',
    kid: key.keyId,
    use: 'sig',
    alg: key.algorithm,
    x5c: key.chain.map((der) => der.toString('base64')),
    development: key.development,
  };
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
