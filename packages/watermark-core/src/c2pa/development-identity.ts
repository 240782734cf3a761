// The development signing identity, generated on first use and kept in the data folder so every
// file a developer signs chains to the same root. Several processes (API, workers, CLI) may start
// at once: each builds a complete identity in a private temporary folder and publishes it with one
// rename, which fails when another process already published; the loser then reads the winner's.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { issueDevelopmentIdentity } from './dev-ca.ts';
import { SignerConfigurationError } from './errors.ts';

export interface DevelopmentIdentity {
  /** The folder holding it, `<dataDir>/c2pa/development-identity`. */
  readonly directory: string;
  /** Add this to a reader's trust anchors to see development signatures as trusted. */
  readonly rootCertificatePem: string;
  readonly signerChainPem: string;
  readonly signerPrivateKeyPem: string;
}

const FILES = {
  root: 'root-ca.pem',
  chain: 'signer-chain.pem',
  key: 'signer-key.pem',
  readme: 'README.txt',
} as const;

const README = `Hallmark development signing identity - NOT FOR PRODUCTION.

Generated on first use because no signing certificate was configured. Files signed with it read
as "valid but untrusted" everywhere except where root-ca.pem is added as a trust anchor. The root's
private key was discarded after issuing the signer, so no other certificate can chain to it.
Delete this folder to generate a new identity (files signed before then stop chaining to it).
`;

/** Returns the identity stored under `dataDir`, creating it the first time. */
export async function loadOrCreateDevelopmentIdentity(
  dataDir: string,
): Promise<DevelopmentIdentity> {
  const directory = identityDirectory(dataDir);
  const existing = await readIdentity(directory);
  if (existing !== undefined) return existing;
  await publishNewIdentity(directory);
  const published = await readIdentity(directory);
  if (published === undefined) {
    throw new SignerConfigurationError(`Development identity in ${directory} vanished`);
  }
  return published;
}

/** The identity stored under `dataDir`, or undefined when none was generated there yet. */
export function findDevelopmentIdentity(dataDir: string): Promise<DevelopmentIdentity | undefined> {
  return readIdentity(identityDirectory(dataDir));
}

function identityDirectory(dataDir: string): string {
  return resolve(dataDir, 'c2pa', 'development-identity');
}

async function publishNewIdentity(directory: string): Promise<void> {
  const parent = resolve(directory, '..');
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(join(parent, '.development-identity-'));
  try {
    const issued = await issueDevelopmentIdentity();
    await writeFile(join(staging, FILES.root), issued.rootCertificatePem);
    await writeFile(join(staging, FILES.chain), issued.signerChainPem);
    await writeFile(join(staging, FILES.key), issued.signerPrivateKeyPem, { mode: 0o600 });
    await writeFile(join(staging, FILES.readme), README);
    await rename(staging, directory);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another process published first: its identity is the one to use.
    if (!isCode(error, 'ENOTEMPTY') && !isCode(error, 'EEXIST')) throw error;
  }
}

async function readIdentity(directory: string): Promise<DevelopmentIdentity | undefined> {
  let texts: string[];
  try {
    texts = await Promise.all(
      [FILES.root, FILES.chain, FILES.key].map((file) => readFile(join(directory, file), 'utf8')),
    );
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  const [rootCertificatePem = '', signerChainPem = '', signerPrivateKeyPem = ''] = texts;
  assertUsable(directory, rootCertificatePem, signerChainPem, signerPrivateKeyPem);
  return { directory, rootCertificatePem, signerChainPem, signerPrivateKeyPem };
}

/** Fails with a message naming the folder, rather than later inside c2pa-node. */
function assertUsable(directory: string, rootPem: string, chainPem: string, keyPem: string): void {
  const broken = (reason: string, cause?: unknown) =>
    new SignerConfigurationError(
      `Development identity in ${directory} is unusable (${reason}); delete the folder to generate a new one`,
      { cause },
    );
  let root: X509Certificate;
  let signer: X509Certificate;
  try {
    root = new X509Certificate(rootPem);
    signer = new X509Certificate(chainPem);
    if (!signer.checkPrivateKey(createPrivateKey(keyPem))) throw new Error('key mismatch');
  } catch (error) {
    throw broken('unreadable or mismatched files', error);
  }
  if (!signer.verify(root.publicKey)) throw broken('the signer was not issued by the root');
  if (new Date(signer.validTo).getTime() <= Date.now()) {
    throw broken(`the signing certificate expired on ${signer.validTo}`);
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
