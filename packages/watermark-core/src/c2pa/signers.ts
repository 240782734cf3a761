// The four ways to sign, chosen by configuration. All end in the same shape: a certificate chain
// plus an asynchronous function that signs bytes, so the private key may live in this process, in
// a file, or behind a KMS/HSM that never hands it out.
import {
  createPrivateKey,
  type KeyObject,
  randomBytes,
  verify,
  type X509Certificate,
} from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { assertSigningChain, commonName, parseCertificates } from './certificates.ts';
import { DEVELOPMENT_SIGNER_COMMON_NAME } from './dev-ca.ts';
import { loadOrCreateDevelopmentIdentity } from './development-identity.ts';
import { SignerConfigurationError } from './errors.ts';
import type { Pkcs11Key } from './pkcs11/pkcs11-key.ts';
import { type Pkcs11Location, parsePkcs11Uri } from './pkcs11/pkcs11-uri.ts';
import {
  algorithmForKey,
  SIGNING_ALGORITHMS,
  type SigningAlgorithm,
  signWithKey,
} from './signing-algorithms.ts';

interface SignerConfigBase {
  /** RFC 3161 timestamp authority; the manifest then records a trusted signing time. */
  readonly timestampAuthorityUrl?: string;
}

/** Generated P-256 development CA kept in `<dataDir>/c2pa/development-identity`. */
export interface DevelopmentSignerConfig extends SignerConfigBase {
  readonly kind: 'development';
  readonly dataDir: string;
}

/**
 * A certificate chain (end-entity first) and its private key, both PEM files; the key may be an
 * encrypted PKCS#8 PEM (`ENCRYPTED PRIVATE KEY`), opened with `passphrase`.
 */
export interface FilesSignerConfig extends SignerConfigBase {
  readonly kind: 'files';
  readonly certChainPath: string;
  readonly privateKeyPath: string;
  readonly passphrase?: string;
  /** Default: derived from the key (P-256 es256, P-384 es384, RSA ps256, Ed25519 ed25519). */
  readonly algorithm?: SigningAlgorithm;
}

/** The private key stays outside the process: `sign` returns the raw signature of the bytes. */
export interface CallbackSignerConfig extends SignerConfigBase {
  readonly kind: 'callback';
  readonly certChainPem: string;
  readonly algorithm: SigningAlgorithm;
  /**
   * Signs `toBeSigned` (the COSE Sig_structure) and resolves to the raw signature: r||s for
   * ECDSA (DER is accepted too), PSS for RSA, plain Ed25519.
   */
  readonly sign: (toBeSigned: Uint8Array) => Promise<Uint8Array>;
}

/**
 * A key inside a PKCS#11 token (HSM), named by an RFC 7512 URI, and its certificate chain (PEM
 * file). The key never leaves the token; the algorithm follows the key (P-256 es256, P-384
 * es384).
 */
export interface Pkcs11SignerConfig extends SignerConfigBase {
  readonly kind: 'pkcs11';
  readonly uri: string;
  readonly certChainPath: string;
  /** The setting the URI came from, named in errors (default `C2PA_PKCS11_URI`). */
  readonly uriVariable?: string;
}

export type SignerConfig =
  | DevelopmentSignerConfig
  | FilesSignerConfig
  | CallbackSignerConfig
  | Pkcs11SignerConfig;

/** Who signs, in words; `isDevelopmentIdentity` flags the generated identity. */
export interface SignerIdentity {
  readonly subject: string;
  readonly issuer: string;
  /** ISO date after which the signing certificate is no longer valid. */
  readonly notAfter: string;
  readonly isDevelopmentIdentity: boolean;
}

