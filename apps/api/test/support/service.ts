import { join } from 'node:path';
import { type DevChain, ensureDevChain } from '@hallmark/chain';
import type { HallmarkConfig } from '@hallmark/config';
import { createPrismaClient, issueApiKey, type PrismaClient } from '@hallmark/db';
import {
  createTestEnv,
  type ServiceProcess,
  type ServiceProcessOptions,
  startServiceProcess,
} from '@hallmark/runtime/testing';
import { HallmarkClient } from '@hallmark/sdk';
import { freePort } from './free-port.ts';

const apiEntry = join(import.meta.dirname, '../../dist/main.js');
const workerEntry = join(import.meta.dirname, '../../../worker/dist/main.js');

export interface RunningService {
  readonly baseUrl: string;
  readonly env: Record<string, string>;
  readonly prisma: PrismaClient;
  /** The local anvil chain the service mints on. */
  readonly chain: DevChain;
  api: ServiceProcess;
  worker: ServiceProcess;
  /** A client of the SDK with a new API key. */
  newClient(): Promise<{ client: HallmarkClient; apiKey: string }>;
  /** Another worker; `env` over the service's (a WORKER_CONCURRENCY of its own, say). */
  startWorker(
    options?: ServiceProcessOptions & { env?: Record<string, string> },
  ): Promise<ServiceProcess>;
  /** Another api process sharing everything, on a port of its own. */
  startApi(
    options?: ServiceProcessOptions,
  ): Promise<{ readonly process: ServiceProcess; readonly baseUrl: string }>;
  /** Stops the api and starts it again on the same port, with `env` over the service's. */
  restartApi(env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole service as it runs in production, on a private database, Redis prefix, data folder
 * and local chain: the built api and worker as real processes, reached over HTTP.
 */
export async function startService(
  env: Partial<Record<keyof HallmarkConfig, string>> = {},
): Promise<RunningService> {
  const port = await freePort();
  const base = await createTestEnv('e2e', { PORT: String(port), ...env });
  const chain = await ensureDevChain({ directory: join(base.config.HALLMARK_DATA_DIR, 'chain') });
  const testEnv = {
    ...base,
    env: {
      ...base.env,
      CHAIN_RPC_URL: chain.options.rpcUrl,
      CHAIN_ID: String(chain.options.chainId),
      CHAIN_CONTRACT_ADDRESS: chain.options.contractAddress,
      CHAIN_MINTER_KEY: chain.options.minterKey,
    },
  };
  const prisma = createPrismaClient(testEnv.config.DATABASE_URL);
  const api = startServiceProcess(apiEntry, testEnv.env);
  const startWorker = async ({
    env: own = {},
    ...options
  }: ServiceProcessOptions & { env?: Record<string, string> } = {}) => {
    const process = startServiceProcess(workerEntry, { ...testEnv.env, ...own }, options);
    await process.logged('worker ready');
    return process;
  };
  const [, worker] = await Promise.all([api.logged('api listening'), startWorker()]);
  const baseUrl = `http://127.0.0.1:${port}`;
  const service: RunningService = {
    baseUrl,
    env: testEnv.env,
    prisma,
    chain,
    api,
    worker,
    async newClient() {
      const key = await issueApiKey(prisma, 'e2e');
      return {
        client: new HallmarkClient({ baseUrl, token: key.plaintext }),
        apiKey: key.plaintext,
      };
    },
    startWorker,
    async startApi(options = {}) {
      const other = await freePort();
      const process = startServiceProcess(
        apiEntry,
        { ...testEnv.env, PORT: String(other) },
        options,
      );
      await process.logged('api listening');
      return { process, baseUrl: `http://127.0.0.1:${other}` };
    },
    async restartApi(env = {}) {
      await service.api.stop();
      service.api = startServiceProcess(apiEntry, { ...testEnv.env, ...env });
      await service.api.logged('api listening');
    },
    async close() {
      await Promise.all([service.api.stop(), service.worker.stop()]);
      await prisma.$disconnect();
      await chain.stop();
      await testEnv.dispose();
    },
  };
  return service;
}
