import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateDevelopmentIdentity } from '@hallmark/watermark-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deploymentTrust } from '../src/trust-anchors.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hallmark-trust-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The subjects' fingerprints of a PEM bundle, to compare bundles by their certificates. */
function fingerprints(pem: string | undefined): string[] {
  return (pem?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/g) ?? [])
    .map((block) => new X509Certificate(block).fingerprint256)
    .sort();
}

describe("a deployment's trust", () => {
  it("keeps the operator's roots apart from the adopted list and its time-stamp authorities", async () => {
    const [own, list, tsa] = await Promise.all(
      ['own', 'list', 'tsa'].map((name) => loadOrCreateDevelopmentIdentity(join(dir, name))),
    );
    const paths = {
      own: join(dir, 'own.pem'),
      list: join(dir, 'list.pem'),
      tsa: join(dir, 'tsa.pem'),
    };
    await writeFile(paths.own, own?.rootCertificatePem ?? '');
    await writeFile(paths.list, list?.rootCertificatePem ?? '');
    await writeFile(paths.tsa, tsa?.rootCertificatePem ?? '');
    const trust = await deploymentTrust({
      C2PA_TRUST_ANCHORS_PATH: paths.own,
      C2PA_TRUST_LIST_PATH: paths.list,
      C2PA_TSA_TRUST_ANCHORS_PATH: paths.tsa,
      C2PA_CERT_CHAIN_PATH: '/run/secrets/chain.pem',
      HALLMARK_DATA_DIR: dir,
    });
    expect(fingerprints(trust.trustAnchors)).toEqual(fingerprints(own?.rootCertificatePem));
    expect(fingerprints(trust.trustList)).toEqual(
      fingerprints(`${list?.rootCertificatePem}${tsa?.rootCertificatePem}`),
    );
  });

  it('adds the development root to its own only while it signs with the development identity', async () => {
    const development = await loadOrCreateDevelopmentIdentity(dir);
    const signing = await deploymentTrust({ HALLMARK_DATA_DIR: dir });
    expect(fingerprints(signing.trustAnchors)).toEqual(
      fingerprints(development.rootCertificatePem),
    );
    expect(signing.trustList).toBeUndefined();
    const withItsOwnIdentity = await deploymentTrust({
      HALLMARK_DATA_DIR: dir,
      C2PA_CERT_CHAIN_PATH: '/run/secrets/chain.pem',
    });
    expect(withItsOwnIdentity.trustAnchors).toBeUndefined();
  });
});
