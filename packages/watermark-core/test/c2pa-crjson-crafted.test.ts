// Crafted and damaged manifest stores: the crJSON decoder refuses each with its typed error
// (MalformedManifestStoreError), never a RangeError, a crash or an endless walk.
import { beforeAll, describe, expect, it } from 'vitest';
import { readAssertions } from '../src/c2pa/crjson/assertions.ts';
import { readClaim } from '../src/c2pa/crjson/claim.ts';
import { embeddedManifestStore } from '../src/c2pa/crjson/container-store.ts';
import { readClaimSignature } from '../src/c2pa/crjson/cose-signature.ts';
import { CrJsonError, MalformedManifestStoreError } from '../src/c2pa/crjson/errors.ts';
import { readManifestBoxes, type StoredManifest } from '../src/c2pa/crjson/manifest-boxes.ts';
import { readSignature } from '../src/c2pa/crjson/signature.ts';
import { createSigner, type SignedAsset, signManifest } from '../src/c2pa/index.ts';
import { photo, temporaryDataDir } from './c2pa-fixtures.ts';

let signed: SignedAsset;

beforeAll(async () => {
  const data = await temporaryDataDir();
  const signer = await createSigner({ kind: 'development', dataDir: data.dir });
  signed = await signManifest(await photo('fig-0.25mp.jpg'), { fileId: 'f' }, signer);
  await data.remove();
});

/** Everything readCrJson decodes from a store's bytes. */
function decodeStore(store: Uint8Array): number {
  const manifests = readManifestBoxes(store);
  for (const manifest of manifests) {
    readClaim(manifest);
    readSignature(readClaimSignature(manifest.signature, manifest.label));
    readAssertions(manifest);
  }
  return manifests.length;
}

function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const length = 8 + payload.reduce((total, part) => total + part.length, 0);
  const out = Buffer.alloc(length);
  out.writeUInt32BE(length);
  out.write(type, 4, 'latin1');
  Buffer.concat(payload).copy(out, 8);
  return out;
}

/** A description box with C2PA's content type for `kind` (`c2pa`, `c2ma`, `c2cl`...). */
function description(kind: string, label: string): Uint8Array {
  return box(
    'jumd',
    Buffer.from(kind, 'latin1'),
    Buffer.from('00110010800000aa00389b71', 'hex'),
    Buffer.from([0x03]),
    Buffer.from(`${label}\0`, 'utf8'),
  );
}

function superbox(kind: string, label: string, ...children: Uint8Array[]): Uint8Array {
  return box('jumb', description(kind, label), ...children);
}

/** A store of one manifest whose claim box holds `claim` as its CBOR. */
function storeWithClaim(claim: Uint8Array): Uint8Array {
  return superbox(
    'c2pa',
    'c2pa',
    superbox(
      'c2ma',
      'urn:c2pa:crafted',
      superbox('c2as', 'c2pa.assertions'),
      superbox('c2cl', 'c2pa.claim.v2', box('cbor', claim)),
      superbox('c2cs', 'c2pa.signature', box('cbor', Buffer.from([0xf6]))),
    ),
  );
}

function expectMalformed(run: () => unknown, reason: RegExp): void {
  expect(run).toThrow(MalformedManifestStoreError);
  expect(run).toThrow(reason);
}

