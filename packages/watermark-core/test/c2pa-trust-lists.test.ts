// Which list vouches for a signer and its time-stamp: the public trust list a deployment adopts,
// the operator's own anchors, or none. A signer is trusted only when it chains to a configured
// anchor, and the summary names the list; a time-stamp's authority is judged on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSigner,
  type ManifestSigner,
  type ManifestSummary,
  readManifest,
  type SignedAsset,
  signManifest,
} from '../src/c2pa/index.ts';
import { photo, temporaryDataDir } from './c2pa-fixtures.ts';
import {
  startTimeStampAuthority,
  type TimeStampAuthority,
} from './support/time-stamp-authority.ts';

let tsa: TimeStampAuthority;
let data: Awaited<ReturnType<typeof temporaryDataDir>>;
let signer: ManifestSigner;
let signed: SignedAsset;
let root: string;

beforeAll(async () => {
  tsa = await startTimeStampAuthority();
  data = await temporaryDataDir();
  signer = await createSigner({
    kind: 'development',
    dataDir: data.dir,
    timestampAuthorityUrl: tsa.url,
  });
  root = signer.trustAnchorsPem ?? '';
  signed = await signManifest(await photo('fig-0.25mp.jpg'), {}, signer);
});
afterAll(async () => {
  await tsa.close();
  await data.remove();
});

function trustOf(summary: ManifestSummary) {
  if (!summary.present) throw new Error('no manifest');
  return {
    state: summary.validation.state,
    trustedBy: summary.signer?.trustedBy,
    timeStamp: summary.signer?.timeStamp,
  };
}

describe('trust lists', () => {
  it('trusts nobody without anchors', async () => {
    expect(trustOf(await readManifest(signed))).toEqual({
      state: 'valid_untrusted',
      trustedBy: null,
      timeStamp: 'untrusted',
    });
  });

  it("names the operator's anchors when the signer chains to one of them", async () => {
    expect(trustOf(await readManifest(signed, { trustAnchors: root }))).toEqual({
      state: 'trusted',
      trustedBy: 'operator_anchors',
      timeStamp: 'untrusted',
    });
  });

  it('names the adopted trust list, and trusts the time-stamp whose authority is on it', async () => {
    expect(trustOf(await readManifest(signed, { trustList: root + tsa.rootPem }))).toEqual({
      state: 'trusted',
      trustedBy: 'trust_list',
      timeStamp: 'trusted',
    });
  });

  it('trusts a time-stamp authority on a list without trusting a signer that is not', async () => {
    expect(trustOf(await readManifest(signed, { trustList: tsa.rootPem }))).toEqual({
      state: 'valid_untrusted',
      trustedBy: null,
      timeStamp: 'trusted',
    });
  });
});
