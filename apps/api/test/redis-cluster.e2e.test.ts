import { join } from 'node:path';
import { HANG_MS } from '@hallmark/runtime/testing';
import { watermarkFile } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisClusterSet, startRedisCluster } from './support/redis-cluster.ts';
import { type RunningService, startService } from './support/service.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');

describe('Redis Cluster: three primaries, every key under one hash-tagged prefix', () => {
  let cluster: RedisClusterSet;
  let service: RunningService;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    service = await startService({
      REDIS_CLUSTER_NODES: cluster.ports.map((port) => `127.0.0.1:${port}`).join(','),
      RATE_LIMIT_PER_MINUTE: '5',
    });
    // Twice a hang's length: a start-up step that hangs fails with its own message (and the
    // service's log) before the hook does.
  }, 2 * HANG_MS);

  afterAll(async () => {
    await service?.close();
    await cluster?.stop();
  });

  it('queues and runs jobs, and counts rate limits, on the cluster', async () => {
    const { client } = await service.newClient();
    const marked = await watermarkFile(
      client,
      photo,
      { watermarkType: ['c2pa'] },
      { minIntervalMs: 100, timeoutMs: HANG_MS },
    );
    expect(marked.job.status).toBe('success');

    // Every key is tagged `{prefix}`: one slot, so BullMQ's and the limiter's scripts run here.
    const prefix = service.env.REDIS_PREFIX ?? '';
    const keys: string[] = [];
    for (const port of cluster.ports) {
      keys.push(...(await cluster.cli(port, 'keys', `*${prefix}*`)).split('\n').filter(Boolean));
    }
    expect(keys.some((key) => key.startsWith(`{${prefix}}:watermark:`))).toBe(true);
    expect(keys.filter((key) => !key.startsWith(`{${prefix}}:`))).toEqual([]);

    // The per-key limit (5 a minute), counted in the cluster: a fresh key gets 5, then 429.
    const fresh = await service.newClient();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${service.baseUrl}/webhooks`, {
        headers: { authorization: `Bearer ${fresh.apiKey}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});
