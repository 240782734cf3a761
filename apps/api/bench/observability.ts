// What metrics and traces cost the request path: GET status on one API process restarted with
// each setting in turn (off, metrics on, tracing on), RUNS times, as medians; the ratio to "off"
// in the same run is the price. Traces go to a sink in this process that answers at once.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../test/support/free-port.ts';
import type { RunningService } from '../test/support/service.ts';
import { type HttpOptions, loadRoute, type Measured, medians, type Route, RUNS } from './http.ts';
import type { LoadResult } from './http-load.ts';

export interface ObservabilityCost {
  readonly off: Measured;
  readonly metrics: Measured;
  readonly tracing: Measured;
}

export async function benchObservability(
  service: RunningService,
  route: Route,
  authorization: string,
  options: HttpOptions,
): Promise<ObservabilityCost> {
  const sink = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    );
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const settings = {
    off: {},
    metrics: { METRICS_PORT: String(await freePort()) },
    tracing: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
    },
  };
  const runs: Record<keyof typeof settings, LoadResult[]> = { off: [], metrics: [], tracing: [] };
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const name of ['off', 'metrics', 'tracing'] as const) {
        await service.restartApi({ API_PROCESSES: '1', ...settings[name] });
        service.api.unfollow();
        await loadRoute(service.baseUrl, route, authorization, { ...options, seconds: 2 });
        runs[name].push(await loadRoute(service.baseUrl, route, authorization, options));
      }
    }
  } finally {
    sink.close();
  }
  return { off: medians(runs.off), metrics: medians(runs.metrics), tracing: medians(runs.tracing) };
}
