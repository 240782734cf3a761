// The request path against its two baselines, in the same run: the bare route (Fastify returning
// the same JSON, no work) and the floor route (bare Fastify doing the work naively: hashed-key
// SELECT, the rate-limit EVAL and the route's SQL, in sequence). Each (route, target) pair is
// loaded RUNS times, the three targets in turn within a run, and reported as medians.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../test/support/free-port.ts';
import type { RunningService } from '../test/support/service.ts';
import { type LoadResult, load } from './http-load.ts';

export const RUNS = 3;

export interface Route {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

/** Medians over the runs of one route on one target. */
export interface Measured {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface RouteResult {
  readonly route: Route;
  readonly service: Measured;
  readonly floor: Measured;
  readonly bare: Measured;
}

export interface HttpOptions {
  readonly seconds: number;
  readonly connections: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

export function medians(results: LoadResult[]): Measured {
  return {
    requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
  };
}

/** One bench server process (bare-server.ts or floor-server.ts) on a free port. */
export async function startBenchServer(
  file: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(import.meta.dirname, file), String(port), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await once(lines, 'line');
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/** Loads `url + route.path`, failing the bench on any error or non-2xx answer. */
export async function loadRoute(
  url: string,
  route: Route,
  authorization: string,
  options: HttpOptions,
): Promise<LoadResult> {
  const result = await load({
    url: `${url}${route.path}`,
    method: route.method,
    headers: { authorization, 'content-type': 'application/json' },
    ...(route.body === undefined ? {} : { body: route.body }),
    ...options,
  });
  if (result.errors + result.non2xx > 0) {
    throw new Error(`${route.name} on ${url}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  }
  return result;
}

/** Each route, RUNS times on the service, the floor and the bare server in turn. */
export async function benchRoutes(
  targets: { service: string; floor: string; bare: string },
  routes: readonly Route[],
  authorization: string,
  options: HttpOptions,
): Promise<RouteResult[]> {
  const results: RouteResult[] = [];
  for (const route of routes) {
    const runs = {
      service: [] as LoadResult[],
      floor: [] as LoadResult[],
      bare: [] as LoadResult[],
    };
    // A short warm-up of each: the first requests of a process pay for its JIT.
    for (const target of ['service', 'floor', 'bare'] as const) {
      await loadRoute(targets[target], route, authorization, { ...options, seconds: 1 });
    }
    for (let run = 0; run < RUNS; run++) {
      for (const target of ['service', 'floor', 'bare'] as const) {
        runs[target].push(await loadRoute(targets[target], route, authorization, options));
      }
    }
    results.push({
      route,
      service: medians(runs.service),
      floor: medians(runs.floor),
      bare: medians(runs.bare),
    });
  }
  return results;
}

/**
 * GET status with 1 and with `processes` API processes (API_PROCESSES), alternating, RUNS times
 * each; the api is restarted between them on the same port.
 */
export async function benchProcesses(
  service: RunningService,
  route: Route,
  authorization: string,
  processes: number,
  options: HttpOptions,
): Promise<{ one: Measured; many: Measured }> {
  const one: LoadResult[] = [];
  const many: LoadResult[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const [count, into] of [
      [1, one],
      [processes, many],
    ] as const) {
      await service.restartApi({ API_PROCESSES: String(count) });
      service.api.unfollow();
      // A warm-up: the first requests of a process pay for its JIT and heap sizing. 3 s, since
      // two processes get half the requests each (after 1 s, two processes measured 1.19-1.23x
      // of one; after 3 or 6 s, 1.27-1.28x).
      await loadRoute(service.baseUrl, route, authorization, { ...options, seconds: 3 });
      into.push(await loadRoute(service.baseUrl, route, authorization, options));
    }
  }
  return { one: medians(one), many: medians(many) };
}
