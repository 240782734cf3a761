// Reading PEM certificate chains with node:crypto, to fail early with a clear message instead of
// deep inside c2pa-node, and to describe a signer in words a person recognises.
import { type KeyObject, X509Certificate } from 'node:crypto';
import { SignerConfigurationError } from './errors.ts';
import type { SigningAlgorithm } from './signing-algorithms.ts';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM text, in order; throws when there is none or one does not parse. */
export function parseCertificates(pem: string, source: string): X509Certificate[] {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) {
    throw new SignerConfigurationError(`${source} holds no PEM certificate`);
  }
  return blocks.map((block, index) => {
    try {
      return new X509Certificate(block);
    } catch (error) {
      throw new SignerConfigurationError(`${source}: certificate ${index + 1} does not parse`, {
        cause: error,
      });
    }
  });
}

/**
 * Checks what c2pa-node would otherwise reject with a vaguer message: the end-entity certificate
 * comes first, is current, and holds the public half of the signing key (when the key is here).
 */
export function assertSigningChain(
  chain: readonly X509Certificate[],
  source: string,
  algorithm: SigningAlgorithm,
  privateKey?: KeyObject,
): X509Certificate {
  const [leaf] = chain;
  if (leaf === undefined) throw new SignerConfigurationError(`${source} holds no certificate`);
  if (leaf.ca) {
    throw new SignerConfigurationError(
      `${source}: the first certificate is a CA; put the end-entity signing certificate first`,
    );
  }
  const now = Date.now();
  if (new Date(leaf.validTo).getTime() <= now || new Date(leaf.validFrom).getTime() > now) {
    throw new SignerConfigurationError(
      `${source}: the signing certificate is valid only from ${leaf.validFrom} to ${leaf.validTo}`,
    );
  }
  if (privateKey !== undefined && !leaf.checkPrivateKey(privateKey)) {
    throw new SignerConfigurationError(
      `${source}: the private key does not belong to the signing certificate`,
    );
  }
  if (!publicKeyFits(leaf.publicKey, algorithm)) {
    throw new SignerConfigurationError(
      `${source}: the signing certificate's key cannot make ${algorithm} signatures`,
    );
  }
  return leaf;
}

/** The key types each C2PA algorithm needs (RSA keys sign with PSS padding). */
export function publicKeyFits(key: KeyObject, algorithm: SigningAlgorithm): boolean {
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  switch (algorithm) {
    case 'es256':
      return type === 'ec' && curve === 'prime256v1';
    case 'es384':
      return type === 'ec' && curve === 'secp384r1';
    case 'es512':
      return type === 'ec' && curve === 'secp521r1';
    case 'ps256':
    case 'ps384':
    case 'ps512':
      return type === 'rsa' || type === 'rsa-pss';
    case 'ed25519':
      return type === 'ed25519';
  }
}

/** `CN` of a distinguished name as node prints it (`O=...\nCN=...`), else the whole name. */
export function commonName(distinguishedName: string): string {
  const line = distinguishedName.split('\n').find((part) => part.startsWith('CN='));
  return line === undefined ? distinguishedName : line.slice('CN='.length);
}
