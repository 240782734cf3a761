// Trusted time: signatures time-stamped by an RFC 3161 authority (a local one, OpenSSL's, started
// here) carry the token's time, and keep validating after the signing certificate expires; a
// signature without a time-stamp does not. An authority that does not answer signs nothing.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate, keyIdentifier, pem } from '../src/c2pa/dev-ca.ts';
import {
  createSigner,
  type ManifestSigner,
  readManifest,
  signManifest,
  TimestampUnavailableError,
} from '../src/c2pa/index.ts';
import { photo, temporaryDataDir } from './c2pa-fixtures.ts';
import {
  startTimeStampAuthority,
  type TimeStampAuthority,
} from './support/time-stamp-authority.ts';

let tsa: TimeStampAuthority;
let data: Awaited<ReturnType<typeof temporaryDataDir>>;

beforeAll(async () => {
  tsa = await startTimeStampAuthority();
  data = await temporaryDataDir();
});
afterAll(async () => {
  await tsa.close();
  await data.remove();
});

/** A signer whose certificate stops being valid `lifeMs` from now, and the root it chains to. */
async function shortLivedSigner(
  lifeMs: number,
  timestampAuthorityUrl: string | undefined,
): Promise<{ signer: ManifestSigner; rootPem: string; notAfter: Date }> {
  const { subtle } = globalThis.crypto;
  const curve = { name: 'ECDSA', namedCurve: 'P-256' } as const;
  const rootKeys = await subtle.generateKey(curve, true, ['sign', 'verify']);
  const signerKeys = await subtle.generateKey(curve, true, ['sign', 'verify']);
  const rootKeyId = await keyIdentifier(rootKeys.publicKey);
  const now = new Date();
  const common = { issuerPrivateKey: rootKeys.privateKey, issuerKeyId: rootKeyId, notBefore: now };
  const root = await issueCertificate({
    ...common,
    subject: 'Short Life Root',
    issuer: 'Short Life Root',
    publicKey: rootKeys.publicKey,
    profile: 'root',
    notAfter: new Date(now.getTime() + 86_400_000),
  });
  const notAfter = new Date(Math.ceil((now.getTime() + lifeMs) / 1000) * 1000);
  const leaf = await issueCertificate({
    ...common,
    subject: 'Short Life Signer',
    issuer: 'Short Life Root',
    publicKey: signerKeys.publicKey,
    profile: 'signer',
    notAfter,
  });
  const rootPem = pem('CERTIFICATE', root);
  const name = `short-${now.getTime()}-${Math.random().toString(16).slice(2)}`;
  const certChainPath = join(data.dir, `${name}.pem`);
  const privateKeyPath = join(data.dir, `${name}.key`);
  await writeFile(certChainPath, pem('CERTIFICATE', leaf) + rootPem);
  await writeFile(
    privateKeyPath,
    pem('PRIVATE KEY', await subtle.exportKey('pkcs8', signerKeys.privateKey)),
  );
  const signer = await createSigner({
    kind: 'files',
    certChainPath,
    privateKeyPath,
    ...(timestampAuthorityUrl === undefined ? {} : { timestampAuthorityUrl }),
  });
  return { signer, rootPem, notAfter };
}

/** Waits (a fixed, short time: not a speed check) until `instant` has passed. */
async function until(instant: Date): Promise<void> {
  while (Date.now() <= instant.getTime() + 1_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('time-stamped signatures', () => {
  it("carry the authority's time as the signing time", async () => {
    const signer = await createSigner({
      kind: 'development',
      dataDir: data.dir,
      timestampAuthorityUrl: tsa.url,
    });
    const before = tsa.answered();
    const started = Date.now();
    const signed = await signManifest(await photo('fig-0.25mp.jpg'), {}, signer);
    expect(tsa.answered()).toBe(before + 1);
    const summary = await readManifest(signed, {
      trustAnchors: `${signer.trustAnchorsPem ?? ''}${tsa.rootPem}`,
    });
    if (!summary.present) throw new Error('no manifest');
    expect(summary.validation.state).toBe('trusted');
    const time = Date.parse(summary.signer?.signingTime ?? '');
    // The token's time has one-second accuracy and this machine's clock is the authority's.
    expect(time).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000 - 1_000);
    expect(time).toBeLessThanOrEqual(Date.now() + 1_000);

    const plain = await createSigner({ kind: 'development', dataDir: data.dir });
    const untimed = await readManifest(
      await signManifest(await photo('fig-0.25mp.jpg'), {}, plain),
    );
    expect(untimed.present && untimed.signer?.signingTime).toBeNull();
  });

  it('keep validating after the certificate expires; untimed ones do not', async () => {
    // Long enough to sign on a loaded machine before it expires; the test then waits it out.
    const timed = await shortLivedSigner(10_000, tsa.url);
    const untimed = await shortLivedSigner(10_000, undefined);
    const input = await photo('fig-0.25mp.jpg');
    const timedOutput = await signManifest(input, {}, timed.signer);
    const untimedOutput = await signManifest(input, {}, untimed.signer);
    await until(timed.notAfter);
    await until(untimed.notAfter);

    const timedRead = await readManifest(timedOutput, {
      trustAnchors: timed.rootPem + tsa.rootPem,
    });
    expect(timedRead.present && timedRead.validation).toEqual({ state: 'trusted', failures: [] });

    const untimedRead = await readManifest(untimedOutput, { trustAnchors: untimed.rootPem });
    if (!untimedRead.present) throw new Error('no manifest');
    expect(untimedRead.validation.state).toBe('invalid');
    expect(untimedRead.validation.failures.map((failure) => failure.code)).toContain(
      'signingCredential.expired',
    );
  });
});

describe('a time-stamp authority that does not answer', () => {
  it('fails the signature with TimestampUnavailableError (timestamp_unavailable)', async () => {
    const closed = await startTimeStampAuthority();
    const url = closed.url;
    await closed.close();
    const signer = await createSigner({
      kind: 'development',
      dataDir: data.dir,
      timestampAuthorityUrl: url,
    });
    const signing = signManifest(await photo('fig-0.25mp.jpg'), {}, signer);
    await expect(signing).rejects.toBeInstanceOf(TimestampUnavailableError);
    await expect(signing).rejects.toMatchObject({ code: 'timestamp_unavailable' });
  });
});
