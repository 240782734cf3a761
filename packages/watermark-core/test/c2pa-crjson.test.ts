// crJSON reports of real signed files (c2pa-node signs and validates, the dev and test
// authorities issue): every report valid against the committed schema, its fields checked
// against what c2pa-node and the store's own bytes say, and crafted stores refused with the
// typed error.
import { createHash, X509Certificate } from 'node:crypto';
import { Reader } from '@contentauth/c2pa-node';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CrJsonDocument,
  type CrJsonManifest,
  createSigner,
  DEVELOPMENT_SIGNER_COMMON_NAME,
  type ManifestSigner,
  readCrJson,
  type SignedAsset,
  signManifest,
  ValidationTimeUnsupportedError,
} from '../src/c2pa/index.ts';
import { c2paFixture, photo, temporaryDataDir } from './c2pa-fixtures.ts';
import { assertionBodies } from './support/crjson-jumbf.ts';
import { crJsonSchemaErrors } from './support/crjson-schema.ts';
import {
  startTimeStampAuthority,
  type TimeStampAuthority,
} from './support/time-stamp-authority.ts';

let data: Awaited<ReturnType<typeof temporaryDataDir>>;
let signer: ManifestSigner;
let root: string;
let tsa: TimeStampAuthority;
let schemaErrors: (document: unknown) => string[];
let signed: SignedAsset;

beforeAll(async () => {
  data = await temporaryDataDir();
  tsa = await startTimeStampAuthority();
  signer = await createSigner({ kind: 'development', dataDir: data.dir });
  root = signer.trustAnchorsPem ?? '';
  schemaErrors = await crJsonSchemaErrors();
  signed = await signManifest(await photo('fig-0.25mp.jpg'), { fileId: 'file-1' }, signer);
});
afterAll(async () => {
  await tsa.close();
  await data.remove();
});

/** Reads a report and insists that it is valid crJSON. */
async function report(...args: Parameters<typeof readCrJson>): Promise<CrJsonDocument> {
  const document = await readCrJson(...args);
  expect(schemaErrors(document)).toEqual([]);
  return document;
}

function active(document: CrJsonDocument): CrJsonManifest {
  const [first] = document.manifests;
  if (first === undefined) throw new Error('no manifest');
  return first;
}

function codes(manifest: CrJsonManifest, kind: 'success' | 'informational' | 'failure') {
  return manifest.validationResults[kind].map((status) => status.code);
}

