import autocannon from 'autocannon';

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
}

/** One autocannon run on loopback, bounded in time, as the workplace's rules for load tests ask. */
export async function load(options: {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  seconds: number;
  connections: number;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method,
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    duration: options.seconds,
    connections: options.connections,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}
