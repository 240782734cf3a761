// `pnpm --filter @hallmark/api bench`: the service's HTTP cost per request, as a ratio to a bare
// Fastify route returning the same JSON in the same run (absolute numbers on these machines are
// noise). Api and worker run as real processes on a private database and Redis prefix.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { uploadFile, waitForJob } from '@hallmark/sdk';
import { startService } from '../test/support/service.ts';
import {
  benchProcesses,
  benchRoutes,
  type Measured,
  type Route,
  type RouteResult,
  RUNS,
  startBenchServer,
} from './http.ts';
import { benchJobs, benchRecordSteps } from './jobs.ts';
import { benchObservability, type ObservabilityCost } from './observability.ts';
import { benchVerifyFile } from './verify.ts';
import { benchVerifyContent } from './verify-content.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const JOB_ROUNDS = Number(process.env.BENCH_JOB_ROUNDS ?? 6);
const CONNECTIONS = 10;
const PROCESSES = 2;
// Scale-out is measured with work queued at every process: autocannon is a closed loop, and 10
// connections split 5 per process leave each one waiting on the load generator about a third of
// the time (the box ~180 % busy), which measures the loop's latency rather than capacity.
const CONNECTIONS_PER_PROCESS = 20;
const JOBS_TARGET = 1.1;
/** Metrics on may cost the request path at most 5 % of its throughput. */
const METRICS_TARGET = 0.95;
/** The content check may add at most this share to verifying a marked 12 MP JPEG. */
const CONTENT_TARGET = 1.2;
const verdict = (met: boolean) => (met ? 'ok' : 'MISSED');
const photo = readFileSync(join(import.meta.dirname, '../../../fixtures/c2pa/no_manifest.jpg'));

// No limits: the bench measures the service, not its rate limiter (uploads count per address).
const unlimited = {
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000000',
};

if (process.env.BENCH_SKIP_HTTP !== '1') await benchHttp();
if (process.env.BENCH_SKIP_JOBS !== '1') await benchJobsAndSteps();

/**
 * The request path, on a service of its own with one API process (the floor is one process too)
 * and no worker: the jobs POST /watermark accepts stay queued instead of taking the CPU.
 */
async function benchHttp(): Promise<void> {
  const service = await startService({ ...unlimited, API_PROCESSES: '1' });
  const servers: Array<{ stop(): void }> = [];
  try {
    const { client, apiKey } = await service.newClient();
    const link = await client.createUploadLink({
      contentType: 'image/jpeg',
      fileName: 'photo.jpg',
    });
    await uploadFile(link.uploadLink, photo, 'image/jpeg');
    const watermark = JSON.stringify({ fileId: link.fileId, options: { watermarkType: ['c2pa'] } });
    const accepted = await client.createWatermarkJob(JSON.parse(watermark));
    const job = await waitForJob(client, accepted.requestId);
    await service.worker.stop();
    // autocannon runs in this process: it must not also parse the api's access log.
    service.api.unfollow();
    const bare = await startBenchServer('bare-server.ts', [
      JSON.stringify(job),
      JSON.stringify(link),
      JSON.stringify(accepted),
    ]);
    servers.push(bare);
    const floor = await startBenchServer('floor-server.ts', [], service.env);
    servers.push(floor);
    const status: Route = {
      name: 'GET /watermark/{requestId}',
      method: 'GET',
      path: `/watermark/${accepted.requestId}`,
    };
    const routes: Route[] = [
      status,
      {
        name: 'POST /claim/file-upload-link',
        method: 'POST',
        path: '/claim/file-upload-link',
        body: JSON.stringify({ contentType: 'image/jpeg', fileName: 'photo.jpg' }),
      },
      { name: 'POST /watermark', method: 'POST', path: '/watermark', body: watermark },
    ];
    const bearer = `Bearer ${apiKey}`;
    const options = { seconds: SECONDS, connections: CONNECTIONS };
    const results = await benchRoutes(
      { service: service.baseUrl, floor: floor.url, bare: bare.url },
      routes,
      bearer,
      options,
    );
    const processes = await benchProcesses(service, status, bearer, PROCESSES, {
      ...options,
      connections: CONNECTIONS_PER_PROCESS * PROCESSES,
    });
    printRoutes(results, processes);
    printObservability(await benchObservability(service, status, bearer, options));
  } finally {
    for (const server of servers) server.stop();
    await service.close();
  }
}

