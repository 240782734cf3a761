import { join } from 'node:path';
import { type ServiceProcess, startServiceProcess } from '@hallmark/runtime/testing';
import { freePort } from '../../../api/test/support/free-port.ts';
// The whole service on a private database, Redis prefix, data folder and chain: the same helper
// the API's end-to-end tests use, so both suites run the service one way.
import { type RunningService, startService } from '../../../api/test/support/service.ts';

export interface RunningConsole {
  readonly service: RunningService;
  readonly url: string;
  readonly process: ServiceProcess;
  close(): Promise<void>;
}

/** The service, and the built console (`server.ts` over `.next`) in front of it. */
export async function startConsole(): Promise<RunningConsole> {
  // The test's webhook receivers live on loopback, which a deployment refuses by default; the
  // public verify page is walked too.
  const port = await freePort();
  // The console's address, so the mails to requesters link its pages; every walk asks for keys
  // from the one browser address, more than a requester's hourly allowance.
  const service = await startService({
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_POLL_MS: '200',
    PUBLIC_VERIFY: 'true',
    ADMIN_PUBLIC_URL: `http://127.0.0.1:${port}`,
    KEY_REQUESTS_PER_HOUR: '100',
  });
  const consoleProcess = startServiceProcess(join(import.meta.dirname, '../../server.ts'), {
    ...service.env,
    ADMIN_PORT: String(port),
    ADMIN_API_URL: service.baseUrl,
  });
  try {
    await consoleProcess.logged('admin listening');
  } catch (error) {
    await service.close();
    throw error;
  }
  return {
    service,
    url: `http://127.0.0.1:${port}`,
    process: consoleProcess,
    async close() {
      await consoleProcess.stop();
      await service.close();
    },
  };
}
