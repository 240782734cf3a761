import { join } from 'node:path';
import { HANG_MS, waitFor } from '@hallmark/runtime/testing';
import { type HallmarkClient, watermarkFile } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SentinelSet, startSentinelSet } from './support/redis-sentinel.ts';
import { type RunningService, startService } from './support/service.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');

describe('Redis behind Sentinel: the primary killed mid-run, the replica promoted', () => {
  let sentinels: SentinelSet;
  let service: RunningService;
  let client: HallmarkClient;

  beforeAll(async () => {
    sentinels = await startSentinelSet();
    service = await startService({
      REDIS_SENTINELS: `127.0.0.1:${sentinels.sentinelPort}`,
      REDIS_SENTINEL_NAME: sentinels.name,
      // An entry the API could not queue while the primary was away is the reconciler's: soon.
      RECONCILE_INTERVAL_MS: '1000',
      RECONCILE_AFTER_MS: '2000',
    });
    ({ client } = await service.newClient());
  }, HANG_MS);

  afterAll(async () => {
    await service?.close();
    await sentinels?.stop();
  });

  const watermark = async () =>
    watermarkFile(
      client,
      photo,
      { watermarkType: ['c2pa'] },
      { minIntervalMs: 100, timeoutMs: HANG_MS },
    );

  it('jobs run through the primary the Sentinel names, and go on after a failover', async () => {
    const first = await watermark();
    expect(first.job.status).toBe('success');
    // The queue lives on the Sentinel's primary, not on the Redis of REDIS_URL.
    const prefix = service.env.REDIS_PREFIX ?? '';
    const keys = await sentinels.cli(sentinels.primaryPort, 'keys', `${prefix}:*`);
    expect(keys).toContain(`${prefix}:watermark:`);
    // Everything written so far is on the replica before the primary goes.
    expect(Number(await sentinels.cli(sentinels.primaryPort, 'wait', '1', '5000'))).toBe(1);

    sentinels.killPrimary();
    await waitFor(
      async () => (await sentinels.primaryNow().catch(() => 0)) === sentinels.replicaPort,
      'the Sentinel to promote the replica',
    );

    // The api (rate limits, queueing) and the worker (its blocking consumer) follow the Sentinel.
    const second = await watermark();
    expect(second.job.status).toBe('success');
    await waitFor(
      async () => (await fetch(`${service.baseUrl}/ready`)).status === 200,
      'the API to be ready again',
    );
    const moved = await sentinels.cli(sentinels.replicaPort, 'keys', `${prefix}:watermark:*`);
    expect(moved.split('\n').length).toBeGreaterThan(1);
  });
});
