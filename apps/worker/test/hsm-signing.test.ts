// The worker signing with a key that never leaves an HSM: a SoftHSM2 token made for this file,
// the worker process configured with C2PA_PKCS11_URI and the key's certificate chain, a job
// signed, and its output's manifest trusted against the test CA. A token the worker cannot log
// in to stops it at start-up, naming the setting.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { startServiceProcess } from '@hallmark/runtime/testing';
import { readManifest } from '@hallmark/watermark-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSoftHsmToken,
  type SoftHsmToken,
} from '../../../packages/watermark-core/test/support/soft-hsm.ts';
import { runSigningJob } from './support/signing-job.ts';
import { type WatermarkWorld, watermarkWorld } from './support/watermark-world.ts';

const entry = join(import.meta.dirname, '../dist/main.js');

describe('the worker signing with a key in a PKCS#11 token', () => {
  let world: WatermarkWorld;
  let token: SoftHsmToken;

  beforeAll(async () => {
    world = await watermarkWorld('worker-hsm-test');
    token = await createSoftHsmToken();
  });

  afterAll(async () => {
    await world?.dispose();
    await token?.remove();
  });

  const hsmEnv = (uri: string) => ({
    ...world.testEnv.env,
    C2PA_PKCS11_URI: uri,
    C2PA_CERT_CHAIN_PATH: token.chainPath,
    SOFTHSM2_CONF: process.env.SOFTHSM2_CONF ?? '',
  });

  it('signs a job whose manifest is trusted against the CA of the token key', async () => {
    const worker = startServiceProcess(entry, hsmEnv(token.uri));
    try {
      await worker.logged('worker ready');
      const { job, output } = await runSigningJob(world);
      expect(job.status).toBe('success');
      if (output === null) throw new Error('no output');
      const summary = await readManifest(output, { trustAnchors: token.rootPem });
      if (!summary.present) throw new Error('the output carries no manifest');
      expect(summary.validation).toEqual({ state: 'trusted', failures: [] });
      expect(summary.signer?.subject).toBe('Hallmark HSM Test Signer');
    } finally {
      await worker.stop();
    }
  });

  it('refuses to start when it cannot log in to the token, naming the setting', async () => {
    const wrongPin = token.uriWithPinValue.replace(/pin-value=\d+/, 'pin-value=000000');
    const child = spawn(process.execPath, [entry], {
      env: { ...process.env, ...hsmEnv(wrongPin), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (d: Buffer) => {
        output += d.toString();
      });
    }
    const [code] = await once(child, 'close');
    expect(code).not.toBe(0);
    expect(output).toContain('C2PA_PKCS11_URI');
    expect(output).toContain('check the PIN');
    // The PIN is not repeated in the log.
    expect(output).not.toContain('000000');
  });
});
