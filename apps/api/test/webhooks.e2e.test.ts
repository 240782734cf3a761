import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sealSecret } from '@hallmark/config';
import { type HallmarkClient, verifyWebhook, watermarkFile } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemOf } from './support/problem.ts';
import { type RunningService, startService } from './support/service.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');
const mark = { watermarkType: ['c2pa' as const], data: { author: 'Ada' } };
const webhookEnv = {
  // The receivers of this test are on loopback; a deployment refuses that by default.
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1',
  WEBHOOK_POLL_MS: '100',
};

describe('signed webhooks (Standard Webhooks) from the real worker to a real receiver', () => {
  let service: RunningService;
  let client: HallmarkClient;
  const receivers: WebhookReceiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };

  beforeAll(async () => {
    service = await startService({
      ...webhookEnv,
      // Far longer than any answer takes, however loaded the machine: the exact attempt logs below
      // count no attempt that ran out of time. The time limit has a test of its own below.
      WEBHOOK_TIMEOUT_MS: '30000',
    });
    client = (await service.newClient()).client;
  });

  afterAll(async () => {
    await Promise.all(receivers.map((started) => started.close()));
    await service?.close();
  });

  it("delivers a job's event signed with the endpoint's secret, verified by the SDK, logged once", async () => {
    const hooks = await receiver();
    const endpoint = await client.createWebhookEndpoint({ url: hooks.url });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const { job } = await watermarkFile(client, photo, mark, { minIntervalMs: 50 });
    const [delivery] = await hooks.waitFor(1);
    if (delivery === undefined) throw new Error('no delivery');
    const event = await verifyWebhook(
      delivery.body,
      delivery.headers as Record<string, string>,
      endpoint.secret ?? '',
    );
    expect(event).toMatchObject({
      type: 'watermark.succeeded',
      data: { requestId: job.requestId, status: 'success', fileId: job.fileId },
    });
    expect(delivery.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    // The listing never shows the secret again; the log has the one attempt.
    const listed = await client.listWebhookEndpoints();
    expect(listed.items.find((item) => item.id === endpoint.id)).not.toHaveProperty('secret');
    await expect
      .poll(async () => (await client.listWebhookDeliveries(endpoint.id)).items[0]?.status)
      .toBe('succeeded');
    const log = (await client.listWebhookDeliveries(endpoint.id)).items[0]?.log ?? [];
    expect(log.map((attempt) => attempt.statusCode)).toEqual([200]);
    await client.deleteWebhookEndpoint(endpoint.id);
  });

  it('retries a receiver that answers 500 twice, then 200: three attempts, all in the log', async () => {
    const { client: own } = await service.newClient();
    const hooks = await receiver((index) => (index < 2 ? 500 : 200));
    const endpoint = await own.createWebhookEndpoint({
      url: hooks.url,
      events: ['watermark.succeeded'],
    });
    await watermarkFile(own, photo, mark, { minIntervalMs: 50 });
    const deliveries = await hooks.waitFor(3);
    // The same event each time: one webhook-id, receivers deduplicate on it.
    expect(new Set(deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    await expect
      .poll(async () => (await own.listWebhookDeliveries(endpoint.id)).items[0]?.status)
      .toBe('succeeded');
    const [logged] = (await own.listWebhookDeliveries(endpoint.id)).items;
    expect(logged?.attempts).toBe(3);
    expect(logged?.log.map((attempt) => attempt.statusCode)).toEqual([500, 500, 200]);
    expect(logged?.log[0]?.responseExcerpt).toBe('answer 500');
    expect(hooks.received).toHaveLength(3);
  });

  it('a secret sealed under another HALLMARK_SECRET: nothing is sent, each attempt says why, then the delivery fails', async () => {
    const { client: own } = await service.newClient();
    const hooks = await receiver();
    const endpoint = await own.createWebhookEndpoint({
      url: hooks.url,
      events: ['watermark.succeeded'],
    });
    await service.prisma.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { sealedSecret: sealSecret(randomBytes(32), 'whsec_from_another_deployment') },
    });
    await watermarkFile(own, photo, mark, { minIntervalMs: 50 });
    // The first attempt and the schedule's three retries, then no more.
    await expect
      .poll(async () => (await own.listWebhookDeliveries(endpoint.id)).items[0]?.status, {
        timeout: 60_000,
      })
      .toBe('failed');
    const [logged] = (await own.listWebhookDeliveries(endpoint.id)).items;
    expect(logged?.log).toHaveLength(4);
    for (const attempt of logged?.log ?? []) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/signing secret cannot be opened/);
    }
    expect(hooks.received).toHaveLength(0);
  });

  it('a receiver that never answers holds nobody: other jobs and deliveries go on', async () => {
    const { client: stuck } = await service.newClient();
    const silent = await receiver(() => 'hang');
    const stuckEndpoint = await stuck.createWebhookEndpoint({ url: silent.url });
    const { client: other } = await service.newClient();
    const hooks = await receiver();
    await other.createWebhookEndpoint({ url: hooks.url });

    await watermarkFile(stuck, photo, mark, { minIntervalMs: 50 });
    await silent.waitFor(1);
    // While the silent endpoint holds its attempt (30 s), another key's job and event go through.
    const { job } = await watermarkFile(other, photo, mark, { minIntervalMs: 50 });
    const [delivery] = await hooks.waitFor(1);
    expect(JSON.parse(delivery?.body ?? '{}').data.requestId).toBe(job.requestId);
    const [held] = (await stuck.listWebhookDeliveries(stuckEndpoint.id)).items;
    expect(held?.log).toEqual([]);
    // Its attempt then fails at once instead of holding a slot for the rest of the file.
    await silent.close();
  });

  it("one key's endpoints that never answer take at most WEBHOOK_CONCURRENCY_PER_KEY slots: another key's delivery goes through", async () => {
    const { client: tarpit } = await service.newClient();
    // Eight endpoints, the worker's eight slots: each would hold one for 30 s.
    const silent = await Promise.all(Array.from({ length: 8 }, () => receiver(() => 'hang')));
    for (const hooks of silent) await tarpit.createWebhookEndpoint({ url: hooks.url });
    const { client: other } = await service.newClient();
    const hooks = await receiver();
    await other.createWebhookEndpoint({ url: hooks.url });

    await watermarkFile(tarpit, photo, mark, { minIntervalMs: 50 });
    await expect
      .poll(() => silent.reduce((sum, each) => sum + each.received.length, 0))
      .toBeGreaterThanOrEqual(4);
    const { job } = await watermarkFile(other, photo, mark, { minIntervalMs: 50 });
    const [delivery] = await hooks.waitFor(1);
    expect(JSON.parse(delivery?.body ?? '{}').data.requestId).toBe(job.requestId);
    // The other key's event came while the tarpit's key held its four slots, no more.
    expect(silent.reduce((sum, each) => sum + each.received.length, 0)).toBe(4);
    await Promise.all(silent.map((each) => each.close()));
  });

  it('a redelivery asked for while an attempt is under way leaves that attempt alone: one at a time', async () => {
    const { client: own } = await service.newClient();
    const silent = await receiver(() => 'hang');
    const endpoint = await own.createWebhookEndpoint({ url: silent.url });
    await watermarkFile(own, photo, mark, { minIntervalMs: 50 });
    await silent.waitFor(1);
    const [held] = (await own.listWebhookDeliveries(endpoint.id)).items;
    const answer = await own.redeliverWebhook(endpoint.id, held?.id ?? '');
    expect(answer).toMatchObject({ id: held?.id, status: 'pending' });
    // Many polls of the workers later, the endpoint still has the one request in flight.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(silent.received).toHaveLength(1);
    await silent.close();
  });

  it('rotation signs with both secrets for a while; redelivery sends the same event again', async () => {
    const { client: own } = await service.newClient();
    const hooks = await receiver();
    const endpoint = await own.createWebhookEndpoint({ url: hooks.url });
    const rotated = await own.rotateWebhookSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.previousSecretExpiresAt).toBeGreaterThan(Date.now() / 1000);
    await watermarkFile(own, photo, mark, { minIntervalMs: 50 });
    const [first] = await hooks.waitFor(1);
    if (first === undefined) throw new Error('no delivery');
    const headers = first.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret ?? '', rotated.secret ?? '']) {
      await expect(verifyWebhook(first.body, headers, secret)).resolves.toBeDefined();
    }
    await expect
      .poll(async () => (await own.listWebhookDeliveries(endpoint.id)).items[0]?.status)
      .toBe('succeeded');
    const [delivery] = (await own.listWebhookDeliveries(endpoint.id)).items;
    await own.redeliverWebhook(endpoint.id, delivery?.id ?? '');
    const [, again] = await hooks.waitFor(2);
    expect(again?.headers['webhook-id']).toBe(first.headers['webhook-id']);
  });

  it('disables an endpoint that failed for longer than WEBHOOK_DISABLE_AFTER_HOURS, and says so', async () => {
    const { client: own } = await service.newClient();
    const failing = await receiver(() => 503);
    const endpoint = await own.createWebhookEndpoint({ url: failing.url });
    // Its failing streak began days ago (as if every attempt since then had failed).
    await service.prisma.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { failingSince: new Date(Date.now() - 6 * 86_400_000) },
    });
    await watermarkFile(own, photo, mark, { minIntervalMs: 50 });
    await failing.waitFor(1);
    await expect
      .poll(async () => (await own.listWebhookEndpoints()).items[0]?.disabledAt ?? null)
      .not.toBeNull();
    const [listed] = (await own.listWebhookEndpoints()).items;
    expect(listed?.disabledReason).toMatch(/^Every delivery attempt failed since /);
    const [delivery] = (await own.listWebhookDeliveries(endpoint.id)).items;
    const problem = await problemOf(() => own.redeliverWebhook(endpoint.id, delivery?.id ?? ''));
    expect(problem.status).toBe(409);
    expect(problem.type).toBe('https://hallmark.dev/problems/endpoint-disabled');
  });

  it("another key's endpoints and deliveries answer 404", async () => {
    const { client: owner } = await service.newClient();
    const hooks = await receiver();
    const endpoint = await owner.createWebhookEndpoint({ url: hooks.url });
    const { client: stranger } = await service.newClient();
    for (const call of [
      () => stranger.rotateWebhookSecret(endpoint.id),
      () => stranger.listWebhookDeliveries(endpoint.id),
      () => stranger.deleteWebhookEndpoint(endpoint.id),
      () => stranger.redeliverWebhook(endpoint.id, crypto.randomUUID()),
    ]) {
      expect((await problemOf(call)).status).toBe(404);
    }
    expect((await stranger.listWebhookEndpoints()).items).toEqual([]);
  });
});

