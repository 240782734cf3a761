// Asks an RFC 3161 time-stamp authority to stamp a report's signature: the token then proves the
// report existed at that time, so it keeps checking after the report key's certificate expires.
import { createHash, randomBytes } from 'node:crypto';
import type { SignedVerificationReport } from '@hallmark/schemas';
import * as asn1js from 'asn1js';

/** The authority did not answer, or refused: nothing was signed without the time asked for. */
export class TimeStampUnavailableError extends Error {
  override readonly name = 'TimeStampUnavailableError';
}

/** id-sha256 (RFC 5754): the digest of the stamped signature. */
const SHA256_OID = '2.16.840.1.101.3.4.2.1';

export async function timeStampReport(
  report: SignedVerificationReport,
  tsaUrl: string,
  signal: AbortSignal,
): Promise<SignedVerificationReport> {
  const signature = Buffer.from(report.signature, 'base64url');
  let response: Response;
  try {
    response = await fetch(tsaUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: timeStampRequest(createHash('sha256').update(signature).digest()),
      signal,
    });
  } catch (error) {
    throw new TimeStampUnavailableError(
      `the time-stamp authority did not answer: ${(error as Error).message}`,
    );
  }
  if (!response.ok) {
    throw new TimeStampUnavailableError(
      `the time-stamp authority answered HTTP ${response.status}`,
    );
  }
  const token = tokenOf(new Uint8Array(await response.arrayBuffer()));
  return { ...report, header: { tst: Buffer.from(token).toString('base64') } };
}

/** A TimeStampReq (RFC 3161 section 2.4.1) for a SHA-256 digest, asking for the certificate. */
function timeStampRequest(digest: Buffer): Uint8Array {
  const nonce = randomBytes(8);
  // A positive INTEGER in its shortest form: top bit clear, first byte not zero.
  nonce[0] = ((nonce[0] ?? 0) & 0x7f) | 0x01;
  const request = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 1 }),
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: [new asn1js.ObjectIdentifier({ value: SHA256_OID }), new asn1js.Null()],
          }),
          new asn1js.OctetString({ valueHex: digest }),
        ],
      }),
      new asn1js.Integer({ valueHex: nonce }),
      new asn1js.Boolean({ value: true }),
    ],
  });
  return new Uint8Array(request.toBER());
}

/** The token of a TimeStampResp whose status grants it (0, or 1 with modifications). */
function tokenOf(body: Uint8Array): ArrayBuffer {
  const parsed = asn1js.fromBER(body);
  const response = parsed.result;
  if (parsed.offset === -1 || !(response instanceof asn1js.Sequence)) {
    throw new TimeStampUnavailableError(
      'the time-stamp authority answered something else than a TimeStampResp',
    );
  }
  const [statusInfo, token] = response.valueBlock.value;
  const status = statusInfo instanceof asn1js.Sequence ? statusInfo.valueBlock.value[0] : undefined;
  const granted = status instanceof asn1js.Integer ? status.valueBlock.valueDec : -1;
  if ((granted !== 0 && granted !== 1) || token === undefined) {
    throw new TimeStampUnavailableError(`the time-stamp authority refused (status ${granted})`);
  }
  return token.toBER();
}
