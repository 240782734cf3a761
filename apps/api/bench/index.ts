// `pnpm --filter @hallmark/api bench`: the service's HTTP cost per request, as a ratio to a bare
// Fastify route returning the same JSON in the same run (absolute numbers on these machines are
// noise). Api and worker run as real processes on a private database and Redis prefix.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { uploadFile, waitForJob } from '@hallmark/sdk';
import { freePort } from '../test/support/free-port.ts';
import { startService } from '../test/support/service.ts';
import { type LoadResult, load } from './http-load.ts';
import { benchJobs, benchRecordSteps } from './jobs.ts';
import { benchVerifyFile } from './verify.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const JOB_ROUNDS = Number(process.env.BENCH_JOB_ROUNDS ?? 6);
const CONNECTIONS = 10;
const photo = readFileSync(join(import.meta.dirname, '../../../fixtures/c2pa/no_manifest.jpg'));

// No limits: the bench measures the service, not its rate limiter (uploads count per address).
const service = await startService({
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000000',
});
try {
  const { client, apiKey } = await service.newClient();
  const bearer = `Bearer ${apiKey}`;
  const link = await client.createUploadLink({ contentType: 'image/jpeg', fileName: 'photo.jpg' });
  await uploadFile(link.uploadLink, photo, 'image/jpeg');
  const accepted = await client.createWatermarkJob({
    fileId: link.fileId,
    options: { watermarkType: ['c2pa'] },
  });
  const job = await waitForJob(client, accepted.requestId).catch(
    (error: { job?: unknown }) => error.job,
  );

  // BENCH_SKIP_HTTP=1 leaves out the HTTP part (to look at the job numbers alone).
  const bare = await startBare(JSON.stringify(job), JSON.stringify(link));
  try {
    const createBody = JSON.stringify({ contentType: 'image/jpeg', fileName: 'photo.jpg' });
    const routes = [
      ['GET /watermark/{requestId}', 'GET', `/watermark/${accepted.requestId}`, undefined],
      ['POST /claim/file-upload-link', 'POST', '/claim/file-upload-link', createBody],
    ] as const;
    const json = { 'content-type': 'application/json' };
    const rows: Array<[string, LoadResult, LoadResult]> = [];
    for (const [name, method, path, body] of process.env.BENCH_SKIP_HTTP === '1' ? [] : routes) {
      const measured = await load({
        url: `${service.baseUrl}${path}`,
        method,
        headers: { authorization: bearer, ...json },
        ...(body === undefined ? {} : { body }),
        seconds: SECONDS,
        connections: CONNECTIONS,
      });
      const baseline = await load({
        url: `${bare.url}${path}`,
        method,
        headers: json,
        ...(body === undefined ? {} : { body }),
        seconds: SECONDS,
        connections: CONNECTIONS,
      });
      if (measured.errors + measured.non2xx > 0)
        throw new Error(`${name}: ${measured.non2xx} non-2xx answers`);
      rows.push([name, measured, baseline]);
    }
    printTable(rows);
  } finally {
    bare.child.kill('SIGTERM');
  }

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
    `| ${what}, median of ${jobs.rounds.length} rounds | | | | ${overhead.toFixed(2)}x | <= 1.15x ${overhead <= 1.15 ? 'ok' : 'MISSED'} |`,
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
  console.log(
    `\nmean per job in the service (ms): ${Object.entries(jobs.steps)
      .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
      .join(', ')}`,
  );
  if (overhead > 1.15) process.exitCode = 1;
} finally {
  await service.close();
}

async function startBare(jobJson: string, linkJson: string) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'bare-server.ts'), String(port), jobJson, linkJson],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await once(lines, 'line');
  return { child, url: `http://127.0.0.1:${port}` };
}

function printTable(rows: Array<[string, LoadResult, LoadResult]>): void {
  const header = ['route', 'req/s', 'bare req/s', 'ratio', 'p99 ms', 'bare p99 ms', 'ratio'];
  const lines = rows.map(([name, m, b]) => [
    name,
    m.requestsPerSecond.toFixed(0),
    b.requestsPerSecond.toFixed(0),
    `${(m.requestsPerSecond / b.requestsPerSecond).toFixed(2)}x`,
    String(m.p99Ms),
    String(b.p99Ms),
    `${(m.p99Ms / Math.max(b.p99Ms, 1)).toFixed(2)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, loopback`);
  console.log(format(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const line of lines) console.log(format(line));
}
