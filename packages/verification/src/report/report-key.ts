// The key verification reports are signed with: the operator's (REPORT_SIGNING_KEY_PATH with its
// chain) or, by default, the development identity, which every report then names as such.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  randomBytes,
  sign,
  verify,
  X509Certificate,
} from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadOrCreateDevelopmentIdentity } from '@hallmark/watermark-core';

export type ReportAlgorithm = 'ES256' | 'ES384';

export interface ReportSigningKey {
  readonly privateKey: KeyObject;
  /** The certificate chain, signer first, DER. */
  readonly chain: readonly Buffer[];
  readonly algorithm: ReportAlgorithm;
  /** RFC 7638 thumbprint of the public key: the JWS `kid`. */
  readonly keyId: string;
  readonly development: boolean;
}

/** The report key is unusable: the message names the setting to fix. */
export class ReportKeyError extends Error {
  override readonly name = 'ReportKeyError';
}

const ALGORITHM_OF_CURVE: Record<string, ReportAlgorithm> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
};

/** Hash of each algorithm, as node:crypto names it. */
export const HASH_OF: Record<ReportAlgorithm, string> = { ES256: 'sha256', ES384: 'sha384' };

export async function loadReportKey(config: {
  readonly REPORT_SIGNING_KEY_PATH?: string | undefined;
  readonly REPORT_CERT_CHAIN_PATH?: string | undefined;
  readonly HALLMARK_DATA_DIR: string;
}): Promise<ReportSigningKey> {
  if (config.REPORT_SIGNING_KEY_PATH === undefined || config.REPORT_CERT_CHAIN_PATH === undefined) {
    const identity = await loadOrCreateDevelopmentIdentity(resolve(config.HALLMARK_DATA_DIR));
    return reportKeyOf(identity.signerPrivateKeyPem, identity.signerChainPem, true);
  }
  const [keyPem, chainPem] = await Promise.all([
    readSetting('REPORT_SIGNING_KEY_PATH', config.REPORT_SIGNING_KEY_PATH),
    readSetting('REPORT_CERT_CHAIN_PATH', config.REPORT_CERT_CHAIN_PATH),
  ]);
  return reportKeyOf(keyPem, chainPem, false);
}

/** Checks the key is an EC key of a supported curve and is the first certificate's key. */
export function reportKeyOf(
  keyPem: string,
  chainPem: string,
  development: boolean,
): ReportSigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(keyPem);
  } catch (error) {
    throw new ReportKeyError(
      `REPORT_SIGNING_KEY_PATH is not an unencrypted PKCS#8 PEM key: ${(error as Error).message}`,
    );
  }
  const curve = privateKey.asymmetricKeyDetails?.namedCurve;
  const algorithm = curve === undefined ? undefined : ALGORITHM_OF_CURVE[curve];
  if (privateKey.asymmetricKeyType !== 'ec' || algorithm === undefined) {
    throw new ReportKeyError(
      `REPORT_SIGNING_KEY_PATH must be an EC key on P-256 or P-384 (it is ${privateKey.asymmetricKeyType ?? 'unknown'} ${curve ?? ''})`.trim(),
    );
  }
  const chain = certificatesOf(chainPem);
  const signer = chain[0];
  if (signer === undefined) {
    throw new ReportKeyError('REPORT_CERT_CHAIN_PATH holds no certificate');
  }
  // The same proof a verifier makes: the certificate's key checks a signature of this key.
  const challenge = randomBytes(32);
  const proof = sign(HASH_OF[algorithm], challenge, privateKey);
  if (!verify(HASH_OF[algorithm], challenge, signer.publicKey, proof)) {
    throw new ReportKeyError(
      "REPORT_CERT_CHAIN_PATH's first certificate is not the certificate of REPORT_SIGNING_KEY_PATH",
    );
  }
  return {
    privateKey,
    chain: chain.map((certificate) => certificate.raw),
    algorithm,
    keyId: thumbprint(createPublicKey(privateKey)),
    development,
  };
}

function certificatesOf(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  try {
    return blocks.map((block) => new X509Certificate(block));
  } catch (error) {
    throw new ReportKeyError(
      `REPORT_CERT_CHAIN_PATH holds a certificate that does not parse: ${(error as Error).message}`,
    );
  }
}

/** The JWK thumbprint (RFC 7638) of an EC public key, base64url. */
export function thumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

async function readSetting(name: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ReportKeyError(`${name} cannot be read: ${(error as Error).message}`);
  }
}
