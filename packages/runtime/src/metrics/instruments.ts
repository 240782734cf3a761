import { Counter, Gauge, Histogram, type Registry, register } from 'prom-client';

// Every instrument of a Hallmark process, in prom-client's default registry: that is the one
// an API supervisor gathers from its forked processes (`AggregatorRegistry`). Labels are
// bounded sets (route templates, kinds, outcomes, catalogued codes): never a key, job or
// request id, which would grow a series per client or per request (per-key usage is kept in
// the database instead). Names and meanings: docs/monitoring.md.

/** Seconds, from a fast API answer to a slow 12 MP job step. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const httpRequestDuration = new Histogram({
  name: 'hallmark_http_request_duration_seconds',
  help: 'HTTP requests answered by the API, by route template, method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: SECONDS,
});

export const jobsFinished = new Counter({
  name: 'hallmark_jobs_total',
  help: 'Job runs by kind and outcome (success, failed, retried); code is the job error code of a failure.',
  labelNames: ['kind', 'outcome', 'code'] as const,
});

export const jobRunDuration = new Histogram({
  name: 'hallmark_job_run_duration_seconds',
  help: 'One run of a job, from its claim to its end, by kind and outcome.',
  labelNames: ['kind', 'outcome'] as const,
  buckets: SECONDS,
});

export const jobStepDuration = new Histogram({
  name: 'hallmark_job_step_duration_seconds',
  help: 'Each step of a watermark job (load, invisible, c2pa, store, ipfs, nft).',
  labelNames: ['step'] as const,
  buckets: SECONDS,
});

export const verificationsFinished = new Counter({
  name: 'hallmark_verifications_total',
  help: 'Finished verifications by origin (api, public, console, job) and verdict.',
  labelNames: ['origin', 'verdict'] as const,
});

export const webhookDeliveries = new Counter({
  name: 'hallmark_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered, failed).',
  labelNames: ['outcome'] as const,
});

export const webhookLatency = new Histogram({
  name: 'hallmark_webhook_attempt_duration_seconds',
  help: "A webhook delivery attempt, until the endpoint's answer or the failure.",
  labelNames: ['outcome'] as const,
  buckets: SECONDS,
});

export const mints = new Counter({
  name: 'hallmark_nft_mints_total',
  help: 'NFT mints confirmed on chain.',
});

export const mintGas = new Counter({
  name: 'hallmark_nft_mint_gas_total',
  help: 'Gas used by confirmed NFT mints.',
});

export const mintFee = new Counter({
  name: 'hallmark_nft_mint_fee_ether_total',
  help: 'Fees paid for confirmed NFT mints, in ether.',
});

export const storedBytes = new Counter({
  name: 'hallmark_stored_bytes_total',
  help: 'Bytes written, by where (storage: uploads and outputs; ipfs: records and NFT files).',
  labelNames: ['store'] as const,
});

export const rateLimited = new Counter({
  name: 'hallmark_rate_limited_total',
  help: 'Requests refused by a rate limit, by limit.',
  labelNames: ['limit'] as const,
});

export const apiKeyLookups = new Counter({
  name: 'hallmark_api_key_lookups_total',
  help: "Bearer credentials resolved, by whether the process's key cache answered (hit, miss).",
  labelNames: ['result'] as const,
});

/**
 * Queue depth and the oldest waiting entry's age, read from Redis when scraped. Every worker
 * reports the same figures (the queues are shared): aggregate with max, not sum.
 */
export function queueGauges(
  read: () => Promise<readonly QueueSample[]>,
  registry: Registry = register,
): void {
  // One Redis read per scrape for both gauges.
  const sample = oncePerScrape(read);
  new Gauge({
    name: 'hallmark_queue_jobs',
    help: 'Queue entries by queue and state (waiting, active, delayed).',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      for (const { queue, waiting, active, delayed } of await sample()) {
        this.set({ queue, state: 'waiting' }, waiting);
        this.set({ queue, state: 'active' }, active);
        this.set({ queue, state: 'delayed' }, delayed);
      }
    },
  });
  new Gauge({
    name: 'hallmark_queue_oldest_waiting_seconds',
    help: 'Age of the oldest entry waiting in each queue; 0 when none waits.',
    labelNames: ['queue'] as const,
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      for (const { queue, oldestWaitingSeconds } of await sample()) {
        this.set({ queue }, oldestWaitingSeconds);
      }
    },
  });
}

export interface QueueSample {
  readonly queue: string;
  readonly waiting: number;
  readonly active: number;
  readonly delayed: number;
  readonly oldestWaitingSeconds: number;
}

/**
 * Figures read when scraped. A reading that is not there (no signing, no chain) or could not be
 * made now (the chain or the database away) is null: its gauge is left out of that answer, and
 * the rest is still served.
 */
export interface OperationalReadings {
  /** When the signing certificate in use stops being valid. */
  readonly signingCertificateNotAfter: () => Date | null;
  /** The minter wallet's balance in ether. */
  readonly minterBalanceEther: () => Promise<number | null>;
  readonly webhookBacklog: () => Promise<WebhookBacklog | null>;
}

export interface WebhookBacklog {
  readonly due: number;
  readonly oldestDueSeconds: number;
}

/** What an operator is warned about before it stops jobs: certificate, wallet, webhook backlog. */
export function operationalGauges(
  readings: OperationalReadings,
  registry: Registry = register,
): void {
  new Gauge({
    name: 'hallmark_signing_certificate_expiry_timestamp_seconds',
    help: 'When the C2PA signing certificate in use expires (Unix time).',
    registers: [registry],
    aggregator: 'min',
    collect() {
      this.reset();
      const notAfter = readings.signingCertificateNotAfter();
      if (notAfter !== null) this.set(notAfter.getTime() / 1000);
    },
  });
  new Gauge({
    name: 'hallmark_nft_minter_balance_ether',
    help: "The minter wallet's balance, in ether.",
    registers: [registry],
    aggregator: 'min',
    async collect() {
      this.reset();
      const balance = await readings.minterBalanceEther();
      if (balance !== null) this.set(balance);
    },
  });
  const readBacklog = oncePerScrape(readings.webhookBacklog);
  new Gauge({
    name: 'hallmark_webhook_deliveries_due',
    help: 'Webhook deliveries due now and not yet delivered (every worker sees the same).',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      const read = await readBacklog();
      if (read !== null) this.set(read.due);
    },
  });
  new Gauge({
    name: 'hallmark_webhook_oldest_due_seconds',
    help: 'How long the longest-due webhook delivery has waited.',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      const read = await readBacklog();
      if (read !== null) this.set(read.oldestDueSeconds);
    },
  });
}

/**
 * `read`, shared by the gauges of one scrape: callers while a read is under way get its answer,
 * and the next scrape reads anew.
 */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= read().finally(() => {
      setImmediate(() => {
        pending = undefined;
      });
    });
    return pending;
  };
}