describe('the crJSON decoder on crafted stores', () => {
  it('decodes the real store it is compared with', () => {
    expect(decodeStore(signed.manifestStore)).toBe(1);
  });

  it('refuses every truncation of a real store', () => {
    const store = signed.manifestStore;
    for (let length = 0; length < store.length; length += 37) {
      expectMalformed(() => decodeStore(store.subarray(0, length)), /malformed/);
    }
  });

  it('survives damage anywhere in a real store with a typed error or a report', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    let refused = 0;
    for (let round = 0; round < 400; round += 1) {
      const damaged = Buffer.from(signed.manifestStore);
      for (let flips = 1 + (next() % 4); flips > 0; flips -= 1) {
        damaged[next() % damaged.length] = next() % 256;
      }
      try {
        decodeStore(damaged);
      } catch (error) {
        expect(error).toBeInstanceOf(CrJsonError);
        refused += 1;
      }
    }
    // Flips land in lengths and labels often enough that some rounds must have been refused.
    expect(refused).toBeGreaterThan(0);
  });

  it('refuses a box length past the end, and a 64-bit one of exabytes', () => {
    const huge = Buffer.from(signed.manifestStore);
    huge.writeUInt32BE(0xffffffff, 0);
    expectMalformed(() => decodeStore(huge), /runs past the end/);
    const extended = Buffer.concat([
      Buffer.from([0, 0, 0, 1]),
      Buffer.from('jumb', 'latin1'),
      Buffer.from([0x40, 0, 0, 0, 0, 0, 0, 0]),
      description('c2pa', 'c2pa'),
    ]);
    expectMalformed(() => decodeStore(extended), /impossible length/);
  });

  it('refuses superboxes nested without end', () => {
    let nested = superbox('c2ma', 'deep');
    for (let depth = 0; depth < 2_000; depth += 1) nested = superbox('c2ma', 'deep', nested);
    expectMalformed(() => decodeStore(superbox('c2pa', 'c2pa', nested)), /nest too deeply/);
  });

  it('refuses a store of countless empty boxes', () => {
    const empty = box('free');
    const many = Buffer.concat(Array.from({ length: 120_000 }, () => empty));
    expectMalformed(() => decodeStore(superbox('c2pa', 'c2pa', many)), /too many boxes/);
  });

  it('refuses a claim whose CBOR nests without end, or is not CBOR', () => {
    const deep = Buffer.concat([Buffer.alloc(200_000, 0x81), Buffer.from([0x00])]);
    expectMalformed(() => decodeStore(storeWithClaim(deep)), /claim of urn:c2pa:crafted/);
    expectMalformed(() => decodeStore(storeWithClaim(Buffer.from([0xff, 0xff]))), /not valid CBOR/);
  });

  it('refuses a manifest without its signature, and a signature that is no COSE_Sign1', () => {
    const unsigned = superbox(
      'c2pa',
      'c2pa',
      superbox(
        'c2ma',
        'urn:c2pa:x',
        superbox('c2cl', 'c2pa.claim.v2', box('cbor', Buffer.from([0xa0]))),
      ),
    );
    expectMalformed(() => decodeStore(unsigned), /lacks its claim or its signature/);
    const claim = Buffer.from('a1 6a 696e7374616e63654944 61 78'.replaceAll(' ', ''), 'hex');
    expectMalformed(() => decodeStore(storeWithClaim(claim)), /not a COSE_Sign1/);
  });

  it('refuses a JPEG whose APP11 segment runs past the end of the file', () => {
    const jpeg = Buffer.from(signed.bytes);
    const app11 = jpeg.indexOf(Buffer.from([0xff, 0xeb]));
    jpeg.writeUInt16BE(0xffff, app11 + 2);
    const cut = jpeg.subarray(0, app11 + 1000);
    expectMalformed(() => embeddedManifestStore(cut), /runs past the end/);
  });
});

describe('the crJSON decoder keeps a damaged assertion to itself', () => {
  it('writes an assertion that is not CBOR as a reference to its box', () => {
    const [manifest] = readManifestBoxes(signed.manifestStore) as [StoredManifest];
    const damaged: StoredManifest = {
      ...manifest,
      assertions: manifest.assertions.map((assertion) =>
        assertion.label === 'io.hallmark.provenance'
          ? { ...assertion, content: { kind: 'cbor', bytes: Buffer.from([0xff]) } }
          : assertion,
      ),
    };
    expect(readAssertions(damaged)['io.hallmark.provenance']).toEqual({
      identifier: `self#jumbf=/c2pa/${manifest.label}/c2pa.assertions/io.hallmark.provenance`,
      hash: expect.stringMatching(/^b64'/),
    });
  });
});
