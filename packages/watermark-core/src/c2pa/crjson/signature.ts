// crJSON's `signature` of a manifest: the algorithm, the signer's certificate and, when the
// signature carries an RFC 3161 time-stamp, its time and the authority's certificate. What cannot
// be decoded is left out, as the reference exporter does; c2pa-node's status codes say why.
import { type CertificateDescription, describeCertificate, rfc3339 } from './certificate-info.ts';
import type { ClaimSignature } from './cose-signature.ts';
import type { JsonObject } from './json-value.ts';
import { describeTimeStampToken } from './time-stamp-token.ts';

export interface SignatureView {
  readonly signature: JsonObject;
  /** The certificates of the signer's chain that parse, the signer's first. */
  readonly chain: readonly CertificateDescription[];
  /** The time of the first time-stamp that parses; null without one. */
  readonly timeStamp: Date | null;
}

export function readSignature(claimSignature: ClaimSignature): SignatureView {
  const chain = claimSignature.certificates.flatMap((der) => describeCertificate(der) ?? []);
  const signer = claimSignature.certificates[0];
  const signerInfo = signer === undefined ? null : describeCertificate(signer);
  const stamp = claimSignature.timeStampTokens
    .map(describeTimeStampToken)
    .find((description) => description !== null);
  const authority =
    stamp?.authorityCertificate == null ? null : describeCertificate(stamp.authorityCertificate);
  return {
    signature: {
      ...(claimSignature.algorithm === null ? {} : { algorithm: claimSignature.algorithm }),
      ...(signerInfo === null ? {} : { certificateInfo: signerInfo.info }),
      ...(stamp === undefined || authority === null
        ? {}
        : { timeStampInfo: { timestamp: rfc3339(stamp.time), certificateInfo: authority.info } }),
    },
    chain,
    timeStamp: stamp?.time ?? null,
  };
}
