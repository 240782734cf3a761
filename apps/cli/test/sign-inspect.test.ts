import { createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateDevelopmentIdentity } from '@hallmark/watermark-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSoftHsmToken } from '../../../packages/watermark-core/test/support/soft-hsm.ts';
import { runCli } from '../src/run-cli.ts';

const repoRoot = join(import.meta.dirname, '../../..');
const photo = join(repoRoot, 'fixtures/photos/fig-0.25mp.jpg');
const c2paFixtures = join(repoRoot, 'fixtures/c2pa');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hallmark-cli-c2pa-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Runs the CLI with its own data folder (the development identity lives there). */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env: { HALLMARK_DATA_DIR: join(dir, 'data') },
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('hallmark sign and inspect', () => {
  it('lists both commands in the help', async () => {
    const { out } = await cli('--help');
    expect(out).toContain('hallmark sign <in> <out>');
    expect(out).toContain('hallmark inspect <file>');
  });

  it('signs with the metadata flags; the development identity is trusted only with its root', async () => {
    const output = join(dir, 'signed.jpg');
    const signed = await cli(
      'sign',
      photo,
      output,
      '--author',
      'Ada Lovelace',
      '--copyright',
      '© 2025 Ada Lovelace',
      '--description',
      'A fig',
      '--license',
      'CC-BY-4.0',
      '--created',
      '2025-01-15',
    );
    expect(signed).toMatchObject({ code: 0, err: '' });
    expect(signed.out).toContain(`signed ${output} (jpeg)`);
    expect(signed.out).toContain('development identity: NOT FOR PRODUCTION');

    const root = join(dir, 'data/c2pa/development-identity/root-ca.pem');
    const json = await cli('inspect', output, '--json', '--trust', root);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({
      present: true,
      title: 'signed.jpg',
      validation: { state: 'trusted', failures: [] },
      signer: { isDevelopmentIdentity: true, trustedBy: 'operator_anchors', timeStamp: null },
      metadata: {
        author: 'Ada Lovelace',
        copyright: '© 2025 Ada Lovelace',
        description: 'A fig',
        licenseType: 'CC-BY-4.0',
        creationDate: '2025-01-15',
      },
      actions: [{ action: 'c2pa.created' }],
    });

    const text = await cli('inspect', output);
    expect(text.code).toBe(0);
    expect(text.out).toContain('C2PA manifest valid, signer not trusted');
    expect(text.out).toContain('[development identity]');
    expect(text.out).toContain(`--trust ${root} to trust this machine's`);
    expect(text.out).toMatch(/author\s+Ada Lovelace/);

    const trusted = await cli('inspect', output, '--trust', root);
    expect(trusted.out).toContain('C2PA manifest valid, signer trusted');
    expect(trusted.out).toMatch(/trusted by\s+your anchors \(--trust\)/);
    const listed = await cli('inspect', output, '--trust-list', root);
    expect(listed.out).toMatch(/trusted by\s+the trust list \(--trust-list\)/);
  });

  it('signs with --cert and --key; trusted only with --trust naming that root', async () => {
    const identity = await loadOrCreateDevelopmentIdentity(join(dir, 'elsewhere'));
    const cert = join(identity.directory, 'signer-chain.pem');
    const key = join(identity.directory, 'signer-key.pem');
    const output = join(dir, 'signed.jpg');
    expect((await cli('sign', photo, output, '--cert', cert, '--key', key)).code).toBe(0);

    const untrusted = await cli('inspect', output, '--json');
    expect(untrusted.code).toBe(0);
    expect(JSON.parse(untrusted.out).validation.state).toBe('valid_untrusted');

    const trusted = await cli(
      'inspect',
      output,
      '--json',
      '--trust',
      join(identity.directory, 'root-ca.pem'),
    );
    expect(JSON.parse(trusted.out).validation.state).toBe('trusted');
  });

  it('shows the history of a file that already had provenance', async () => {
    const output = join(dir, 'ca-signed.jpg');
    expect((await cli('sign', join(c2paFixtures, 'CA.jpg'), output)).code).toBe(0);
    const { code, out } = await cli('inspect', output);
    expect(code).toBe(0);
    expect(out).toMatch(/parentOf CA\.jpg: valid, signer not trusted.*C2PA Signer/);
    expect(out).toMatch(/\n {6}parentOf A\.jpg: no provenance/);

    // The pictures the history keeps, printed as base64: the parent's, and CA.jpg's of A.jpg.
    const json = JSON.parse((await cli('inspect', output, '--json')).out);
    const [parent] = json.ingredients;
    expect(parent.thumbnail).toMatchObject({ mimeType: 'image/jpeg', bytes: /^\/9j\//u });
    expect(parent.ingredients[0].thumbnail).toMatchObject({ mimeType: 'image/jpeg' });
  });

  it('exits 1 for a file without a manifest and for a tampered one', async () => {
    const none = await cli('inspect', join(c2paFixtures, 'no_manifest.jpg'));
    expect(none).toMatchObject({ code: 1 });
    expect(none.out).toContain('no C2PA manifest');

    const output = join(dir, 'signed.jpg');
    await cli('sign', photo, output);
    const bytes = await readFile(output);
    const at = bytes.length - 300;
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    await writeFile(output, bytes);
    const tampered = await cli('inspect', output);
    expect(tampered.code).toBe(1);
    expect(tampered.out).toContain('C2PA manifest INVALID');
    expect(tampered.out).toContain('! assertion.dataHash.mismatch');
  });

  it('signs with an encrypted key and --passphrase-file', async () => {
    const identity = await loadOrCreateDevelopmentIdentity(join(dir, 'elsewhere'));
    const key = join(dir, 'encrypted-key.pem');
    await writeFile(
      key,
      createPrivateKey(identity.signerPrivateKeyPem).export({
        type: 'pkcs8',
        format: 'pem',
        cipher: 'aes-256-cbc',
        passphrase: 'open sesame',
      }),
    );
    const passphrase = join(dir, 'passphrase');
    await writeFile(passphrase, 'open sesame\n');
    const cert = join(identity.directory, 'signer-chain.pem');
    const output = join(dir, 'signed.jpg');
    const signed = await cli(
      'sign',
      photo,
      output,
      '--cert',
      cert,
      '--key',
      key,
      '--passphrase-file',
      passphrase,
    );
    expect(signed).toMatchObject({ code: 0, err: '' });
    const withoutIt = await cli('sign', photo, output, '--cert', cert, '--key', key);
    expect(withoutIt.code).not.toBe(0);
    expect(withoutIt.err).toContain('is encrypted: give its passphrase');
  });

  it('signs with --cert and --pkcs11, the key inside a SoftHSM2 token', async () => {
    const token = await createSoftHsmToken();
    try {
      const output = join(dir, 'signed.jpg');
      const signed = await cli(
        'sign',
        photo,
        output,
        '--cert',
        token.chainPath,
        '--pkcs11',
        token.uri,
      );
      expect(signed).toMatchObject({ code: 0, err: '' });
      expect(signed.out).toContain('signer Hallmark HSM Test Signer');
      const rootPath = join(dir, 'hsm-root.pem');
      await writeFile(rootPath, token.rootPem);
      const trusted = await cli('inspect', output, '--json', '--trust', rootPath);
      expect(JSON.parse(trusted.out).validation.state).toBe('trusted');

      const wrongPin = token.uriWithPinValue.replace(/pin-value=\d+/, 'pin-value=000000');
      const refused = await cli(
        'sign',
        photo,
        output,
        '--cert',
        token.chainPath,
        '--pkcs11',
        wrongPin,
      );
      expect(refused.code).not.toBe(0);
      expect(refused.err).toContain('--pkcs11: logging in to the token failed');
      const noCert = await cli('sign', photo, output, '--pkcs11', token.uri);
      expect(noCert).toMatchObject({ code: 2 });
      expect(noCert.err).toContain('--pkcs11 needs --cert');
    } finally {
      await token.remove();
    }
  });

  it('reports bad metadata and flags as usage errors (exit 2)', async () => {
    const badDate = await cli('sign', photo, join(dir, 'x.jpg'), '--created', '2025-02-30');
    expect(badDate.code).toBe(2);
    expect(badDate.err).toContain('--created: Expected a real calendar date');

    const halfPair = await cli('sign', photo, join(dir, 'x.jpg'), '--cert', 'chain.pem');
    expect(halfPair.code).toBe(2);
    expect(halfPair.err).toContain('--cert and --key go together');
  });

  it('names an unsupported format (exit 1)', async () => {
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'not an image');
    const { code, err } = await cli('sign', text, join(dir, 'out.txt'));
    expect(code).toBe(1);
    expect(err).toContain('Unsupported format');
  });
});