export interface ManifestSigner {
  readonly kind: SignerConfig['kind'];
  readonly algorithm: SigningAlgorithm;
  /** End-entity certificate first. */
  readonly certChainPem: string;
  /** DER size of that chain: what a signature must keep room for. */
  readonly certChainDerBytes: number;
  readonly timestampAuthorityUrl: string | undefined;
  readonly identity: SignerIdentity;
  /** Roots that make this signer's own output read as trusted: the development root, else none. */
  readonly trustAnchorsPem: string | undefined;
  sign(toBeSigned: Uint8Array): Promise<Uint8Array>;
  /** Lets go of what the signer holds open (a token's session); nothing for keys in memory. */
  close(): void;
}

/** Builds the configured signer; a development identity is generated on first use. */
export async function createSigner(config: SignerConfig): Promise<ManifestSigner> {
  const timestampAuthorityUrl = checkTimestampAuthority(config.timestampAuthorityUrl);
  switch (config.kind) {
    case 'development': {
      const identity = await loadOrCreateDevelopmentIdentity(config.dataDir);
      const key = createPrivateKey(identity.signerPrivateKeyPem);
      return keySigner({
        kind: 'development',
        certChainPem: identity.signerChainPem,
        source: identity.directory,
        key,
        algorithm: 'es256',
        timestampAuthorityUrl,
        trustAnchorsPem: identity.rootCertificatePem,
      });
    }
    case 'files': {
      const [certChainPem, keyPem] = await Promise.all([
        readConfiguredFile(config.certChainPath, 'certificate chain'),
        readConfiguredFile(config.privateKeyPath, 'private key'),
      ]);
      const key = parsePrivateKey(keyPem, config.privateKeyPath, config.passphrase);
      const algorithm = config.algorithm ?? algorithmForKey(key);
      if (algorithm === undefined) {
        throw new SignerConfigurationError(
          `${config.privateKeyPath}: a ${key.asymmetricKeyType} key cannot sign C2PA manifests`,
        );
      }
      return keySigner({
        kind: 'files',
        certChainPem,
        source: config.certChainPath,
        key,
        algorithm: checkAlgorithm(algorithm),
        timestampAuthorityUrl,
        trustAnchorsPem: undefined,
      });
    }
    case 'pkcs11': {
      const variable = config.uriVariable ?? 'C2PA_PKCS11_URI';
      const certChainPem = await readConfiguredFile(config.certChainPath, 'certificate chain');
      const chain = parseCertificates(certChainPem, config.certChainPath);
      const key = await openTokenKey(parsePkcs11Uri(config.uri, variable), variable);
      try {
        const leaf = assertSigningChain(chain, config.certChainPath, key.algorithm);
        await assertKeyPairs(leaf, key, `${variable} and ${config.certChainPath}`);
        return {
          kind: 'pkcs11',
          algorithm: key.algorithm,
          certChainPem,
          certChainDerBytes: derBytes(chain),
          timestampAuthorityUrl,
          identity: identityOf(leaf.subject, leaf.issuer, leaf.validTo),
          trustAnchorsPem: undefined,
          sign: (toBeSigned) => key.sign(toBeSigned),
          close: () => key.close(),
        };
      } catch (error) {
        key.close();
        throw error;
      }
    }
    case 'callback': {
      const algorithm = checkAlgorithm(config.algorithm);
      const chain = parseCertificates(config.certChainPem, 'callback signer chain');
      const leaf = assertSigningChain(chain, 'callback signer chain', algorithm);
      const remoteSign = config.sign;
      return {
        kind: 'callback',
        algorithm,
        certChainPem: config.certChainPem,
        certChainDerBytes: derBytes(chain),
        timestampAuthorityUrl,
        identity: identityOf(leaf.subject, leaf.issuer, leaf.validTo),
        trustAnchorsPem: undefined,
        sign: (toBeSigned) => remoteSign(toBeSigned),
        close: () => undefined,
      };
    }
  }
}

interface KeySignerParams {
  readonly kind: 'development' | 'files';
  readonly certChainPem: string;
  readonly source: string;
  readonly key: KeyObject;
  readonly algorithm: SigningAlgorithm;
  readonly timestampAuthorityUrl: string | undefined;
  readonly trustAnchorsPem: string | undefined;
}