describe('readCrJson of a signed JPEG', () => {
  it("names the claim c2pa-node read: label, instanceID, generator, hashes of the store's boxes", async () => {
    const document = await report(signed, { trustAnchors: root });
    const reader = await Reader.fromAsset({
      buffer: Buffer.from(signed.bytes),
      mimeType: 'image/jpeg',
    });
    const store = reader?.json() as {
      active_manifest: string;
      manifests: Record<string, { instance_id: string }>;
    };
    const manifest = active(document);
    expect(document.jsonGenerator).toEqual({ name: 'hallmark', version: '0.1.0' });
    expect(document.manifests).toHaveLength(1);
    expect(manifest.label).toBe(signed.manifestId);
    expect(manifest.label).toBe(store.active_manifest);
    const claim = manifest['claim.v2'];
    expect(claim?.instanceID).toBe(store.manifests[store.active_manifest]?.instance_id);
    expect(claim?.claim_generator_info).toMatchObject({ name: 'Hallmark', specVersion: '2.4' });

    const bodies = assertionBodies(signed.manifestStore).get(manifest.label);
    const hashed = [
      ...((claim?.created_assertions ?? []) as { url: string; hash: string }[]),
      ...((claim?.gathered_assertions ?? []) as { url: string; hash: string }[]),
    ];
    const labels = hashed.map((uri) => uri.url.replace('self#jumbf=c2pa.assertions/', ''));
    expect(labels.sort()).toEqual(['c2pa.actions.v2', 'c2pa.hash.data', 'io.hallmark.provenance']);
    for (const uri of hashed) {
      const body = bodies?.get(uri.url.replace('self#jumbf=c2pa.assertions/', ''));
      if (body === undefined) throw new Error(`no box for ${uri.url}`);
      expect(uri.hash).toBe(`b64'${createHash('sha256').update(body).digest('base64')}'`);
    }
    expect(Object.keys(manifest.assertions).sort()).toEqual(labels);
    expect(manifest.assertions['io.hallmark.provenance']).toEqual({ fileId: 'file-1' });
    expect(manifest.assertions['c2pa.hash.data']).toMatchObject({
      alg: 'sha256',
      hash: expect.stringMatching(/^b64'[A-Za-z0-9+/]{43}='$/),
    });
  });

  it("describes the signer's certificate as the chain it signed with says", async () => {
    const manifest = active(await report(signed, { trustAnchors: root }));
    const leaf = new X509Certificate(signer.certChainPem);
    expect(manifest.signature).toMatchObject({
      algorithm: 'es256',
      certificateInfo: {
        serialNumber: leaf.serialNumber.toLowerCase().replace(/^0+/, ''),
        subject: { CN: DEVELOPMENT_SIGNER_COMMON_NAME },
        validity: {
          notBefore: new Date(leaf.validFrom).toISOString().replace('.000', ''),
          notAfter: new Date(leaf.validTo).toISOString().replace('.000', ''),
        },
      },
    });
    expect(manifest.signature).not.toHaveProperty('timeStampInfo');
  });

  it('reports trusted and untrusted signers with their codes', async () => {
    const trusted = active(await report(signed, { trustAnchors: root }));
    expect(codes(trusted, 'success')).toContain('signingCredential.trusted');
    expect(codes(trusted, 'failure')).toEqual([]);
    const untrusted = active(await report(signed));
    expect(codes(untrusted, 'failure')).toEqual(['signingCredential.untrusted']);
    expect(codes(untrusted, 'success')).not.toContain('signingCredential.trusted');
    expect(untrusted.validationResults.specVersion).toBe('2.3.0');
  });

  it('lists the hard-binding failure of an edited copy', async () => {
    const edited = Buffer.from(signed.bytes);
    // A byte of the entropy-coded picture, just before the end-of-image marker.
    edited[edited.length - 10] = (edited[edited.length - 10] ?? 0) ^ 0x01;
    const manifest = active(await report(edited, { trustAnchors: root }));
    expect(codes(manifest, 'failure')).toContain('assertion.dataHash.mismatch');
    expect(codes(manifest, 'success')).not.toContain('assertion.dataHash.match');
  });

  it('reads a detached store (.c2pa) against the image', async () => {
    const document = await report(signed.bytes, {
      trustAnchors: root,
      manifestStore: signed.manifestStore,
    });
    expect(active(document).label).toBe(signed.manifestId);
    expect(codes(active(document), 'success')).toContain('assertion.dataHash.match');
  });

  it('reports a file without provenance as no manifests', async () => {
    const document = await report(await photo('fig-0.25mp.jpg'));
    expect(document.manifests).toEqual([]);
  });
});

describe('readCrJson of other containers', () => {
  it.each(['png', 'webp', 'avif', 'tiff', 'gif'] as const)(
    'finds the store in %s',
    async (format) => {
      const image = await sharp(await photo('fig-0.25mp.jpg'))
        .toFormat(format)
        .toBuffer();
      const output = await signManifest(image, {}, signer);
      const document = await report(output, { trustAnchors: root });
      expect(active(document).label).toBe(output.manifestId);
      expect(codes(active(document), 'failure')).toEqual([]);
    },
  );
});

