// Rotating the signing identity without stopping the worker: its certificate and encrypted key
// files are replaced and the worker is sent SIGHUP; new jobs sign as the new identity, outputs
// signed before keep validating, and a rotation to unreadable files keeps the current identity.
import { createPrivateKey } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess } from '@hallmark/runtime/testing';
import { loadOrCreateDevelopmentIdentity, readManifest } from '@hallmark/watermark-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSigningJob } from './support/signing-job.ts';
import { type WatermarkWorld, watermarkWorld } from './support/watermark-world.ts';

const entry = join(import.meta.dirname, '../dist/main.js');
const PASSPHRASE = 'rotate me often';

describe('rotating the signing identity on SIGHUP', () => {
  let world: WatermarkWorld;
  let dir: string;

  beforeAll(async () => {
    world = await watermarkWorld('worker-rotation-test');
    dir = await mkdtemp(join(tmpdir(), 'hallmark-rotation-'));
  });

  afterAll(async () => {
    await world?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  /** A new identity installed as the worker's files (its key encrypted); returns its root. */
  async function install(name: string): Promise<string> {
    const identity = await loadOrCreateDevelopmentIdentity(join(dir, name));
    const key = createPrivateKey(identity.signerPrivateKeyPem).export({
      type: 'pkcs8',
      format: 'pem',
      cipher: 'aes-256-cbc',
      passphrase: PASSPHRASE,
    });
    await writeFile(join(dir, 'chain.pem'), identity.signerChainPem);
    await writeFile(join(dir, 'key.pem'), key);
    return identity.rootCertificatePem;
  }

  const trusted = async (output: Buffer | null, root: string) => {
    const summary = await readManifest(output ?? new Uint8Array(), { trustAnchors: root });
    return summary.present && summary.validation.state === 'trusted';
  };

  it('signs new jobs as the new identity; earlier outputs keep validating', async () => {
    const rootA = await install('a');
    await writeFile(join(dir, 'passphrase'), `${PASSPHRASE}\n`);
    const worker = startServiceProcess(entry, {
      ...world.testEnv.env,
      C2PA_CERT_CHAIN_PATH: join(dir, 'chain.pem'),
      C2PA_PRIVATE_KEY_PATH: join(dir, 'key.pem'),
      C2PA_PRIVATE_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'),
    });
    try {
      await worker.logged('worker ready');
      const first = await runSigningJob(world);
      expect(first.job.status).toBe('success');
      expect(await trusted(first.output, rootA)).toBe(true);

      const rootB = await install('b');
      worker.child.kill('SIGHUP');
      await worker.logged('C2PA signer rotated');
      const second = await runSigningJob(world);
      expect(second.job.status).toBe('success');
      expect(await trusted(second.output, rootB)).toBe(true);
      expect(await trusted(second.output, rootA)).toBe(false);
      // The first output's signature never changes: it still validates against its own root.
      expect(await trusted(first.output, rootA)).toBe(true);

      await writeFile(join(dir, 'key.pem'), 'not a key');
      worker.child.kill('SIGHUP');
      await worker.logged('C2PA signer rotation failed; still signing with the current identity');
      const third = await runSigningJob(world);
      expect(third.job.status).toBe('success');
      expect(await trusted(third.output, rootB)).toBe(true);
    } finally {
      await worker.stop();
    }
  });
});
