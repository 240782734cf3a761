// What `validationTime` may honestly say. c2pa-node 0.8.0 (c2pa-rs 0.90.1) has no setting for the
// time certificates are judged at: a signature with a trusted RFC 3161 time-stamp is judged at the
// stamp's time, any other at the clock of the machine reading it. A validation "at" another time
// is therefore reported only where it cannot differ from the one c2pa-node made: every
// certificate judged at the clock (the signer's chain and the anchor it reaches) is valid at the
// time asked for exactly when it was valid while c2pa-node read the file, and no OCSP response
// (also judged at the clock) rides along. Otherwise the report is refused, never approximated.
import { X509Certificate } from 'node:crypto';
import { commonName } from '../certificates.ts';
import type { CertificateDescription } from './certificate-info.ts';
import { ValidationTimeUnsupportedError } from './errors.ts';
import type { StatusCodes } from './validation-results.ts';

export interface SignedManifestTimes {
  readonly label: string;
  readonly codes: StatusCodes;
  /** DER certificates of the signer's chain, the signer's first. */
  readonly certificates: readonly Uint8Array[];
  readonly chain: readonly CertificateDescription[];
  readonly carriesOcspResponses: boolean;
}

/** The instants c2pa-node's reading began and ended: its clock was somewhere between. */
export interface ReadingWindow {
  readonly from: Date;
  readonly to: Date;
}

/**
 * @throws ValidationTimeUnsupportedError when c2pa-node's results could differ at `at`
 */
export function assertSameResultsAt(
  at: Date,
  reading: ReadingWindow,
  manifests: readonly SignedManifestTimes[],
  anchorsPem: string | undefined,
): void {
  const anchors = parseAnchors(anchorsPem);
  for (const manifest of manifests) {
    if (judgedAtTimeStamp(manifest.codes)) continue;
    if (manifest.carriesOcspResponses) {
      throw new ValidationTimeUnsupportedError(
        `manifest ${manifest.label} carries OCSP responses, which c2pa-node judges at the current clock; it cannot be validated at ${at.toISOString()}`,
      );
    }
    const judged = [
      ...manifest.chain.map((certificate) => ({
        name: certificate.subjectCommonName ?? 'a certificate',
        notBefore: certificate.notBefore,
        notAfter: certificate.notAfter,
      })),
      ...issuingAnchors(manifest.certificates, anchors),
    ];
    for (const certificate of judged) {
      const then = validAt(certificate, at);
      if (
        then !== validAt(certificate, reading.from) ||
        then !== validAt(certificate, reading.to)
      ) {
        const state = (valid: boolean) => (valid ? 'valid' : 'not valid');
        throw new ValidationTimeUnsupportedError(
          `${certificate.name} (manifest ${manifest.label}, valid from ${certificate.notBefore.toISOString()} to ${certificate.notAfter.toISOString()}) is ${state(then)} at ${at.toISOString()} but ${state(!then)} now; its signature has no trusted time-stamp, and c2pa-node 0.8.0 judges such a signature at the current clock, with no setting for another time`,
        );
      }
    }
  }
}

/** c2pa-rs judges the certificates at the stamp's time only when the stamp validated as trusted. */
function judgedAtTimeStamp(codes: StatusCodes): boolean {
  return codes.success.some((status) => status.code === 'timeStamp.trusted');
}

interface Validity {
  readonly name: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

function validAt(certificate: Validity, time: Date): boolean {
  return certificate.notBefore <= time && time <= certificate.notAfter;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function parseAnchors(pem: string | undefined): X509Certificate[] {
  return (pem?.match(PEM_CERTIFICATE) ?? []).flatMap((block) => {
    try {
      return [new X509Certificate(block)];
    } catch {
      return [];
    }
  });
}

/** The configured anchors that issued the last certificate of the chain the signature sends. */
function issuingAnchors(chain: readonly Uint8Array[], anchors: X509Certificate[]): Validity[] {
  const last = chain.at(-1);
  if (last === undefined) return [];
  let top: X509Certificate;
  try {
    top = new X509Certificate(last);
  } catch {
    return [];
  }
  return anchors
    .filter((anchor) => top.checkIssued(anchor) && top.verify(anchor.publicKey))
    .map((anchor) => ({
      name: commonName(anchor.subject),
      notBefore: new Date(anchor.validFrom),
      notAfter: new Date(anchor.validTo),
    }));
}
