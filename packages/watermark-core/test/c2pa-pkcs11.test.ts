// Signing with a key that never leaves a PKCS#11 token, end to end against SoftHSM2: the token
// is initialised here, the key generated inside it, its certificate issued by a test CA, and the
// manifest signed through the token must validate as trusted against that CA.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createSigner,
  type ManifestSigner,
  readManifest,
  SignerConfigurationError,
  signManifest,
  TokenUnavailableError,
} from '../src/c2pa/index.ts';
import { photo, temporaryDataDir } from './c2pa-fixtures.ts';
import {
  createSoftHsmToken,
  privateKeyValueReadable,
  type SoftHsmToken,
} from './support/soft-hsm.ts';

let token: SoftHsmToken;
const opened: ManifestSigner[] = [];

beforeAll(async () => {
  token = await createSoftHsmToken();
});
afterEach(() => {
  // Closing finalises the module: the next signer logs in afresh, so a wrong PIN is noticed.
  for (const signer of opened.splice(0)) signer.close();
});
afterAll(async () => {
  await token.remove();
});

async function hsmSigner(uri: string, certChainPath = token.chainPath): Promise<ManifestSigner> {
  const signer = await createSigner({ kind: 'pkcs11', uri, certChainPath });
  opened.push(signer);
  return signer;
}

describe('a signing key inside a PKCS#11 token', () => {
  it('signs a manifest that validates as trusted against the CA of its certificate', async () => {
    const signer = await hsmSigner(token.uri);
    expect(signer.algorithm).toBe('es256');
    expect(signer.identity).toMatchObject({
      subject: 'Hallmark HSM Test Signer',
      isDevelopmentIdentity: false,
    });
    const signed = await signManifest(await photo('fig-0.25mp.jpg'), { title: 'fig.jpg' }, signer);
    const summary = await readManifest(signed, { trustAnchors: token.rootPem });
    expect(summary.present && summary.validation).toEqual({ state: 'trusted', failures: [] });
    expect(summary.present && summary.signer?.subject).toBe('Hallmark HSM Test Signer');
    const untrusted = await readManifest(signed);
    expect(untrusted.present && untrusted.validation.state).toBe('valid_untrusted');
  });

  it('signs es384 with a P-384 key', async () => {
    const p384 = await createSoftHsmToken('P-384');
    try {
      const signer = await hsmSigner(p384.uri, p384.chainPath);
      expect(signer.algorithm).toBe('es384');
      const signed = await signManifest(await photo('fig-0.25mp.jpg'), {}, signer);
      const summary = await readManifest(signed, { trustAnchors: p384.rootPem });
      expect(summary.present && summary.validation).toEqual({ state: 'trusted', failures: [] });
      expect(summary.present && summary.signer?.algorithm).toBe('es384');
    } finally {
      for (const signer of opened.splice(0)) signer.close();
      await p384.remove();
      // The P-256 token of the other tests is this file's again.
      token.select();
    }
  });

  it('takes the PIN inline (pin-value) as well as from a file (pin-source)', async () => {
    const signer = await hsmSigner(token.uriWithPinValue);
    const signed = await signManifest(await photo('fig-0.25mp.jpg'), {}, signer);
    const summary = await readManifest(signed, { trustAnchors: token.rootPem });
    expect(summary.present && summary.validation.state).toBe('trusted');
  });

  it('refuses at start-up a wrong PIN, a missing token or key, and naming the setting', async () => {
    const wrongPin = token.uriWithPinValue.replace(/pin-value=\d+/, 'pin-value=000000');
    await expect(hsmSigner(wrongPin)).rejects.toThrow(/^C2PA_PKCS11_URI: logging in .*PIN/);
    await expect(hsmSigner(token.uri.replace('token=hallmark', 'token=gone'))).rejects.toThrow(
      'C2PA_PKCS11_URI: no token labelled "gone"',
    );
    await expect(
      hsmSigner(token.uri.replace('object=c2pa-signing', 'object=other')),
    ).rejects.toThrow('C2PA_PKCS11_URI: no such private key on the token');
    await expect(hsmSigner(token.uri.replace('pkcs11:', 'pkcs11:slot=1;'))).rejects.toThrow(
      'C2PA_PKCS11_URI: unknown path attribute "slot"',
    );
    await expect(
      hsmSigner(token.uri.replace(/module-path=[^&]+/, 'module-path=/nope.so')),
    ).rejects.toThrow('C2PA_PKCS11_URI: the PKCS#11 module /nope.so cannot be loaded');
    await expect(
      hsmSigner(token.uri.replace(/pin-source=[^&]+/, 'pin-source=/nope')),
    ).rejects.toBeInstanceOf(SignerConfigurationError);
  });

  it("refuses a certificate that is not the token key's", async () => {
    const other = await temporaryDataDir();
    try {
      const development = await createSigner({ kind: 'development', dataDir: other.dir });
      const path = join(other.dir, 'other-chain.pem');
      await writeFile(path, development.certChainPem);
      await expect(hsmSigner(token.uri, path)).rejects.toThrow(
        /the token's key does not belong to the signing certificate/,
      );
    } finally {
      await other.remove();
    }
  });

  it('never lets the private key out of the token', () => {
    expect(privateKeyValueReadable()).toBe(false);
  });

  it('fails a signature with TokenUnavailableError once the token is gone', async () => {
    const signer = await hsmSigner(token.uri);
    await token.unplug();
    const signing = signManifest(await photo('fig-0.25mp.jpg'), {}, signer);
    await expect(signing).rejects.toBeInstanceOf(TokenUnavailableError);
    await expect(signing).rejects.toMatchObject({ code: 'signing_unavailable' });
    // The next attempt looks for the token again, and still says it is unavailable.
    await expect(signer.sign(new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(
      TokenUnavailableError,
    );
  });
});