function keySigner(params: KeySignerParams): ManifestSigner {
  const chain = parseCertificates(params.certChainPem, params.source);
  const leaf = assertSigningChain(chain, params.source, params.algorithm, params.key);
  const { key, algorithm } = params;
  return {
    kind: params.kind,
    algorithm,
    certChainPem: params.certChainPem,
    certChainDerBytes: derBytes(chain),
    timestampAuthorityUrl: params.timestampAuthorityUrl,
    identity: identityOf(leaf.subject, leaf.issuer, leaf.validTo),
    trustAnchorsPem: params.trustAnchorsPem,
    sign: (toBeSigned) => signWithKey(algorithm, key, toBeSigned),
    close: () => undefined,
  };
}

/**
 * The PKCS#11 binding is a native module, loaded only when a token signs: every other signer,
 * and a CLI installed where it could not be built, runs without it.
 */
async function openTokenKey(location: Pkcs11Location, variable: string): Promise<Pkcs11Key> {
  let binding: typeof import('./pkcs11/pkcs11-key.ts');
  try {
    binding = await import('./pkcs11/pkcs11-key.ts');
  } catch (error) {
    throw new SignerConfigurationError(
      `${variable}: PKCS#11 signing needs the pkcs11js module, which is not installed here`,
      { cause: error },
    );
  }
  return binding.openPkcs11Key(location, variable);
}

/**
 * A key held elsewhere cannot be compared with the certificate directly: it signs a random
 * challenge, and the certificate's public key must verify it.
 */
async function assertKeyPairs(
  leaf: X509Certificate,
  key: { readonly algorithm: SigningAlgorithm; sign(data: Uint8Array): Promise<Uint8Array> },
  source: string,
): Promise<void> {
  const challenge = randomBytes(32);
  const signature = await key.sign(challenge);
  const digest = key.algorithm === 'es384' ? 'sha384' : 'sha256';
  const options = { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' as const };
  if (!verify(digest, challenge, options, signature)) {
    throw new SignerConfigurationError(
      `${source}: the token's key does not belong to the signing certificate`,
    );
  }
}

function derBytes(chain: readonly X509Certificate[]): number {
  return chain.reduce((sum, certificate) => sum + certificate.raw.length, 0);
}

function identityOf(subject: string, issuer: string, validTo: string): SignerIdentity {
  const subjectName = commonName(subject);
  return {
    subject: subjectName,
    issuer: commonName(issuer),
    notAfter: new Date(validTo).toISOString(),
    isDevelopmentIdentity: subjectName === DEVELOPMENT_SIGNER_COMMON_NAME,
  };
}

async function readConfiguredFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new SignerConfigurationError(`Cannot read the ${what} file ${path}`, { cause: error });
  }
}

function parsePrivateKey(pem: string, path: string, passphrase: string | undefined): KeyObject {
  const encrypted = pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----');
  if (encrypted && passphrase === undefined) {
    throw new SignerConfigurationError(`${path} is encrypted: give its passphrase`);
  }
  try {
    return createPrivateKey(passphrase === undefined ? pem : { key: pem, passphrase });
  } catch (error) {
    throw new SignerConfigurationError(
      encrypted
        ? `${path} cannot be decrypted with the passphrase given`
        : `${path} is not a readable PEM private key`,
      { cause: error },
    );
  }
}

function checkAlgorithm(algorithm: string): SigningAlgorithm {
  const known = SIGNING_ALGORITHMS.find((candidate) => candidate === algorithm);
  if (known === undefined) {
    throw new SignerConfigurationError(
      `Unknown signing algorithm "${algorithm}"; expected one of ${SIGNING_ALGORITHMS.join(', ')}`,
    );
  }
  return known;
}

function checkTimestampAuthority(url: string | undefined): string | undefined {
  if (url === undefined || url === '') return undefined;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new SignerConfigurationError(`Timestamp authority must be an http(s) URL, got "${url}"`);
  }
  return url;
}
