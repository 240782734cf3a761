// The roots a reader trusts: an operator's PEM bundle plus, when the service signs with its
// development identity, that identity's root, so its own output reads as trusted at home and as
// untrusted everywhere else.
import { readFile } from 'node:fs/promises';
import { parseCertificates } from './certificates.ts';
import { SignerConfigurationError } from './errors.ts';
import type { ManifestSigner } from './signers.ts';

export interface TrustAnchorSources {
  /** Path of a PEM bundle of root certificates (e.g. the C2PA trust list). */
  readonly bundlePath?: string;
  /** More such paths (a trust list and a time-stamp authorities' list). */
  readonly bundlePaths?: readonly string[];
  /** The same as text. */
  readonly bundlePem?: string;
  /** Adds the signer's own anchors (the development root when it is the development signer). */
  readonly signer?: ManifestSigner;
}

/** One PEM bundle of every configured anchor, checked to parse; undefined when there is none. */
export async function resolveTrustAnchors(
  sources: TrustAnchorSources,
): Promise<string | undefined> {
  const bundles: { pem: string; source: string }[] = [];
  const paths = [
    ...(sources.bundlePath === undefined ? [] : [sources.bundlePath]),
    ...(sources.bundlePaths ?? []),
  ];
  for (const path of paths) {
    let pem: string;
    try {
      pem = await readFile(path, 'utf8');
    } catch (error) {
      throw new SignerConfigurationError(`Cannot read the trust anchors file ${path}`, {
        cause: error,
      });
    }
    bundles.push({ pem, source: path });
  }
  if (sources.bundlePem !== undefined)
    bundles.push({ pem: sources.bundlePem, source: 'trust anchors' });
  if (sources.signer?.trustAnchorsPem !== undefined) {
    bundles.push({ pem: sources.signer.trustAnchorsPem, source: 'signer trust anchors' });
  }
  const certificates = bundles.flatMap(({ pem, source }) => parseCertificates(pem, source));
  const unique = new Map(
    certificates.map((certificate) => [certificate.fingerprint256, certificate]),
  );
  return unique.size === 0 ? undefined : [...unique.values()].map((c) => c.toString()).join('');
}