describe('time-stamps', () => {
  it("carry timeStampInfo: the authority's time and certificate", async () => {
    const stamped = await createSigner({
      kind: 'development',
      dataDir: data.dir,
      timestampAuthorityUrl: tsa.url,
    });
    const before = Date.now();
    const output = await signManifest(await photo('fig-0.25mp.jpg'), {}, stamped);
    const manifest = active(
      await report(output, { trustAnchors: root, tsaTrustList: tsa.rootPem }),
    );
    const info = manifest.signature.timeStampInfo as {
      timestamp: string;
      certificateInfo: { subject: { CN: string } };
    };
    expect(info.certificateInfo.subject.CN).toBe('Hallmark Test TSA');
    expect(Date.parse(info.timestamp)).toBeGreaterThanOrEqual(
      Math.floor(before / 1000) * 1000 - 1000,
    );
    expect(Date.parse(info.timestamp)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(codes(manifest, 'success')).toContain('timeStamp.trusted');

    // Judged at the stamp's time, a trusted time-stamp's signature reads the same at any time.
    const later = new Date('2099-01-01T00:00:00Z');
    const atLater = active(
      await report(output, {
        trustAnchors: root,
        tsaTrustList: tsa.rootPem,
        validationTime: later,
      }),
    );
    expect(atLater.validationResults.validationTime).toBe('2099-01-01T00:00:00Z');
    expect(atLater.validationResults.success).toEqual(manifest.validationResults.success);
  });
});

describe('validation time', () => {
  it('is the time asked for when the certificates are valid then as now', async () => {
    const at = new Date(Date.now() + 86_400_000);
    const manifest = active(await report(signed, { trustAnchors: root, validationTime: at }));
    expect(manifest.validationResults.validationTime).toBe(
      at.toISOString().replace(/\.\d+Z$/, 'Z'),
    );
  });

  it('is the time of reading without one', async () => {
    const before = Date.now();
    const manifest = active(await report(signed, { trustAnchors: root }));
    const time = Date.parse(manifest.validationResults.validationTime);
    expect(time).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(time).toBeLessThanOrEqual(Date.now());
  });

  it('is refused for an untimed signature whose certificate expired by then', async () => {
    const reading = readCrJson(signed, {
      trustAnchors: root,
      validationTime: new Date('2099-01-01T00:00:00Z'),
    });
    await expect(reading).rejects.toBeInstanceOf(ValidationTimeUnsupportedError);
    await expect(reading).rejects.toMatchObject({
      code: 'validation_time_unsupported',
      message: expect.stringContaining('not valid at 2099-01-01T00:00:00.000Z but valid now'),
    });
  });

  it('is refused before the certificate was issued', async () => {
    const reading = readCrJson(signed, { validationTime: new Date('2001-01-01T00:00:00Z') });
    await expect(reading).rejects.toBeInstanceOf(ValidationTimeUnsupportedError);
  });
});

describe('ingredients', () => {
  it("report the parent's manifest with the codes of its delta, newest first", async () => {
    const output = await signManifest(await c2paFixture('CA.jpg'), {}, signer);
    const document = await report(output, { trustAnchors: root });
    const [mine, parent, ...rest] = document.manifests;
    expect(rest).toEqual([]);
    expect(mine?.label).toBe(output.manifestId);
    expect(parent?.claim).toMatchObject({ 'dc:format': 'image/jpeg' });
    expect(mine?.ingredientDeltas).toEqual([
      expect.objectContaining({
        ingredientAssertionURI: `self#jumbf=/c2pa/${output.manifestId}/c2pa.assertions/c2pa.ingredient.v3`,
      }),
    ]);
    const delta = mine?.ingredientDeltas?.[0]?.validationDeltas;
    expect(parent?.validationResults.success).toEqual(delta?.success);
    expect(delta?.success.map((status) => status.code)).toContain('ingredient.manifest.validated');
    // CA.jpg's ingredient (A.jpg) carries no manifest: c2pa-node reads no delta for it, and its
    // recorded validation stays in the ingredient assertion.
    expect(parent?.ingredientDeltas).toBeUndefined();
    expect(mine?.assertions['c2pa.ingredient.v3']).toMatchObject({
      relationship: 'parentOf',
      activeManifest: { url: `self#jumbf=/c2pa/${parent?.label}` },
    });
    expect(parent?.assertions['c2pa.thumbnail.claim.jpeg']).toMatchObject({
      format: 'image/jpeg',
      hash: expect.stringMatching(/^b64'/),
    });
  });

  it('are absent from a manifest without ingredients', async () => {
    const document = await report(signed, { trustAnchors: root });
    expect(document.manifests.every((manifest) => manifest.ingredientDeltas === undefined)).toBe(
      true,
    );
  });
});
