import { createServer, type Server } from 'node:http';
import { type HallmarkConfig } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

/**
 * `GET /health` on WORKER_HEALTH_PORT, for liveness probes. It answers from the event loop, so a
 * prompt answer while images are being marked shows that pixel work stays off that loop.
 */
@Injectable()
export class HealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  #server: Server | undefined;

  constructor(@Inject(CONFIG) private readonly config: HallmarkConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.WORKER_HEALTH_PORT;
    if (port === undefined) return;
    this.#server = createServer((request, response) => {
      const ok = request.method === 'GET' && request.url === '/health';
      response.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(ok ? { status: 'ok' } : { status: 404 }));
    });
    const server = this.#server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.HOST, () => resolve());
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
