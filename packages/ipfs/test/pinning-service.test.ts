import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PinningService } from '../src/index.ts';
import {
  type FakePinningService,
  startFakePinningService,
} from './support/fake-pinning-service.ts';
import { deadUrl } from './support/http-server.ts';

async function cidOf(value: unknown): Promise<CID> {
  return CID.create(1, json.code, await sha256.digest(json.encode(value)));
}

describe('PinningService (IPFS Pinning Service API)', () => {
  let fake: FakePinningService;
  let service: PinningService;

  beforeEach(async () => {
    fake = await startFakePinningService();
    service = new PinningService({
      endpoint: `${fake.endpoint}/`,
      token: fake.token,
      pollIntervalMs: 1,
    });
  });

  afterEach(async () => {
    await fake.close();
  });

  it('requests a pin with the bearer token and polls until it is pinned', async () => {
    const cid = await cidOf({ a: 1 });
    expect(await service.pin(cid, { name: 'record', origins: ['/ip4/203.0.113.7/tcp/4001'] })).toBe(
      'pinned',
    );
    expect(fake.requests).toMatchObject([
      { cid: cid.toString(), name: 'record', status: 'pinned' },
    ]);
  });

  it('reuses the request already made for a CID instead of pinning twice', async () => {
    const cid = await cidOf({ b: 1 });
    await service.pin(cid);
    expect(await service.pin(cid)).toBe('pinned');
    expect(fake.requests).toHaveLength(1);
    expect(await service.find(await cidOf({ never: 'pinned' }))).toBeUndefined();
  });

  it('returns the status it has when the wait runs out (the service keeps going)', async () => {
    const impatient = new PinningService({
      endpoint: fake.endpoint,
      token: fake.token,
      waitMs: 0,
    });
    expect(await impatient.pin(await cidOf({ c: 1 }))).toBe('queued');
  });

  it('throws pin_failed when the service gives up on the CID', async () => {
    const cid = await cidOf({ d: 1 });
    fake.unpinnable.add(cid.toString());
    await expect(service.pin(cid)).rejects.toMatchObject({ code: 'pin_failed' });
  });

  it('reports a refused token and an unknown request with the service’s reason', async () => {
    const wrongToken = new PinningService({ endpoint: fake.endpoint, token: 'nope' });
    await expect(wrongToken.pin(await cidOf({ e: 1 }))).rejects.toMatchObject({
      code: 'ipfs_failed',
      message: expect.stringContaining('UNAUTHORIZED'),
    });
    await expect(service.status('r404')).rejects.toMatchObject({ code: 'ipfs_not_found' });
  });

  it('reports a service that cannot be reached as ipfs_unreachable', async () => {
    const gone = new PinningService({ endpoint: await deadUrl(), token: 't' });
    await expect(gone.pin(await cidOf({ f: 1 }))).rejects.toMatchObject({
      code: 'ipfs_unreachable',
    });
  });
});
