import { join } from 'node:path';
import { HANG_MS, waitFor } from '@hallmark/runtime/testing';
import { watermarkFile } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.ts';
import { type RunningService, startService } from './support/service.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/boats-0.6mp.jpg');

// OpenTelemetry's SpanKind values, as OTLP numbers them (SPAN_KIND_SERVER is 2, and so on).
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;
const CLIENT = 3;

describe('traces across the api, the queue and the worker (real processes, OTLP/HTTP)', () => {
  let receiver: OtlpReceiver;
  let hooks: WebhookReceiver;
  let service: RunningService;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    hooks = await startReceiver();
    service = await startService({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // The webhook receiver is on loopback; a deployment refuses that by default.
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_POLL_MS: '100',
    });
  }, HANG_MS);

  afterAll(async () => {
    await service?.close();
    await hooks?.close();
    await receiver?.stop();
  });

  const find = (predicate: (span: ReceivedSpan) => boolean) => receiver.spans.find(predicate);
  /** What `look` finds once the exports have brought it. */
  async function arrived<T>(look: () => T | undefined, what: string): Promise<T> {
    let found: T | undefined;
    await waitFor(() => {
      found = look();
      return found !== undefined;
    }, what);
    return found as T;
  }

  it('one trace: the request, the queued entry, the run, its steps and its webhook', async () => {
    const { client } = await service.newClient();
    await client.createWebhookEndpoint({ url: hooks.url });
    const marked = await watermarkFile(
      client,
      photo,
      { watermarkType: ['invisible', 'c2pa'] },
      { minIntervalMs: 50, timeoutMs: HANG_MS },
    );
    const requestId = marked.job.requestId;
    const run = await arrived(
      () =>
        find(
          (span) =>
            span.name === 'watermark process' &&
            span.attributes['hallmark.request_id'] === requestId,
        ),
      'the worker span of the job',
    );
    expect([run.service, run.kind]).toEqual(['hallmark-worker', CONSUMER]);
    const send = find((span) => span.spanId === run.parentSpanId);
    expect(send).toMatchObject({
      service: 'hallmark-api',
      name: 'watermark send',
      kind: PRODUCER,
      traceId: run.traceId,
    });
    const request = find((span) => span.spanId === send?.parentSpanId);
    expect(request).toMatchObject({
      service: 'hallmark-api',
      name: 'POST /watermark',
      kind: SERVER,
      traceId: run.traceId,
      attributes: { 'http.route': '/watermark', 'http.response.status_code': 202 },
    });
    const steps = await arrived(() => {
      const found = receiver.spans.filter((span) => span.parentSpanId === run.spanId);
      return found.length >= 4 ? found : undefined;
    }, 'the step spans');
    expect(steps.map((span) => span.name)).toEqual(
      expect.arrayContaining(['step load', 'step invisible', 'step c2pa', 'step store']),
    );
    expect(new Set(steps.map((span) => span.traceId))).toEqual(new Set([run.traceId]));

    // The job's event, delivered later from its row, continues the run's trace to the receiver.
    const [delivery] = await hooks.waitFor(1);
    const traceparent = String(delivery?.headers.traceparent);
    expect(traceparent).toMatch(new RegExp(`^00-${run.traceId}-[0-9a-f]{16}-01$`));
    const webhook = await arrived(
      () => find((span) => span.name === 'webhook send' && span.traceId === run.traceId),
      'the webhook span',
    );
    expect(webhook).toMatchObject({
      service: 'hallmark-worker',
      kind: CLIENT,
      parentSpanId: run.spanId,
      attributes: {
        'hallmark.event_type': 'watermark.succeeded',
        'http.response.status_code': 200,
      },
    });
    expect(traceparent.split('-')[2]).toBe(webhook.spanId);
  });

  it("continues a caller's trace from its traceparent header", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${service.baseUrl}/health`, {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(res.status).toBe(200);
    const span = await arrived(
      () => find((candidate) => candidate.traceId === traceId),
      'the span of the traced request',
    );
    expect(span).toMatchObject({ name: 'GET /health', parentSpanId: '00f067aa0ba902b7' });
  });

  it('with OTEL_TRACES_SAMPLER_ARG=0 new traces are dropped, a sampled caller is still followed', async () => {
    await service.restartApi({ OTEL_TRACES_SAMPLER_ARG: '0' });
    const before = receiver.spans.length;
    expect((await fetch(`${service.baseUrl}/health?unsampled`)).status).toBe(200);
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    await fetch(`${service.baseUrl}/health`, {
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    await arrived(
      () => find((candidate) => candidate.traceId === traceId),
      "the span of the caller's sampled trace",
    );
    const since = receiver.spans.slice(before).filter((span) => span.service === 'hallmark-api');
    expect(since.map((span) => span.traceId)).toEqual([traceId]);
  });
});
