import { request } from 'node:http';
import { join } from 'node:path';
import { HANG_MS, waitFor } from '@hallmark/runtime/testing';
import { verifyFile, verifyImage, watermarkFile } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.ts';
import { has, parsePrometheusText, type Sample, total } from './support/prometheus-text.ts';
import { type RunningService, startService } from './support/service.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/boats-0.6mp.jpg');
const TOKEN = 'metrics-token-for-the-test';

async function scrape(port: number, token: string | undefined = TOKEN): Promise<Sample[]> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

/** A GET on a new connection each time, so the cluster hands them to its processes in turn. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

describe('Prometheus metrics of the api and the worker (real processes)', () => {
  let service: RunningService;
  let apiPort: number;
  let workerPort: number;

  beforeAll(async () => {
    [apiPort, workerPort] = [await freePort(), await freePort()];
    service = await startService({
      METRICS_PORT: String(apiPort),
      WORKER_METRICS_PORT: String(workerPort),
      METRICS_TOKEN: TOKEN,
      // The key stays cached for the whole test however long a loaded machine makes it: the
      // test counts exactly one lookup that missed.
      API_KEY_CACHE_SECONDS: '300',
    });
  }, HANG_MS);

  afterAll(async () => {
    await service?.close();
  });

  it('a job and verifications show in both processes: requests, outcomes, steps, queues', async () => {
    const { client } = await service.newClient();
    const marked = await watermarkFile(
      client,
      photo,
      { watermarkType: ['invisible', 'c2pa'] },
      { minIntervalMs: 50, timeoutMs: HANG_MS },
    );
    const output = await marked.download();
    const inRequest = await verifyImage(client, output, { contentType: 'image/jpeg' });
    expect(inRequest.report.verdict).toBe('authentic');
    const asJob = await verifyFile(client, output, {
      contentType: 'image/jpeg',
      minIntervalMs: 50,
      timeoutMs: HANG_MS,
    });
    expect(asJob.report.verdict).toBe('authentic');

    const api = await scrape(apiPort);
    const requests = 'hallmark_http_request_duration_seconds_count';
    expect(total(api, requests, { route: '/watermark', method: 'POST', status: '202' })).toBe(1);
    expect(total(api, requests, { route: '/verify/file', method: 'POST', status: '200' })).toBe(1);
    expect(
      total(api, requests, { route: '/watermark/:requestId', method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    // No id ever becomes a label: the polled job's path is only its route template.
    expect(api.some((sample) => Object.values(sample.labels).includes(marked.job.requestId))).toBe(
      false,
    );
    expect(
      total(api, 'hallmark_verifications_total', { origin: 'api', verdict: 'authentic' }),
    ).toBe(1);
    const lookups = total(api, 'hallmark_api_key_lookups_total');
    expect(total(api, 'hallmark_api_key_lookups_total', { result: 'miss' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(total(api, 'hallmark_api_key_lookups_total', { result: 'hit' })).toBe(lookups - 1);
    expect(total(api, 'hallmark_stored_bytes_total', { store: 'storage' })).toBeGreaterThan(
      2 * 50_000,
    );
    expect(has(api, 'nodejs_eventloop_lag_seconds')).toBe(true);

    const worker = await scrape(workerPort);
    const runs = 'hallmark_jobs_total';
    expect(total(worker, runs, { kind: 'watermark', outcome: 'success', code: '' })).toBe(1);
    expect(total(worker, runs, { kind: 'verify', outcome: 'success', code: '' })).toBe(1);
    expect(total(worker, runs, { outcome: 'failed' })).toBe(0);
    expect(total(worker, 'hallmark_job_run_duration_seconds_count', { kind: 'watermark' })).toBe(1);
    for (const step of ['load', 'invisible', 'c2pa', 'store']) {
      expect(total(worker, 'hallmark_job_step_duration_seconds_count', { step }), step).toBe(1);
    }
    expect(
      total(worker, 'hallmark_verifications_total', { origin: 'job', verdict: 'authentic' }),
    ).toBe(1);
    expect(total(worker, 'hallmark_stored_bytes_total', { store: 'storage' })).toBe(
      output.byteLength,
    );
    for (const queue of ['watermark', 'verify']) {
      expect(has(worker, 'hallmark_queue_jobs', { queue, state: 'waiting' }), queue).toBe(true);
      expect(total(worker, 'hallmark_queue_oldest_waiting_seconds', { queue }), queue).toBe(0);
    }
    expect(has(worker, 'process_resident_memory_bytes')).toBe(true);
    // What the alerts watch: the development certificate's expiry (years away), the local
    // chain's funded minter, no webhook due.
    const expiry = total(worker, 'hallmark_signing_certificate_expiry_timestamp_seconds');
    expect(expiry).toBeGreaterThan(Date.now() / 1000 + 300 * 86_400);
    expect(total(worker, 'hallmark_nft_minter_balance_ether')).toBeGreaterThan(1);
    expect(has(worker, 'hallmark_webhook_deliveries_due')).toBe(true);
    expect(total(worker, 'hallmark_webhook_deliveries_due')).toBe(0);
  });

  it('asks for the token, and serves nothing else', async () => {
    for (const token of [undefined, 'wrong-token-of-the-same-len']) {
      const res = await fetch(`http://127.0.0.1:${apiPort}/metrics`, {
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    const other = await fetch(`http://127.0.0.1:${workerPort}/`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(other.status).toBe(404);
    // Not on the public port either.
    expect((await fetch(`${service.baseUrl}/metrics`)).status).toBe(404);
  });

  it('with API_PROCESSES=2, one answer sums what every process counted', async () => {
    await service.restartApi({ API_PROCESSES: '2' });
    // The supervisor sums what its processes answer: both must be up to answer.
    await waitFor(
      () => service.api.messages.filter((msg) => msg === 'api listening').length === 2,
      'both api processes to listen',
    );
    const sent = 12;
    for (let i = 0; i < sent; i++) {
      expect(await getOnNewConnection(`${service.baseUrl}/no-such-route`)).toBe(404);
    }
    // The supervisor hands new connections to its processes in turn: one process's figures
    // alone would hold about half of them.
    const api = await scrape(apiPort);
    expect(
      total(api, 'hallmark_http_request_duration_seconds_count', {
        route: 'unmatched',
        method: 'GET',
        status: '404',
      }),
    ).toBe(sent);
  });
});