describe('a webhook receiver that never answers', () => {
  let service: RunningService;
  let silent: WebhookReceiver | undefined;

  beforeAll(async () => {
    service = await startService({ ...webhookEnv, WEBHOOK_TIMEOUT_MS: '1500' });
  });

  afterAll(async () => {
    await silent?.close();
    await service?.close();
  });

  it('its attempt ends at the time limit, logged as such', async () => {
    const { client } = await service.newClient();
    silent = await startReceiver(() => 'hang');
    const endpoint = await client.createWebhookEndpoint({ url: silent.url });
    await watermarkFile(client, photo, mark, { minIntervalMs: 50 });
    await silent.waitFor(1);
    await expect
      .poll(async () => (await client.listWebhookDeliveries(endpoint.id)).items[0]?.log[0]?.error)
      .toBe('no answer within 1500 ms');
  });
});

describe('webhook endpoints on a default deployment', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ QUOTA_WEBHOOK_ENDPOINTS: '3' });
  });

  it('a key registers at most QUOTA_WEBHOOK_ENDPOINTS endpoints, even all at once; a deleted one frees its place', async () => {
    const { bearer } = await t.newClient();
    const register = () =>
      t.app.inject({
        method: 'POST',
        url: '/webhooks',
        headers: { authorization: bearer },
        payload: { url: 'https://hooks.example.com/hallmark' },
      });
    const statuses = (await Promise.all(Array.from({ length: 8 }, register))).map(
      (res) => res.statusCode,
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    const refused = await register();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ quota: 'webhook_endpoints', limit: 3 });
    const listed = await t.app.inject({
      method: 'GET',
      url: '/webhooks',
      headers: { authorization: bearer },
    });
    const [first] = listed.json().items as Array<{ id: string }>;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/webhooks/${first?.id}`,
      headers: { authorization: bearer },
    });
    expect(deleted.statusCode).toBe(204);
    expect((await register()).statusCode).toBe(201);
  });

  afterAll(async () => {
    await t?.close();
  });

  it.each([
    'http://127.0.0.1:8080/hooks',
    'http://localhost/hooks',
    'http://[::1]/hooks',
    'http://169.254.169.254/latest',
    'http://10.0.0.5/hooks',
  ])('refuses %s (a private address) with a 400 naming the url', async (url) => {
    const { bearer } = await t.newClient();
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: { authorization: bearer },
      payload: { url },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json().errors).toEqual([{ path: 'url', message: expect.stringMatching(/private/) }]);
  });
});