async function benchJobsAndSteps(): Promise<void> {
  const service = await startService(unlimited);
  try {
    const { client, apiKey } = await service.newClient();
    const lanes = Number(service.env.WORKER_CONCURRENCY ?? availableParallelism());
    const jobs = await benchJobs(service, client, 50, lanes, JOB_ROUNDS);
    const overhead = jobs.medianRatio;
    const steps = await benchRecordSteps(service, client, 10);
    console.log('');
    console.log(`| measure | ms | baseline | baseline ms | ratio | target |`);
    console.log(`|---|---|---|---|---|---|`);
    const what = `${jobs.jobs} jobs end to end (1 MP, invisible + c2pa, ${lanes} lanes)`;
    for (const [i, round] of jobs.rounds.entries()) {
      console.log(
        `| ${what}, round ${i + 1} | ${round.serviceMs.toFixed(0)} | watermark-core called directly | ${round.directMs.toFixed(0)} | ${(round.serviceMs / round.directMs).toFixed(2)}x | |`,
      );
    }
    console.log(
      `| ${what}, median of ${jobs.rounds.length} rounds | | | | ${overhead.toFixed(2)}x | <= ${JOBS_TARGET}x ${verdict(overhead <= JOBS_TARGET)} |`,
    );
    console.log(
      `| IPFS store per job (mean of ${steps.jobs}) | ${steps.ipfsMs.toFixed(1)} | watermark steps of the job | ${steps.watermarkMs.toFixed(1)} | ${(steps.ipfsMs / steps.watermarkMs).toFixed(2)}x | |`,
    );
    console.log(
      `| NFT mint per job, incl. image + metadata on IPFS (mean of ${steps.jobs}, local anvil) | ${steps.nftMs.toFixed(1)} | watermark steps of the job | ${steps.watermarkMs.toFixed(1)} | ${(steps.nftMs / steps.watermarkMs).toFixed(2)}x | |`,
    );
    const verification = await benchVerifyFile(service.baseUrl, apiKey);
    console.log(
      `| POST /verify/file, 1 MP JPEG, one at a time (median of ${verification.rounds}) | ${verification.ms.toFixed(1)} | examineImage called directly | ${verification.directMs.toFixed(1)} | ${(verification.ms / verification.directMs).toFixed(2)}x | |`,
    );
    let contentRatio = 0;
    for (const content of await benchVerifyContent(service, client, apiKey)) {
      const ratio = content.ms / content.withoutMs;
      contentRatio = Math.max(contentRatio, ratio);
      console.log(
        `| POST /verify/file, marked 12 MP JPEG, ${content.copy}, with its content check (${content.state}; median of ${content.rounds}) | ${content.ms.toFixed(0)} | the same job without a content reference | ${content.withoutMs.toFixed(0)} | ${ratio.toFixed(2)}x | <= ${CONTENT_TARGET}x ${verdict(ratio <= CONTENT_TARGET)} |`,
      );
    }
    console.log(
      `\nmean per job in the service (ms): ${Object.entries(jobs.steps)
        .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
        .join(', ')}`,
    );
    if (overhead > JOBS_TARGET || contentRatio > CONTENT_TARGET) process.exitCode = 1;
  } finally {
    await service.close();
  }
}

function printRoutes(results: RouteResult[], processes: { one: Measured; many: Measured }): void {
  const ratio = (a: number, b: number) => `${(a / Math.max(b, 1e-9)).toFixed(2)}x`;
  console.log(
    `autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, loopback; medians of ${RUNS} runs; one API process`,
  );
  console.log(
    '| route | target | req/s | p50 ms | p99 ms | req/s vs floor | req/s vs bare | p99 vs floor |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const { route, service, floor, bare } of results) {
    for (const [name, m] of [
      ['service', service],
      ['floor (naive: key SELECT, EVAL, SQL)', floor],
      ['bare (same JSON, no work)', bare],
    ] as const) {
      console.log(
        `| ${route.name} | ${name} | ${m.requestsPerSecond.toFixed(0)} | ${m.p50Ms} | ${m.p99Ms} | ${ratio(m.requestsPerSecond, floor.requestsPerSecond)} | ${ratio(m.requestsPerSecond, bare.requestsPerSecond)} | ${ratio(m.p99Ms, floor.p99Ms)} |`,
      );
    }
  }
  console.log('');
  console.log('| target | measured | verdict |');
  console.log('|---|---|---|');
  for (const { route, service, floor, bare } of results) {
    const vsFloor = service.requestsPerSecond / floor.requestsPerSecond;
    if (route.method === 'GET') {
      const vsBare = service.requestsPerSecond / bare.requestsPerSecond;
      const p99 = service.p99Ms / Math.max(floor.p99Ms, 1);
      console.log(
        `| ${route.name} >= 1.0x floor | ${vsFloor.toFixed(2)}x | ${verdict(vsFloor >= 1)} |`,
      );
      console.log(
        `| ${route.name} >= 0.25x bare | ${vsBare.toFixed(2)}x | ${verdict(vsBare >= 0.25)} |`,
      );
      console.log(
        `| ${route.name} p99 <= 2x floor's | ${p99.toFixed(2)}x | ${verdict(p99 <= 2)} |`,
      );
    } else {
      console.log(
        `| ${route.name} >= 0.5x floor | ${vsFloor.toFixed(2)}x | ${verdict(vsFloor >= 0.5)} |`,
      );
    }
  }
  const scale = processes.many.requestsPerSecond / processes.one.requestsPerSecond;
  console.log(
    `| GET status, ${PROCESSES} API processes (${processes.many.requestsPerSecond.toFixed(0)} req/s) >= 1.3x of 1 (${processes.one.requestsPerSecond.toFixed(0)}), ${CONNECTIONS_PER_PROCESS * PROCESSES} connections | ${scale.toFixed(2)}x | ${verdict(scale >= 1.3)} |`,
  );
}

function printObservability(cost: ObservabilityCost): void {
  const vsOff = (m: Measured) => m.requestsPerSecond / cost.off.requestsPerSecond;
  console.log('');
  console.log(`GET status, one API process restarted with each setting, medians of ${RUNS} runs`);
  console.log('| setting | req/s | p99 ms | req/s vs off | target |');
  console.log('|---|---|---|---|---|');
  for (const [name, m, target] of [
    ['off (no METRICS_PORT, no OTEL endpoint)', cost.off, ''],
    [
      'metrics on (METRICS_PORT)',
      cost.metrics,
      `>= ${METRICS_TARGET}x ${verdict(vsOff(cost.metrics) >= METRICS_TARGET)}`,
    ],
    ['tracing on (every request a span, exported)', cost.tracing, ''],
  ] as const) {
    console.log(
      `| ${name} | ${m.requestsPerSecond.toFixed(0)} | ${m.p99Ms} | ${vsOff(m).toFixed(2)}x | ${target} |`,
    );
  }
}
