import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { HallmarkConfig, Logger } from '@hallmark/config';
import { createSigner, type ManifestSigner } from '@hallmark/watermark-core';

/**
 * The signing identity the configuration names: a key in a PKCS#11 token with its certificate
 * chain, a certificate chain and key from files, or the development CA generated once under the
 * data folder. The latter is said loudly at start-up, because files it signs read "valid but
 * untrusted" anywhere else. Files are read anew on every call: a rotation calls it again.
 */
export async function createC2paSigner(
  config: HallmarkConfig,
  logger: Logger,
): Promise<ManifestSigner> {
  if (
    config.C2PA_CERT_CHAIN_PATH !== undefined &&
    config.C2PA_PRIVATE_KEY_PATH === undefined &&
    config.C2PA_PKCS11_URI === undefined
  ) {
    // Signing with the development identity here would pass off test certificates as the
    // deployment's: the chain names the identity the worker must sign as.
    throw new Error(
      'C2PA_CERT_CHAIN_PATH is set without C2PA_PRIVATE_KEY_PATH or C2PA_PKCS11_URI: the worker signs, and needs the key',
    );
  }
  const timestamp =
    config.C2PA_TSA_URL === undefined ? {} : { timestampAuthorityUrl: config.C2PA_TSA_URL };
  const signer =
    config.C2PA_PKCS11_URI !== undefined && config.C2PA_CERT_CHAIN_PATH !== undefined
      ? await createSigner({
          kind: 'pkcs11',
          uri: config.C2PA_PKCS11_URI,
          certChainPath: config.C2PA_CERT_CHAIN_PATH,
          ...timestamp,
        })
      : config.C2PA_CERT_CHAIN_PATH !== undefined && config.C2PA_PRIVATE_KEY_PATH !== undefined
        ? await createSigner({
            kind: 'files',
            certChainPath: config.C2PA_CERT_CHAIN_PATH,
            privateKeyPath: config.C2PA_PRIVATE_KEY_PATH,
            ...(await keyPassphrase(config)),
            ...(config.C2PA_SIGNING_ALGORITHM === undefined
              ? {}
              : { algorithm: config.C2PA_SIGNING_ALGORITHM }),
            ...timestamp,
          })
        : await createSigner({
            kind: 'development',
            dataDir: resolve(config.HALLMARK_DATA_DIR),
            ...timestamp,
          });
  const { identity } = signer;
  if (identity.isDevelopmentIdentity) {
    logger.warn(
      { subject: identity.subject },
      'C2PA: signing with the DEVELOPMENT identity; set C2PA_CERT_CHAIN_PATH and C2PA_PRIVATE_KEY_PATH for production',
    );
  } else {
    logger.info(
      { subject: identity.subject, issuer: identity.issuer, notAfter: identity.notAfter },
      'C2PA signer',
    );
  }
  return signer;
}

/** The encrypted key's passphrase: the first line of its file, or the variable. */
async function keyPassphrase(config: HallmarkConfig): Promise<{ passphrase?: string }> {
  if (config.C2PA_PRIVATE_KEY_PASSPHRASE_FILE !== undefined) {
    const text = await readFile(config.C2PA_PRIVATE_KEY_PASSPHRASE_FILE, 'utf8').catch(
      (error: unknown) => {
        throw new Error(
          `C2PA_PRIVATE_KEY_PASSPHRASE_FILE: ${config.C2PA_PRIVATE_KEY_PASSPHRASE_FILE} cannot be read`,
          { cause: error },
        );
      },
    );
    return { passphrase: text.split(/\r?\n/, 1)[0] ?? '' };
  }
  return config.C2PA_PRIVATE_KEY_PASSPHRASE === undefined
    ? {}
    : { passphrase: config.C2PA_PRIVATE_KEY_PASSPHRASE };
}
